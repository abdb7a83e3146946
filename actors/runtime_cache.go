package actors

import (
	"sync"
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// keyCacheTTL bounds how long a project grain's node trusts a key record it
// fetched from the key's grain on another node. Revocation and deletion
// evict at once (RevokeAPIKey asks the project grain before it answers);
// the TTL only bounds lastUsedAt's lag and a lost eviction.
const keyCacheTTL = 30 * time.Second

// keyCache holds the records of keys that recently called a project, on the
// node where the project grain is active, so a runtime request there does
// not make a round trip to a key grain that lives on another node. The
// grain creates it on activation; it dies with the activation. Safe for
// concurrent use.
type keyCache struct {
	mu    sync.Mutex
	epoch uint64 // bumped by every eviction
	m     map[string]cachedKey
}

type cachedKey struct {
	key model.APIKey
	at  time.Time
}

func newKeyCache() *keyCache { return &keyCache{m: map[string]cachedKey{}} }

// get returns the cached record of hash if it is younger than the TTL.
func (c *keyCache) get(hash string, now time.Time) (model.APIKey, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k, ok := c.m[hash]
	if !ok || now.Sub(k.at) >= keyCacheTTL {
		return model.APIKey{}, false
	}
	return k.key, true
}

// begin returns the epoch to pass to put after fetching a record.
func (c *keyCache) begin() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.epoch
}

// put caches a record fetched since begin returned epoch, unless an
// eviction happened meanwhile: the fetch may then predate a revocation.
func (c *keyCache) put(epoch uint64, hash string, k model.APIKey, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.epoch == epoch {
		c.m[hash] = cachedKey{key: k, at: now}
	}
}

// evict drops hash and invalidates every fetch in flight.
func (c *keyCache) evict(hash string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	delete(c.m, hash)
}

// leaseWant is the most quota units a project's node leases at once from
// an account or session grain on another node; the grain grants fewer as
// the quota runs out (meter.lease).
const leaseWant = 64

// leaseTTL is how long leased units may be spent. Left-over units go back
// with the next lease call, so a plan change reaches every node within
// leaseTTL.
const leaseTTL = time.Second

// quotaLease is a block of quota units the project grain's node took from
// the meter of the grain that pays for the project (its account, or its
// guest session) when that grain lives on another node: requests then
// count locally, and the round trip happens once a block. Units are counted
// as used when leased, so a node that dies with units left over-counts and
// never over-admits. Safe for concurrent use.
type quotaLease struct {
	mu       sync.Mutex
	kind, id string    // the meter's grain
	start    time.Time // the window the units belong to
	until    time.Time // the end of the window or of leaseTTL, whichever is first
	units    int64
}

// take uses one unit if the lease holds one for kind/id in the window at now.
// mu is held.
func (l *quotaLease) take(kind, id string, now time.Time) bool {
	if l.units > 0 && l.kind == kind && l.id == id && now.Before(l.until) && !now.Before(l.start) {
		l.units--
		return true
	}
	return false
}

// leftover is what the lease can give back to kind/id (the meter takes
// back only units of its current window). mu is held.
func (l *quotaLease) leftover(kind, id string) leaseArgs {
	if l.units == 0 || l.kind != kind || l.id != id {
		return leaseArgs{}
	}
	return leaseArgs{Return: l.units, ReturnStart: l.start}
}

// set records a grant made at now. mu is held.
func (l *quotaLease) set(kind, id string, g leaseGrant, now time.Time) {
	l.kind, l.id, l.start, l.units = kind, id, g.Start, g.Units
	l.until = now.Add(leaseTTL)
	if g.End.Before(l.until) {
		l.until = g.End
	}
}

// leaseArgs asks a meter grain for up to Want units and gives back Return
// unused units of the window starting at ReturnStart.
type leaseArgs struct {
	Want        int64     `json:"want,omitempty"`
	Return      int64     `json:"return,omitempty"`
	ReturnStart time.Time `json:"returnStart"`
}

// leaseGrant is the answer: Units counted as used in the window [Start, End).
type leaseGrant struct {
	Units int64     `json:"units"`
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// serveLease answers a meter grain's "lease" call from m.
func serveLease(m *meter, a *pb.Lease, now time.Time, refuse func(retry int) error) (result, error) {
	if a.Return > 0 {
		m.giveBack(unstamp(a.ReturnStart), a.Return)
	}
	if a.Want <= 0 {
		return leaseGrant{}, nil
	}
	n, start, end, retry := m.lease(now, a.Want)
	if n == 0 {
		return nil, refuse(retry)
	}
	return leaseGrant{Units: n, Start: start, End: end}, nil
}
