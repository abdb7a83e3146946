package app

import (
	"context"
	"slices"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// AnswerInvitation accepts or declines an invitation for the signed-in
// caller: one sent to their address (invitationID), or the one an invite
// link names (token). Accepting makes them a member with the invitation's
// role and lists the account among their workspaces; it does not switch
// their session to it (SwitchAccount does). The answer is the workspace.
func (s *Management) AnswerInvitation(ctx context.Context, p model.Principal, invitationID, token string, accept bool) (model.Workspace, error) {
	m, u, err := s.caller(ctx, p)
	if err != nil {
		return model.Workspace{}, err
	}
	req := actors.InviteAnswer{InvitationID: invitationID, User: m.User, Accept: accept}
	accountID, err := answerByLink(&req, token)
	if err != nil {
		return model.Workspace{}, err
	}
	for _, ref := range u.Invites {
		if accountID == "" && ref.InvitationID == req.InvitationID {
			accountID = ref.AccountID
		}
	}
	if accountID == "" {
		return model.Workspace{}, errGone()
	}
	member := slices.Contains(u.AccountIDs, accountID)
	if accept && !member { // listed first, so a member is never missing from their list
		if err := s.grains.User(m.User.Email).AddAccount(ctx, accountID); err != nil {
			return model.Workspace{}, err
		}
	}
	st, err := s.grains.Account(accountID).AnswerInvite(ctx, req)
	if err != nil {
		if accept && !member {
			_ = s.grains.User(m.User.Email).RemoveAccount(ctx, accountID)
		}
		return model.Workspace{}, err
	}
	_ = s.grains.User(m.User.Email).DropInvite(ctx, accountID, req.InvitationID)
	w := model.Workspace{ID: accountID, Name: st.Account.Name, Plan: st.Account.Plan, Current: accountID == p.AccountID}
	if mm := st.Account.Member(p.UserID); mm != nil {
		w.Role = mm.Role
	}
	return w, nil
}

func errGone() error {
	return model.Errorf(model.CodeNotFound, "no such pending invitation: it was accepted, declined, revoked or it expired")
}

// answerByLink fills req from an invite link's token and returns the
// account it names; with no token it only checks req's invitation ID and
// returns "" (the caller finds the account in the user's invitations).
func answerByLink(req *actors.InviteAnswer, token string) (string, error) {
	if token == "" {
		return "", model.CheckID("invitationId", req.InvitationID)
	}
	accountID, invitationID, secret, ok := parseLink(token)
	if !ok || req.InvitationID != "" && req.InvitationID != invitationID {
		return "", errGone()
	}
	req.InvitationID, req.LinkHash = invitationID, ids.HashSecret(secret)
	return accountID, nil
}
