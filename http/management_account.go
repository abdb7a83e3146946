package http

import (
	"context"
	"fmt"

	"github.com/mockgql/mockgql/model"
)

// The resolvers in this file serve users, accounts and members.

// me resolves Query.me.
func (s *Surface) me(ctx context.Context, c *Call, _ input) (any, error) {
	u, err := s.cfg.Backend.Me(ctx, c.Principal)
	if err != nil {
		return nil, err
	}
	return s.shaper(c).user(u), nil
}

// account resolves Query.account.
func (s *Surface) account(ctx context.Context, c *Call, _ input) (any, error) {
	a, usage, err := s.cfg.Backend.Account(ctx, c.Principal)
	if err != nil {
		return nil, err
	}
	return s.shaper(c).account(a, &usage), nil
}

// signUp resolves Mutation.signUp.
func (s *Surface) signUp(ctx context.Context, c *Call, args input) (any, error) {
	if err := s.checkCreate(ctx, c); err != nil {
		return nil, err
	}
	u, a, err := s.cfg.Backend.SignUp(ctx, c.Principal, args.str("email"), args.str("password"), args.str("name"))
	if err != nil {
		return nil, err
	}
	return s.authPayload(c, u, a)
}

// login resolves Mutation.login.
func (s *Surface) login(ctx context.Context, c *Call, args input) (any, error) {
	u, a, err := s.cfg.Backend.Login(ctx, args.str("email"), args.str("password"), args.str("accountId"))
	if err != nil {
		return nil, err
	}
	return s.authPayload(c, u, a)
}

// authPayload issues the JWT of a user who signed up or in, sets it as the
// board's cookie and shapes the AuthPayload. Its fields are read as the
// new user, whom the call's principal does not name yet.
func (s *Surface) authPayload(c *Call, u model.User, a *model.Account) (any, error) {
	if a == nil {
		return nil, fmt.Errorf("http: user %s has no account", u.ID)
	}
	if s.cfg.IssueToken == nil {
		return nil, fmt.Errorf("http: SurfaceConfig.IssueToken is nil")
	}
	token, err := s.cfg.IssueToken(u.ID, a.ID)
	if err != nil {
		return nil, fmt.Errorf("http: issue token for user %s: %w", u.ID, err)
	}
	c.setCookie(cookieJWT, token, s.cfg.JWTTTL)
	sh := s.shaper(c)
	sh.principal = Principal{UserID: u.ID, AccountID: a.ID}
	return map[string]any{"token": token, "user": sh.user(u), "account": sh.account(a, nil)}, nil
}

// setPlan resolves Mutation.setPlan.
func (s *Surface) setPlan(ctx context.Context, c *Call, args input) (any, error) {
	a, err := s.cfg.Backend.SetPlan(ctx, c.Principal, model.Plan(args.str("plan")))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).account(a, nil), nil
}

// inviteMember resolves Mutation.inviteMember.
func (s *Surface) inviteMember(ctx context.Context, c *Call, args input) (any, error) {
	m, err := s.cfg.Backend.InviteMember(ctx, c.Principal, args.str("email"), model.Role(args.str("role")))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).member(m), nil
}

// setMemberRole resolves Mutation.setMemberRole.
func (s *Surface) setMemberRole(ctx context.Context, c *Call, args input) (any, error) {
	m, err := s.cfg.Backend.SetMemberRole(ctx, c.Principal, args.str("userId"), model.Role(args.str("role")))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).member(m), nil
}

// removeMember resolves Mutation.removeMember.
func (s *Surface) removeMember(ctx context.Context, c *Call, args input) (any, error) {
	return done(s.cfg.Backend.RemoveMember(ctx, c.Principal, args.str("userId")))
}

// done is the Boolean! result of a delete: true, or the error.
func done(err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return true, nil
}
