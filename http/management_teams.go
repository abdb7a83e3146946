package http

import (
	"context"

	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// Teams is what the management API's teams fields ask (schema/teams.graphql):
// the session check of every request, revocable sessions, workspaces and
// invitations. Every method is safe for concurrent use.
type Teams interface {
	// CheckSession refuses a signed-in principal whose user is no member
	// of the account its token names (FORBIDDEN) or whose token was
	// revoked (UNAUTHENTICATED); other principals pass. It is called for
	// every request that carries a JWT and must not read the store.
	CheckSession(ctx context.Context, p Principal) error
	// Logout revokes p's session tokens for its account.
	Logout(ctx context.Context, p Principal) error
	// ChangePassword checks current, revokes the user's tokens in every
	// account, sets next and returns the user and account to sign in to.
	ChangePassword(ctx context.Context, p Principal, current, next string) (model.User, *model.Account, error)
	// Workspaces lists the accounts p's user belongs to.
	Workspaces(ctx context.Context, p Principal) ([]model.Workspace, error)
	// SwitchAccount returns the user and accountID to sign in to, for a member only.
	SwitchAccount(ctx context.Context, p Principal, accountID string) (model.User, *model.Account, error)
	// Invitations lists the pending invitations of p's account (ADMIN+; none for others).
	Invitations(ctx context.Context, p Principal) ([]model.Invitation, error)
	// MyInvitations lists the pending invitations sent to p's address.
	MyInvitations(ctx context.Context, p Principal) ([]model.Invitation, error)
	// CreateInviteLink returns a new one-time link token of an invitation.
	CreateInviteLink(ctx context.Context, p Principal, invitationID string) (string, model.Invitation, error)
	// InvitationByLink returns what a link's page shows (no credential needed).
	InvitationByLink(ctx context.Context, token string) (model.Invitation, error)
	// AnswerInvitation accepts or declines an invitation by ID or link token.
	AnswerInvitation(ctx context.Context, p Principal, invitationID, token string, accept bool) (model.Workspace, error)
	// RevokeInvitation withdraws a pending invitation (ADMIN+).
	RevokeInvitation(ctx context.Context, p Principal, invitationID string) error
}

// teamResolvers resolve the root fields of schema/teams.graphql, and logout.
type teamResolvers struct {
	*Surface
	b Management
}

// roots maps the teams root fields (already wrapped: logout and
// invitationByLink need no credential).
func (s teamResolvers) roots() map[string]exec.Resolver {
	return map[string]exec.Resolver{
		"Query.myAccounts":           s.authed(s.myAccounts),
		"Query.myInvitations":        s.authed(s.myInvitations),
		"Query.invitationByLink":     s.open(s.invitationByLink),
		"Mutation.logout":            s.open(s.logout),
		"Mutation.switchAccount":     s.authed(s.switchAccount),
		"Mutation.changePassword":    s.authed(s.changePassword),
		"Mutation.acceptInvitation":  s.authed(s.answer(true)),
		"Mutation.declineInvitation": s.authed(s.answer(false)),
		"Mutation.revokeInvitation":  s.authed(s.revokeInvitation),
		"Mutation.createInviteLink":  s.authed(s.createInviteLink),
	}
}

// logout resolves Mutation.logout: it revokes the caller's session tokens
// for its account (the cookie's and every Bearer copy) and deletes the
// board's cookies (mgq_jwt, and the mgq_board of an adoption link).
func (s teamResolvers) logout(ctx context.Context, c *Call, _ input) (any, error) {
	c.setCookie(cookieJWT, "", -1)
	c.setCookie(cookieBoard, "", -1)
	if c.Principal.Refused != nil || c.Principal.UserID == "" {
		return true, nil // nothing left to revoke
	}
	return done(s.b.Logout(ctx, c.Principal))
}

func (s teamResolvers) myAccounts(ctx context.Context, c *Call, _ input) (any, error) {
	ws, err := s.b.Workspaces(ctx, c.Principal)
	if err != nil {
		return nil, err
	}
	return shapeAll(ws, shapeWorkspace), nil
}

func (s teamResolvers) myInvitations(ctx context.Context, c *Call, _ input) (any, error) {
	l, err := s.b.MyInvitations(ctx, c.Principal)
	if err != nil {
		return nil, err
	}
	return shapeAll(l, shapeInvitation), nil
}

func (s teamResolvers) invitationByLink(ctx context.Context, _ *Call, args input) (any, error) {
	inv, err := s.b.InvitationByLink(ctx, args.str("token"))
	if err != nil {
		return nil, err
	}
	return shapeInvitation(inv), nil
}

// switchAccount resolves Mutation.switchAccount: a new session token (and
// cookie) for another account of the caller.
func (s teamResolvers) switchAccount(ctx context.Context, c *Call, args input) (any, error) {
	u, a, err := s.b.SwitchAccount(ctx, c.Principal, args.str("accountId"))
	if err != nil {
		return nil, err
	}
	return accountResolvers(s).authPayload(c, u, a)
}

// changePassword resolves Mutation.changePassword; the answer carries a
// token of the new version, so the caller stays signed in.
func (s teamResolvers) changePassword(ctx context.Context, c *Call, args input) (any, error) {
	u, a, err := s.b.ChangePassword(ctx, c.Principal, args.str("currentPassword"), args.str("newPassword"))
	if err != nil {
		return nil, err
	}
	return accountResolvers(s).authPayload(c, u, a)
}

func (s teamResolvers) answer(accept bool) rootFunc {
	return func(ctx context.Context, c *Call, args input) (any, error) {
		id, token := args.str("invitationId"), args.str("token")
		if id == "" && token == "" {
			return nil, model.Errorf(model.CodeBadUserInput, "name the invitation: invitationId, or the token of its link")
		}
		w, err := s.b.AnswerInvitation(ctx, c.Principal, id, token, accept)
		if err != nil {
			return nil, err
		}
		if !accept {
			return true, nil
		}
		return shapeWorkspace(w), nil
	}
}

func (s teamResolvers) revokeInvitation(ctx context.Context, c *Call, args input) (any, error) {
	return done(s.b.RevokeInvitation(ctx, c.Principal, args.str("invitationId")))
}

func (s teamResolvers) createInviteLink(ctx context.Context, c *Call, args input) (any, error) {
	token, inv, err := s.b.CreateInviteLink(ctx, c.Principal, args.str("invitationId"))
	if err != nil {
		return nil, err
	}
	return map[string]any{"url": s.cfg.AppURL + "/?invite=" + token, "token": token,
		"expiresAt": dateTime(inv.ExpiresAt), "invitation": shapeInvitation(inv)}, nil
}

// shapeWorkspace shapes a Workspace.
func shapeWorkspace(w model.Workspace) any {
	return map[string]any{"id": w.ID, "name": w.Name, "plan": string(w.Plan), "myRole": string(w.Role), "current": w.Current}
}

// shapeInvitation shapes an Invitation.
func shapeInvitation(inv model.Invitation) any {
	return map[string]any{"id": inv.ID, "email": inv.Email, "role": string(inv.Role), "state": model.InvitationPending,
		"accountId": inv.AccountID, "accountName": inv.AccountName, "invitedBy": inv.InvitedByName,
		"createdAt": dateTime(inv.CreatedAt), "expiresAt": dateTime(inv.ExpiresAt), "createdBy": invitationMaker(inv.Maker)}
}

// invitationMaker is Invitation.createdBy: the member who made it, for the
// account's admins only (Maker is nil in what an invitee sees).
func invitationMaker(u *model.User) any {
	if u == nil {
		return nil
	}
	return map[string]any{"id": u.ID, "email": u.Email, "name": optString(u.Name)}
}

// pendingMember shapes inviteMember's answer, a Member in state PENDING:
// its user is only the address (its id is the invitation's, name null),
// the same whether or not the address belongs to a user.
func pendingMember(inv model.Invitation) any {
	return map[string]any{"user": map[string]any{"id": inv.ID, "email": inv.Email, "name": nil},
		"role": string(inv.Role), "state": model.InvitationPending, "invitation": shapeInvitation(inv)}
}
