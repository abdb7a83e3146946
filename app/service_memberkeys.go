package app

import (
	"context"
	"sort"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/model"
)

// RevokeMemberKeys revokes the keys userID created in p's account that
// are not revoked yet, and returns how many it revoked. It needs role
// ADMIN or higher; userID may be a member or a former one (keys outlive
// their maker unless revoked). removeMember calls it when asked to
// (revokeKeys), after the member is removed.
func (s *Management) RevokeMemberKeys(ctx context.Context, p model.Principal, userID string) (int, error) {
	if err := needUser(p); err != nil {
		return 0, err
	}
	st, err := s.account(ctx, p.AccountID)
	if err != nil {
		return 0, err
	}
	if m := st.Account.Member(p.UserID); m == nil || !m.Role.AtLeast(model.RoleAdmin) {
		return 0, model.Errorf(model.CodeForbidden, "revoking a member's keys needs role ADMIN or higher")
	}
	n := 0
	for _, ref := range keysMadeBy(st, userID) {
		revoked, err := s.revokeLive(ctx, ref)
		if err != nil {
			return n, err
		}
		if revoked {
			n++
		}
	}
	return n, nil
}

// keysMadeBy lists the account's keys that userID created, in ID order.
func keysMadeBy(st *actors.AccountState, userID string) []actors.KeyRef {
	var ids []string
	for id, ref := range st.Keys {
		if userID != "" && ref.CreatedBy == userID {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	out := make([]actors.KeyRef, 0, len(ids))
	for _, id := range ids {
		out = append(out, st.Keys[id])
	}
	return out
}

// revokeLive revokes the key ref names unless it is revoked or gone, and
// reports whether it did.
func (s *core) revokeLive(ctx context.Context, ref actors.KeyRef) (bool, error) {
	k, err := s.grains.Key(ref.Hash).Get(ctx)
	switch {
	case model.ErrorCode(err) == model.CodeAPIKeyInvalid:
		return false, nil
	case err != nil:
		return false, err
	case k.Revoked:
		return false, nil
	}
	if _, err := s.grains.Key(ref.Hash).Revoke(ctx); err != nil {
		return false, err
	}
	return true, s.evictKey(ctx, ref)
}
