package http

import (
	"context"

	"github.com/mockgql/mockgql/model"
)

// The resolvers in this file serve API keys.

// apiKeys resolves Query.apiKeys.
func (s *Surface) apiKeys(ctx context.Context, c *Call, args input) (any, error) {
	keys, err := s.cfg.Backend.APIKeys(ctx, c.Principal, args.str("projectId"))
	if err != nil {
		return nil, err
	}
	return shapeAll(keys, s.shaper(c).apiKey), nil
}

// createAPIKey resolves Mutation.createApiKey. An absent expiresAt is no
// expiry; an absent maxActors is 0, which the Backend takes as its default; an
// explicit 0 is refused (BAD_USER_INPUT).
func (s *Surface) createAPIKey(ctx context.Context, c *Call, args input) (any, error) {
	expires, err := args.dateTime("expiresAt")
	if err != nil {
		return nil, err
	}
	maxActors, given := args.integer("maxActors")
	if given && maxActors < 1 { // 0 would be the Backend's default: refuse it as given
		return nil, model.Errorf(model.ErrBadUserInput, "maxActors is 1 to 1000 (left out: %d)", model.DefaultMaxActors)
	}
	k, err := s.cfg.Backend.CreateAPIKey(ctx, c.Principal, args.str("projectId"), args.str("name"),
		model.Scope(args.str("scope")), expires, maxActors)
	if err != nil {
		return nil, err
	}
	return s.shaper(c).createdKey(k), nil
}

// revokeAPIKey resolves Mutation.revokeApiKey.
func (s *Surface) revokeAPIKey(ctx context.Context, c *Call, args input) (any, error) {
	k, err := s.cfg.Backend.RevokeAPIKey(ctx, c.Principal, args.str("keyId"))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).apiKey(k), nil
}

// deleteAPIKey resolves Mutation.deleteApiKey.
func (s *Surface) deleteAPIKey(ctx context.Context, c *Call, args input) (any, error) {
	return done(s.cfg.Backend.DeleteAPIKey(ctx, c.Principal, args.str("keyId")))
}
