package actors

import (
	"github.com/mockgql/mockgql/model"
)

// keyGrain is one API key, identified by the SHA-256 of its value: the
// value itself is never stored. Revocation takes effect at once because
// every runtime request asks this grain.
type keyGrain struct {
	key   model.APIKey
	found bool
}

type keyArgs struct {
	Key *model.APIKey `json:"key,omitempty"`
}

func (k *keyGrain) load(g *grain) (err error) {
	k.found, err = g.loadJSON(&k.key)
	return err
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
	return k.key, nil
}

// auth answers whether the key may be used now. lastUsedAt is kept in
// memory and written with the next checkpoint of the key (it is advisory).
func (k *keyGrain) auth(g *grain) (any, error) {
	now := g.env.Clock.Now()
	switch {
	case k.key.Revoked:
		return nil, model.Errorf(model.ErrAPIKeyInvalid, "this API key was revoked")
	case k.key.Expired(now):
		return nil, model.Errorf(model.ErrAPIKeyExpired, "this API key expired at %s", k.key.ExpiresAt.UTC().Format("2006-01-02T15:04:05Z"))
	}
	k.key.LastUsedAt = now
	return k.key, nil
}

func (k *keyGrain) set(g *grain, edit func(*model.APIKey)) (any, error) {
	next := k.key
	edit(&next)
	if err := commit(g, next, func(v model.APIKey) { k.key = v }); err != nil {
		return nil, err
	}
	return k.key, nil
}
