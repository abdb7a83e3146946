package app

import (
	"context"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// InviteMember records a pending invitation of email to the caller's
// account with role (ADMIN or higher; OWNER only by an owner) and answers
// with it. The answer is the same whether or not the address belongs to a
// user: the e-mail, the role and PENDING, never a name or a user ID.
// Nobody joins until the invitee accepts (AnswerInvitation). The account's
// grain throttles invitations (Config.InviteLimit an hour).
func (s *Management) InviteMember(ctx context.Context, p model.Principal, email string, role model.Role) (model.Invitation, error) {
	st, m, err := s.member(ctx, p)
	if err != nil {
		return model.Invitation{}, err
	}
	if !m.Role.AtLeast(model.RoleAdmin) {
		return model.Invitation{}, model.Errorf(model.CodeForbidden, "inviting members needs role ADMIN or higher")
	}
	e, err := normEmail(email)
	if err != nil {
		return model.Invitation{}, err
	}
	if role.Rank() < 0 {
		return model.Invitation{}, model.Errorf(model.CodeBadUserInput, "unknown role %q", role)
	}
	inv := model.Invitation{ID: "inv" + ids.RandomString(12), AccountID: p.AccountID, AccountName: st.Account.Name,
		Email: e, Role: role, InvitedBy: p.UserID, InvitedByName: displayName(m.User)}
	next, err := s.grains.Account(p.AccountID).Invite(ctx, p.UserID, inv)
	if err != nil {
		return model.Invitation{}, err
	}
	got := invitationFor(next, e)
	if got == nil {
		return model.Invitation{}, model.Errorf(model.CodeInternal, "the invitation of %s was not kept", e)
	}
	if err := s.grains.User(e).AddInvite(ctx, p.AccountID, got.ID); err != nil {
		// Nothing half-written: the invitee could not find it, so it goes.
		_, _ = s.grains.Account(p.AccountID).RevokeInvite(ctx, "", got.ID)
		return model.Invitation{}, err
	}
	inv = shown(*got)
	inv.Maker = &m.User
	return inv, nil
}

// displayName is how an invitee sees who invited them.
func displayName(u model.User) string {
	if u.Name != "" {
		return u.Name
	}
	return u.Email
}

// invitationFor returns st's pending invitation of email, or nil.
func invitationFor(st *actors.AccountState, email string) *model.Invitation {
	for i := range st.Invitations {
		if st.Invitations[i].Email == email {
			return &st.Invitations[i]
		}
	}
	return nil
}

// shown is an invitation without its link's hash, and with the account's
// name as it is now.
func shown(inv model.Invitation) model.Invitation {
	inv.LinkHash = ""
	return inv
}

// pending returns st's live invitations, shown.
func (s *core) pending(st *actors.AccountState) []model.Invitation {
	now := s.clock.Now()
	out := []model.Invitation{}
	for _, inv := range st.Invitations {
		if now.Before(inv.ExpiresAt) {
			inv.AccountName = st.Account.Name
			out = append(out, shown(inv))
		}
	}
	return out
}

// Invitations lists the pending invitations of the caller's account for
// an ADMIN or higher; other members get none.
func (s *Management) Invitations(ctx context.Context, p model.Principal) ([]model.Invitation, error) {
	st, m, err := s.member(ctx, p)
	if err != nil {
		return nil, err
	}
	if !m.Role.AtLeast(model.RoleAdmin) {
		return []model.Invitation{}, nil
	}
	return withMakers(st, s.pending(st)), nil
}

// withMakers names the member who made each invitation (Invitation.Maker),
// for the account's own members only; an invitation whose maker is gone
// keeps none.
func withMakers(st *actors.AccountState, l []model.Invitation) []model.Invitation {
	for i := range l {
		if mk := st.Account.Member(l[i].InvitedBy); mk != nil && l[i].InvitedBy != "" {
			u := mk.User
			l[i].Maker = &u
		}
	}
	return l
}

// MyInvitations lists the pending invitations sent to the caller's e-mail
// address, from any account.
func (s *Management) MyInvitations(ctx context.Context, p model.Principal) ([]model.Invitation, error) {
	m, u, err := s.caller(ctx, p)
	if err != nil {
		return nil, err
	}
	out := []model.Invitation{}
	for _, ref := range u.Invites {
		st, err := s.account(ctx, ref.AccountID)
		if model.ErrorCode(err) == model.CodeNotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, inv := range s.pending(st) {
			if inv.ID == ref.InvitationID && inv.Email == m.User.Email {
				out = append(out, inv)
			}
		}
	}
	return out, nil
}

// CreateInviteLink makes the invitation's one-time link and returns its
// token; a new link replaces the invitation's last one. It needs the
// right to grant the invitation's role (ADMIN or higher; an OWNER
// invitation's link, an owner). Whoever holds the token may accept a
// VIEWER or EDITOR invitation once, signed in as any user; an ADMIN or
// OWNER invitation only by the address it was sent to
// (Invitation.AddressBound).
func (s *Management) CreateInviteLink(ctx context.Context, p model.Principal, invitationID string) (string, model.Invitation, error) {
	if _, _, err := s.member(ctx, p); err != nil {
		return "", model.Invitation{}, err
	}
	if err := model.CheckID("invitationId", invitationID); err != nil {
		return "", model.Invitation{}, err
	}
	secret := ids.RandomString(32)
	st, err := s.grains.Account(p.AccountID).InviteLink(ctx, p.UserID, invitationID, ids.HashSecret(secret))
	if err != nil {
		return "", model.Invitation{}, err
	}
	for _, inv := range withMakers(st, s.pending(st)) {
		if inv.ID == invitationID {
			return linkPrefix + p.AccountID + "." + invitationID + "." + secret, inv, nil
		}
	}
	return "", model.Invitation{}, model.Errorf(model.CodeNotFound, "no such pending invitation")
}

// InvitationByLink returns what an invite link's page shows (it needs no
// credential): the workspace, who invited and the role, without the
// address it was sent to. NOT_FOUND for a used, revoked, replaced or
// expired link, or anything else.
func (s *Management) InvitationByLink(ctx context.Context, token string) (model.Invitation, error) {
	inv, err := s.linked(ctx, token)
	if err != nil {
		return model.Invitation{}, err
	}
	inv.Email = ""
	return inv, nil
}

// linked finds the pending invitation a link token names.
func (s *core) linked(ctx context.Context, token string) (model.Invitation, error) {
	gone := model.Errorf(model.CodeNotFound, "this invite link was used, revoked or replaced, or it expired; ask for a new one")
	accountID, invitationID, secret, ok := parseLink(token)
	if !ok {
		return model.Invitation{}, gone
	}
	st, err := s.account(ctx, accountID)
	if err != nil {
		return model.Invitation{}, gone
	}
	hash := ids.HashSecret(secret)
	for _, inv := range st.Invitations {
		if inv.ID == invitationID && inv.LinkHash == hash && s.clock.Now().Before(inv.ExpiresAt) {
			inv.AccountName = st.Account.Name
			return inv, nil
		}
	}
	return model.Invitation{}, gone
}

// RevokeInvitation withdraws a pending invitation (ADMIN or higher).
func (s *Management) RevokeInvitation(ctx context.Context, p model.Principal, invitationID string) error {
	st, _, err := s.member(ctx, p)
	if err != nil {
		return err
	}
	var email string
	for _, inv := range st.Invitations {
		if inv.ID == invitationID {
			email = inv.Email
		}
	}
	if _, err := s.grains.Account(p.AccountID).RevokeInvite(ctx, p.UserID, invitationID); err != nil {
		return err
	}
	if email != "" { // the address's list forgets it; a stale entry is skipped on read anyway
		_ = s.grains.User(email).DropInvite(ctx, p.AccountID, invitationID)
	}
	return nil
}
