package actors

import (
	"sync/atomic"
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// keyGrain is one API key, identified by the SHA-256 of its value: the
// value itself is never stored. It also holds the key's actor slots
// (leases) and its actor-token issue rate. Revocation takes effect at once
// because every runtime request checks this grain's record (directly, or
// through the snapshot it publishes on its node before acknowledging).
type keyGrain struct {
	key    model.APIKey
	found  bool
	leases *leases
	issues *meter
	view   *keyView // the snapshot published in env.Local
	// used is the minute (Unix seconds / 60) of the key's last use seen on
	// this node, 0 if none since activation: runtime requests mark it
	// without a write, and flush records it in the key's lastUsedAt — so
	// lastUsedAt is kept to the minute, with at most one write a minute.
	used atomic.Int64
}

// keyState is the key grain's checkpoint.
type keyState struct {
	Key    model.APIKey `json:"key"`
	Leases []lease      `json:"leases,omitempty"`
	Issues meterState   `json:"issues"`
}

// keyView is what the key grain publishes on its node: an immutable copy
// of the record and the live lease table.
type keyView struct {
	key    *model.APIKey
	leases *leases
	used   *atomic.Int64 // the grain's used
}

// use checks that the key may open a request at now and, if so, marks it used.
func (v *keyView) use(now time.Time) error {
	if err := checkKeyUsable(v.key, now); err != nil {
		return err
	}
	v.markUsed(now)
	return nil
}

// markUsed notes that the key opened a request at now (see keyGrain.used).
func (v *keyView) markUsed(now time.Time) { markUsed(v.used, now) }

func markUsed(used *atomic.Int64, now time.Time) {
	m := now.Unix() / 60
	for {
		old := used.Load()
		if old >= m || used.CompareAndSwap(old, m) {
			return
		}
	}
}

// lastUsed is the key's lastUsedAt with the use marked since the last flush.
func (k *keyGrain) lastUsed() time.Time {
	if m := k.used.Load(); m > 0 && m*60 > k.key.LastUsedAt.Unix() {
		return time.Unix(m*60, 0).UTC()
	}
	return k.key.LastUsedAt
}

// ActorGrant is the answer of POST /runtime/actors.
type ActorGrant struct {
	ActorToken       string `json:"actorToken"`
	ExpiresInSeconds int    `json:"expiresInSeconds"`
	MaxActors        int    `json:"maxActors"`
	CurrentActors    int    `json:"currentActors"`
}

func (k *keyGrain) load(g *grain) error {
	var st keyState
	found, err := g.loadJSON(&st)
	if err != nil {
		return err
	}
	k.found, k.key = found, st.Key
	cfg := g.env.Config
	k.leases = newLeases(cfg.ActorIdle, st.Leases, g.env.Clock.Now())
	k.issues = newMeter(perMinute, int64(cfg.ActorIssueLimit), st.Issues)
	k.publish(g)
	return nil
}

// publish makes the key's current record the node's read snapshot, or
// withdraws it when the key is gone.
func (k *keyGrain) publish(g *grain) {
	g.env.Local.withdrawKey(g.id, k.view)
	k.view = nil
	if k.found && !k.key.Deleted {
		rec := k.key
		k.view = &keyView{key: &rec, leases: k.leases, used: &k.used}
		g.env.Local.publishKey(g.id, k.view)
	}
}

func (k *keyGrain) stopped(g *grain) {
	k.flush(g)
	g.env.Local.withdrawKey(g.id, k.view)
	k.view = nil
}

// flush checkpoints lease touches and the issue count, at most once a
// second (the grain's flush tick): a crash loses at most that much of them,
// and restores leases as used at restart, so it never frees a slot early.
func (k *keyGrain) flush(g *grain) {
	if !k.found {
		return
	}
	ls, ld := k.leases.list()
	is, id := k.issues.checkpoint()
	used := false
	if t := k.lastUsed(); !t.Equal(k.key.LastUsedAt) {
		k.key.LastUsedAt, used = t, true
	}
	if ld || id || used {
		if err := g.saveJSON(keyState{Key: k.key, Leases: ls, Issues: is}); err != nil {
			g.env.Log.Warn("key checkpoint failed", "err", err)
		}
	}
}

// save checkpoints everything now (before acknowledging a grant or release).
func (k *keyGrain) save(g *grain, key model.APIKey) error {
	ls, _ := k.leases.list()
	is, _ := k.issues.checkpoint()
	return g.saveJSON(keyState{Key: key, Leases: ls, Issues: is})
}

// handle is the type list of what a key grain can be asked.
func (k *keyGrain) handle(g *grain, c *call) (result, error) {
	switch m := c.req.(type) {
	case *pb.KeyCreate:
		return k.create(g, m)
	case *pb.KeyGet, *pb.KeyAuth, *pb.KeyRevoke, *pb.KeyDelete, *pb.KeyAcquire, *pb.KeyTouch, *pb.KeyRelease:
		return k.run(g, c)
	}
	return nil, unknownRequest(g, c)
}

// run answers a request of handle's second case.
func (k *keyGrain) run(g *grain, c *call) (result, error) {
	if !k.found || k.key.Deleted {
		return nil, model.Errorf(model.CodeAPIKeyInvalid, "unknown, revoked or deleted API key")
	}
	now := g.env.Clock.Now()
	switch m := c.req.(type) {
	case *pb.KeyGet:
		out := k.key
		out.LastUsedAt = k.lastUsed()
		out.ActiveActors = k.leases.live(now)
		return keyReply(out), nil
	case *pb.KeyAuth:
		if err := checkKeyUsable(&k.key, now); err != nil {
			return nil, err
		}
		markUsed(&k.used, now)
		return keyReply(k.key), nil
	case *pb.KeyRevoke:
		return k.set(g, func(key *model.APIKey) { key.Revoked = true })
	case *pb.KeyDelete:
		return k.set(g, func(key *model.APIKey) { key.Deleted = true })
	case *pb.KeyAcquire:
		return k.acquire(g, now)
	case *pb.KeyTouch:
		return nil, k.leases.touch(m.TokenHash, now)
	case *pb.KeyRelease:
		return doneReply(k.leases.release(m.TokenHash)), k.save(g, k.key)
	}
	return nil, unknownRequest(g, c)
}

func (k *keyGrain) create(g *grain, m *pb.KeyCreate) (result, error) {
	if k.found {
		return keyReply(k.key), nil // a retried create
	}
	if len(m.Key.GetJson()) == 0 {
		return nil, model.Errorf(model.CodeBadUserInput, "key missing")
	}
	key, err := decodeDoc[model.APIKey](m.Key.GetJson())
	if err != nil {
		return nil, err
	}
	if err := k.save(g, *key); err != nil {
		return nil, err
	}
	k.key, k.found = *key, true
	k.publish(g)
	return keyReply(k.key), nil
}

// acquire issues an actor token if the issue rate and a free slot allow.
func (k *keyGrain) acquire(g *grain, now time.Time) (result, error) {
	if err := checkKeyUsable(&k.key, now); err != nil {
		return nil, err
	}
	if ok, retry := k.issues.take(now); !ok {
		return nil, &model.Error{Code: model.CodeRateLimitExceeded, RetryAfter: retry,
			Message: "too many actor tokens requested for this key this minute; reuse an active token"}
	}
	token := actorTokenPrefix + k.key.ID + "_" + ids.RandomString(32)
	ok, current, retry := k.leases.acquire(ids.HashSecret(token), k.key.MaxActors, now)
	if !ok {
		return nil, &model.Error{Code: model.CodeMaxActors, RetryAfter: retry,
			Message: "all actor slots of this key are in use; retry after the soonest one frees, or release a token with DELETE /runtime/actors",
			Extra:   map[string]any{"error": model.CodeMaxActors, "maxActors": k.key.MaxActors, "currentActors": current, "retryAfterSeconds": retry}}
	}
	if err := k.save(g, k.key); err != nil {
		k.leases.release(ids.HashSecret(token))
		return nil, err
	}
	return ActorGrant{ActorToken: token, ExpiresInSeconds: int(g.env.Config.ActorIdle / time.Second),
		MaxActors: k.key.MaxActors, CurrentActors: current}, nil
}

// checkKeyUsable refuses a revoked or expired key.
func checkKeyUsable(k *model.APIKey, now time.Time) error {
	switch {
	case k.Revoked || k.Deleted:
		return model.Errorf(model.CodeAPIKeyInvalid, "this API key was revoked")
	case k.Expired(now):
		return model.Errorf(model.CodeAPIKeyExpired, "this API key expired at %s", k.ExpiresAt.UTC().Format("2006-01-02T15:04:05Z"))
	}
	return nil
}

func (k *keyGrain) set(g *grain, edit func(*model.APIKey)) (result, error) {
	next := k.key
	edit(&next)
	if err := k.save(g, next); err != nil {
		return nil, err
	}
	k.key = next
	k.publish(g)
	return keyReply(k.key), nil
}
