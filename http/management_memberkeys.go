package http

import (
	"context"

	"github.com/mockgql/mockgql/model"
)

// MemberKeys is what removing a member with their keys asks: the keys a
// member made outlive them unless revoked.
type MemberKeys interface {
	RemoveMember(ctx context.Context, p Principal, userID string) error
	// RevokeMemberKeys revokes the live keys userID made in p's account
	// (ADMIN or higher) and returns how many.
	RevokeMemberKeys(ctx context.Context, p Principal, userID string) (int, error)
}

// memberKeyResolvers resolve removeMember and removeMemberWithKeys.
type memberKeyResolvers struct {
	*Surface
	b MemberKeys
}

// removeMember resolves Mutation.removeMember: the member goes, then,
// with revokeKeys, the keys they made.
func (s memberKeyResolvers) removeMember(ctx context.Context, c *Call, args input) (any, error) {
	_, err := s.remove(ctx, c.Principal, args.str("userId"), args.boolean("revokeKeys"))
	return done(err)
}

// removeMemberWithKeys resolves Mutation.removeMemberWithKeys
// (revokeKeys defaults to true there).
func (s memberKeyResolvers) removeMemberWithKeys(ctx context.Context, c *Call, args input) (any, error) {
	revoke := true
	if v, ok := args["revokeKeys"].(bool); ok {
		revoke = v
	}
	userID := args.str("userId")
	n, err := s.remove(ctx, c.Principal, userID, revoke)
	if err != nil {
		return nil, err
	}
	return map[string]any{"userId": userID, "revokedKeys": n}, nil
}

// remove removes the member and, if asked, revokes their keys.
func (s memberKeyResolvers) remove(ctx context.Context, p Principal, userID string, revoke bool) (int, error) {
	if err := model.CheckID("userId", userID); err != nil {
		return 0, err
	}
	if err := s.b.RemoveMember(ctx, p, userID); err != nil || !revoke {
		return 0, err
	}
	return s.b.RevokeMemberKeys(ctx, p, userID)
}

// revokeMemberKeys resolves Mutation.revokeMemberKeys: the keys a member
// or former member made, revoked; the answer is how many.
func (s memberKeyResolvers) revokeMemberKeys(ctx context.Context, c *Call, args input) (any, error) {
	userID := args.str("userId")
	if err := model.CheckID("userId", userID); err != nil {
		return nil, err
	}
	return s.b.RevokeMemberKeys(ctx, c.Principal, userID)
}
