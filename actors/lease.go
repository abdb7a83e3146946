package actors

import (
	"strings"
	"sync"
	"time"

	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// actorTokenPrefix starts every actor token: act_<keyID>_<32 base62>. The
// key's ID (public) lets a request with another key's token be told apart.
const actorTokenPrefix = "act_"

// lease is one actor slot held by a token (only the token's hash is kept).
type lease struct {
	Hash     string    `json:"hash"`
	Issued   time.Time `json:"issued"`
	LastUsed time.Time `json:"lastUsed"`
}

// leases is an API key's actor slots. The key grain owns it; grants and
// releases happen on the grain (strict: one at a time, checkpointed before
// they are acknowledged); on the grain's node the local read path also
// touches leases directly, which only moves idle deadlines. Safe for
// concurrent use.
type leases struct {
	mu    sync.Mutex
	idle  time.Duration
	m     map[string]*lease
	dirty bool // touched since the last checkpoint
}

func newLeases(idle time.Duration, saved []lease, now time.Time) *leases {
	l := &leases{idle: idle, m: map[string]*lease{}}
	for _, s := range saved {
		s := s
		// Touches after the last checkpoint were not saved: count the
		// lease as used now rather than free a slot someone may hold.
		if s.LastUsed.Before(now) {
			s.LastUsed = now
		}
		l.m[s.Hash] = &s
	}
	return l
}

// purge drops idle leases; mu is held.
func (l *leases) purge(now time.Time) {
	for h, x := range l.m {
		if now.Sub(x.LastUsed) >= l.idle {
			delete(l.m, h)
		}
	}
}

// acquire grants a slot to hash if fewer than max are live. Otherwise it
// returns the live count and the seconds until the soonest slot frees.
func (l *leases) acquire(hash string, max int, now time.Time) (ok bool, current, retryAfter int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.purge(now)
	if len(l.m) >= max {
		soonest := time.Duration(-1)
		for _, x := range l.m {
			if d := x.LastUsed.Add(l.idle).Sub(now); soonest < 0 || d < soonest {
				soonest = d
			}
		}
		return false, len(l.m), secondsUntil(now, now.Add(soonest))
	}
	l.m[hash] = &lease{Hash: hash, Issued: now, LastUsed: now}
	return true, len(l.m), 0
}

// touch restarts the idle time of a live lease.
func (l *leases) touch(hash string, now time.Time) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	x, ok := l.m[hash]
	switch {
	case !ok:
		return model.Errorf(model.CodeActorTokenInvalid, "unknown actor token: it was released, or it expired and its slot was freed; get a new one from POST /runtime/actors")
	case now.Sub(x.LastUsed) >= l.idle:
		delete(l.m, hash)
		return model.Errorf(model.CodeActorTokenInvalid, "this actor token expired after %s without requests; get a new one", l.idle)
	}
	x.LastUsed = now
	l.dirty = true
	return nil
}

// release frees a slot; it reports whether the lease was live.
func (l *leases) release(hash string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.m[hash]
	delete(l.m, hash)
	return ok
}

// live returns the number of live leases.
func (l *leases) live(now time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.purge(now)
	return len(l.m)
}

// list returns copies of the leases, for a checkpoint, and whether they
// were touched since the last list.
func (l *leases) list() ([]lease, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	d := l.dirty
	l.dirty = false
	out := make([]lease, 0, len(l.m))
	for _, x := range l.m {
		out = append(out, *x)
	}
	return out, d
}

// checkActorToken checks a token's shape and that it names keyID; it
// returns the token's hash.
func checkActorToken(token, keyID string) (string, error) {
	rest, ok := strings.CutPrefix(token, actorTokenPrefix)
	i := strings.LastIndexByte(rest, '_')
	if !ok || i <= 0 || len(rest)-i-1 != 32 {
		return "", model.Errorf(model.CodeActorTokenInvalid, "malformed actor token: it looks like act_<key id>_<32 letters and digits>, as POST /runtime/actors returns it")
	}
	if rest[:i] != keyID {
		return "", model.Errorf(model.CodeActorTokenInvalid, "this actor token belongs to another API key")
	}
	return ids.HashSecret(token), nil
}
