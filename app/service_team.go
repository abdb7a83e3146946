package app

import (
	"context"
	"strings"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/model"
)

// Teams: who is a member, on every request; session tokens that can be
// revoked; invitations the invitee accepts; the list of a user's
// workspaces and switching between them.
//
// The token rule: a JWT names a user, an account and a token version. On
// every request that carries one (CheckSession) the account's grain — in
// memory, no store read — refuses it when the user is no member of that
// account (FORBIDDEN) or the version is older than the user's current one
// for the account (UNAUTHENTICATED). The version goes up on logout (the
// caller's account), on a password change (every account of the user) and
// on removal from the account; the check has no cache, so all three take
// effect on the next request.

// CheckSession refuses a signed-in principal (a JWT) whose user is no
// longer a member of the account it names, or whose token was revoked. A
// principal without a user (an API key, a session) passes.
func (s *Management) CheckSession(ctx context.Context, p model.Principal) error {
	if p.UserID == "" || p.AccountID == "" || p.System {
		return nil
	}
	err := s.grains.CheckSession(ctx, p.AccountID, p.UserID, p.TokenVersion)
	if model.ErrorCode(err) == model.CodeNotFound {
		return model.Errorf(model.CodeUnauthenticated, "the workspace of this session is gone; log in again")
	}
	return err
}

// Logout revokes the caller's session tokens for its account (every
// browser and Bearer header signed in to it as this user).
func (s *Management) Logout(ctx context.Context, p model.Principal) error {
	if p.UserID == "" || p.AccountID == "" {
		return nil
	}
	return s.grains.Account(p.AccountID).RevokeSessions(ctx, p.UserID)
}

// member returns the caller's membership of its account, as the account
// knows it now (FORBIDDEN when there is none).
func (s *core) member(ctx context.Context, p model.Principal) (*actors.AccountState, *model.Member, error) {
	if err := needUser(p); err != nil {
		return nil, nil, err
	}
	st, err := s.account(ctx, p.AccountID)
	if err != nil {
		return nil, nil, err
	}
	m := st.Account.Member(p.UserID)
	if m == nil {
		return nil, nil, model.Errorf(model.CodeForbidden, "you are no longer a member of this workspace")
	}
	return st, m, nil
}

// caller is the signed-in caller's membership of its account and its user
// record, which lists its workspaces and the invitations sent to it.
func (s *core) caller(ctx context.Context, p model.Principal) (*model.Member, *actors.UserState, error) {
	_, m, err := s.member(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	u, err := s.grains.User(m.User.Email).Get(ctx)
	if err != nil {
		return nil, nil, err
	}
	return m, u, nil
}

// ChangePassword checks the current password, revokes the user's tokens
// in every account they belong to, then sets the new password, and signs
// the caller in again to its account. A failure leaves the password as it
// was; at worst some tokens are revoked already, which is the safe side.
func (s *Management) ChangePassword(ctx context.Context, p model.Principal, current, next string) (model.User, *model.Account, error) {
	_, m, err := s.member(ctx, p)
	if err != nil {
		return model.User{}, nil, err
	}
	if len(next) < 8 || len(next) > 72 {
		return model.User{}, nil, model.Errorf(model.CodeBadUserInput, "a password has 8 to 72 characters")
	}
	done, err := s.grains.AdmitLogin(ctx, m.User.Email)
	if err != nil {
		return model.User{}, nil, err
	}
	u, err := s.grains.User(m.User.Email).Login(ctx, current)
	done(err)
	if err != nil {
		return model.User{}, nil, model.Errorf(model.CodeUnauthenticated, "the current password is wrong")
	}
	for _, id := range u.AccountIDs {
		if err := s.grains.Account(id).RevokeSessions(ctx, p.UserID); err != nil && model.ErrorCode(err) != model.CodeNotFound {
			return model.User{}, nil, err
		}
	}
	if err := s.grains.User(m.User.Email).ChangePassword(ctx, current, next, s.cfg.BcryptCost); err != nil {
		return model.User{}, nil, err
	}
	st, err := s.account(ctx, p.AccountID)
	if err != nil {
		return model.User{}, nil, err
	}
	return m.User, &st.Account, nil
}

// Workspaces lists the accounts the caller belongs to (its user record
// holds them), each as the account itself confirms: one the user was
// removed from is left out.
func (s *Management) Workspaces(ctx context.Context, p model.Principal) ([]model.Workspace, error) {
	_, u, err := s.caller(ctx, p)
	if err != nil {
		return nil, err
	}
	out := []model.Workspace{}
	for _, id := range u.AccountIDs {
		st, err := s.account(ctx, id)
		if model.ErrorCode(err) == model.CodeNotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		if mm := st.Account.Member(p.UserID); mm != nil {
			out = append(out, model.Workspace{ID: id, Name: st.Account.Name, Plan: st.Account.Plan, Role: mm.Role, Current: id == p.AccountID})
		}
	}
	return out, nil
}

// SwitchAccount signs the caller in to another of its accounts without a
// password: only a member of accountID may (FORBIDDEN otherwise, the same
// for an account that does not exist).
func (s *Management) SwitchAccount(ctx context.Context, p model.Principal, accountID string) (model.User, *model.Account, error) {
	_, m, err := s.member(ctx, p)
	if err != nil {
		return model.User{}, nil, err
	}
	if err := model.CheckID("accountId", accountID); err != nil {
		return model.User{}, nil, err
	}
	st, err := s.account(ctx, accountID)
	if model.ErrorCode(err) == model.CodeNotFound || err == nil && st.Account.Member(p.UserID) == nil {
		return model.User{}, nil, model.Errorf(model.CodeForbidden, "you are not a member of account %s", accountID)
	}
	if err != nil {
		return model.User{}, nil, err
	}
	return m.User, &st.Account, nil
}

// linkPrefix starts every invite link token: mgi_<account>.<invitation>.<secret>.
const linkPrefix = "mgi_"

// parseLink splits an invite link token; ok is false for anything else.
func parseLink(token string) (accountID, invitationID, secret string, ok bool) {
	parts := strings.Split(strings.TrimPrefix(token, linkPrefix), ".")
	if !strings.HasPrefix(token, linkPrefix) || len(parts) != 3 || len(token) > 200 {
		return "", "", "", false
	}
	for i, name := range []string{"accountId", "invitationId"} {
		if model.CheckID(name, parts[i]) != nil {
			return "", "", "", false
		}
	}
	return parts[0], parts[1], parts[2], parts[2] != ""
}
