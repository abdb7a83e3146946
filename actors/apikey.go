package actors

import (
	"time"

	"github.com/mockgql/mockgql/model"
)

// keyGrain is one API key, identified by the SHA-256 of its value: the
// value itself is never stored. Revocation takes effect at once because
// every runtime request asks this grain.
type keyGrain struct {
	key   model.APIKey
	found bool
	view  *model.APIKey // the snapshot published in env.Local
}

type keyArgs struct {
	Key *model.APIKey `json:"key,omitempty"`
}

func (k *keyGrain) load(g *grain) (err error) {
	k.found, err = g.loadJSON(&k.key)
	k.publish(g)
	return err
}

// publish makes the key's current record the node's read snapshot, or
// withdraws it when the key is gone. Revocation is published before it is
// acknowledged, so it takes effect at once on the local read path too.
func (k *keyGrain) publish(g *grain) {
	g.env.Local.withdrawKey(g.id, k.view)
	k.view = nil
	if k.found && !k.key.Deleted {
		k.view = g.env.Local.publishKey(g.id, &k.key)
	}
}

func (k *keyGrain) stopped(g *grain) {
	g.env.Local.withdrawKey(g.id, k.view)
	k.view = nil
}

func (k *keyGrain) handle(g *grain, c *call) (any, error) {
	var a keyArgs
	if err := c.decode(&a); err != nil {
		return nil, err
	}
	if c.req.Method == "create" {
		return k.create(g, a)
	}
	if !k.found || k.key.Deleted {
		return nil, model.Errorf(model.ErrAPIKeyInvalid, "unknown, revoked or deleted API key")
	}
	switch c.req.Method {
	case "get":
		return k.key, nil
	case "auth":
		return k.auth(g)
	case "revoke":
		return k.set(g, func(key *model.APIKey) { key.Revoked = true })
	case "delete":
		return k.set(g, func(key *model.APIKey) { key.Deleted = true })
	}
	return nil, unknownMethod(g, c)
}

func (k *keyGrain) create(g *grain, a keyArgs) (any, error) {
	if k.found {
		return k.key, nil // a retried create
	}
	if a.Key == nil {
		return nil, model.Errorf(model.ErrBadUserInput, "key missing")
	}
	if err := commit(g, *a.Key, func(v model.APIKey) { k.key, k.found = v, true }); err != nil {
		return nil, err
	}
	k.publish(g)
	return k.key, nil
}

// auth answers whether the key may be used now. lastUsedAt is kept in
// memory and written with the next checkpoint of the key (it is advisory).
func (k *keyGrain) auth(g *grain) (any, error) {
	now := g.env.Clock.Now()
	if err := checkKeyUsable(&k.key, now); err != nil {
		return nil, err
	}
	k.key.LastUsedAt = now
	return k.key, nil
}

// checkKeyUsable refuses a revoked or expired key.
func checkKeyUsable(k *model.APIKey, now time.Time) error {
	switch {
	case k.Revoked || k.Deleted:
		return model.Errorf(model.ErrAPIKeyInvalid, "this API key was revoked")
	case k.Expired(now):
		return model.Errorf(model.ErrAPIKeyExpired, "this API key expired at %s", k.ExpiresAt.UTC().Format("2006-01-02T15:04:05Z"))
	}
	return nil
}

func (k *keyGrain) set(g *grain, edit func(*model.APIKey)) (any, error) {
	next := k.key
	edit(&next)
	if err := commit(g, next, func(v model.APIKey) { k.key = v }); err != nil {
		return nil, err
	}
	k.publish(g)
	return k.key, nil
}
