package http

import (
	"context"
	"fmt"

	"github.com/mockgql/mockgql/model"
)

// Accounts is what the management API's user, account and member fields
// ask.
type Accounts interface {
	SignUp(ctx context.Context, p Principal, email, password, name string) (model.User, *model.Account, error)
	// Login signs a user in to accountID, or to their own account when it
	// is empty.
	Login(ctx context.Context, email, password, accountID string) (model.User, *model.Account, error)
	Me(ctx context.Context, p Principal) (model.User, error)
	Account(ctx context.Context, p Principal) (*model.Account, model.Usage, error)
	SetPlan(ctx context.Context, p Principal, plan model.Plan) (*model.Account, error)
	// InviteMember records a pending invitation; it joins nobody (Teams).
	InviteMember(ctx context.Context, p Principal, email string, role model.Role) (model.Invitation, error)
	SetMemberRole(ctx context.Context, p Principal, userID string, role model.Role) (model.Member, error)
	RemoveMember(ctx context.Context, p Principal, userID string) error
}

// accountResolvers resolve the fields of users, accounts and members.
type accountResolvers struct {
	*Surface
	b Management
}

// me resolves Query.me.
func (s accountResolvers) me(ctx context.Context, c *Call, _ input) (any, error) {
	u, err := s.b.Me(ctx, c.Principal)
	if err != nil {
		return nil, err
	}
	return s.shaper(c).user(u), nil
}

// account resolves Query.account.
func (s accountResolvers) account(ctx context.Context, c *Call, _ input) (any, error) {
	a, usage, err := s.b.Account(ctx, c.Principal)
	if err != nil {
		return nil, err
	}
	return s.shapeAccount(s.shaper(c), a, &usage), nil
}

// signUp resolves Mutation.signUp.
func (s accountResolvers) signUp(ctx context.Context, c *Call, args input) (any, error) {
	if err := s.checkCreate(ctx, c); err != nil {
		return nil, err
	}
	u, a, err := s.b.SignUp(ctx, c.Principal, args.str("email"), args.str("password"), args.str("name"))
	if err != nil {
		return nil, err
	}
	return s.authPayload(c, u, a)
}

// login resolves Mutation.login.
func (s accountResolvers) login(ctx context.Context, c *Call, args input) (any, error) {
	u, a, err := s.b.Login(ctx, args.str("email"), args.str("password"), args.str("accountId"))
	if err != nil {
		return nil, err
	}
	return s.authPayload(c, u, a)
}

// authPayload issues the JWT of a user who signed up or in, sets it as the
// board's cookie and shapes the AuthPayload. Its fields are read as the
// new user, whom the call's principal does not name yet.
func (s accountResolvers) authPayload(c *Call, u model.User, a *model.Account) (any, error) {
	if a == nil {
		return nil, fmt.Errorf("http: user %s has no account", u.ID)
	}
	if s.cfg.IssueToken == nil {
		return nil, fmt.Errorf("http: SurfaceConfig.IssueToken is nil")
	}
	token, err := s.cfg.IssueToken(u.ID, a.ID, a.TokenVersion(u.ID))
	if err != nil {
		return nil, fmt.Errorf("http: issue token for user %s: %w", u.ID, err)
	}
	c.setCookie(cookieJWT, token, s.cfg.JWTTTL)
	sh := s.shaper(c)
	sh.principal = Principal{UserID: u.ID, AccountID: a.ID}
	return map[string]any{"token": token, "user": sh.user(u), "account": s.shapeAccount(sh, a, nil)}, nil
}

// setPlan resolves Mutation.setPlan.
func (s accountResolvers) setPlan(ctx context.Context, c *Call, args input) (any, error) {
	a, err := s.b.SetPlan(ctx, c.Principal, model.Plan(args.str("plan")))
	if err != nil {
		return nil, err
	}
	return s.shapeAccount(s.shaper(c), a, nil), nil
}

// inviteMember resolves Mutation.inviteMember.
func (s accountResolvers) inviteMember(ctx context.Context, c *Call, args input) (any, error) {
	inv, err := s.b.InviteMember(ctx, c.Principal, args.str("email"), model.Role(args.str("role")))
	if err != nil {
		return nil, err
	}
	return pendingMember(inv), nil
}

// setMemberRole resolves Mutation.setMemberRole.
func (s accountResolvers) setMemberRole(ctx context.Context, c *Call, args input) (any, error) {
	m, err := s.b.SetMemberRole(ctx, c.Principal, args.str("userId"), model.Role(args.str("role")))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).member(m), nil
}

// shapeAccount shapes a with sh. A nil usage is read from the backend, as
// sh's principal, when selected.
func (s accountResolvers) shapeAccount(sh shaper, a *model.Account, usage *model.Usage) any {
	var shaped any
	if usage != nil {
		shaped = sh.account(a, sh.usage(*usage))
	} else {
		shaped = sh.account(a, lazy(func(ctx context.Context, _ map[string]any) (any, error) {
			_, u, err := s.b.Account(ctx, sh.principal)
			if err != nil {
				return nil, err
			}
			return sh.usage(u), nil
		}))
	}
	if m, ok := shaped.(map[string]any); ok { // Account.invitations (teams.graphql)
		m["invitations"] = lazy(func(ctx context.Context, _ map[string]any) (any, error) {
			l, err := s.b.Invitations(ctx, sh.principal)
			if err != nil {
				return nil, err
			}
			return shapeAll(l, shapeInvitation), nil
		})
	}
	return shaped
}

// done is the Boolean! result of a delete: true, or the error.
func done(err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return true, nil
}
