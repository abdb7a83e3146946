package http

import (
	"context"
	"time"

	"github.com/mockgql/mockgql/model"
)

// KeyAdmin is what the management API's API-key fields ask.
type KeyAdmin interface {
	APIKeys(ctx context.Context, p Principal, projectID string) ([]model.APIKey, error)
	CreateAPIKey(ctx context.Context, p Principal, projectID, name string, scope model.Scope, expiresAt time.Time, maxActors int) (CreatedKey, error)
	RevokeAPIKey(ctx context.Context, p Principal, keyID string) (model.APIKey, error)
	DeleteAPIKey(ctx context.Context, p Principal, keyID string) error
}

// keyResolvers resolve the fields of API keys.
type keyResolvers struct {
	*Surface
	b KeyAdmin
}

// apiKeys resolves Query.apiKeys.
func (s keyResolvers) apiKeys(ctx context.Context, c *Call, args input) (any, error) {
	keys, err := s.b.APIKeys(ctx, c.Principal, args.str("projectId"))
	if err != nil {
		return nil, err
	}
	return shapeAll(keys, s.shaper(c).apiKey), nil
}

// createAPIKey resolves Mutation.createApiKey. An absent expiresAt is no
// expiry; an absent maxActors is 0, which the backend takes as its default; an
// explicit 0 is refused (BAD_USER_INPUT).
func (s keyResolvers) createAPIKey(ctx context.Context, c *Call, args input) (any, error) {
	expires, err := args.dateTime("expiresAt")
	if err != nil {
		return nil, err
	}
	maxActors, given := args.integer("maxActors")
	if given && maxActors < 1 { // 0 would be the backend's default: refuse it as given
		return nil, model.Errorf(model.CodeBadUserInput, "maxActors is 1 to 1000 (left out: %d)", model.DefaultMaxActors)
	}
	k, err := s.b.CreateAPIKey(ctx, c.Principal, args.str("projectId"), args.str("name"),
		model.Scope(args.str("scope")), expires, maxActors)
	if err != nil {
		return nil, err
	}
	return s.shaper(c).createdKey(k), nil
}

// revokeAPIKey resolves Mutation.revokeApiKey.
func (s keyResolvers) revokeAPIKey(ctx context.Context, c *Call, args input) (any, error) {
	k, err := s.b.RevokeAPIKey(ctx, c.Principal, args.str("keyId"))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).apiKey(k), nil
}

// deleteAPIKey resolves Mutation.deleteApiKey.
func (s keyResolvers) deleteAPIKey(ctx context.Context, c *Call, args input) (any, error) {
	return done(s.b.DeleteAPIKey(ctx, c.Principal, args.str("keyId")))
}
