package app

import (
	"context"
	"strings"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// normEmail lower-cases and checks an e-mail address: the user grain's identity.
func normEmail(email string) (string, error) { return model.NormEmail(email) }

// SignUp creates a user and their own STARTER account, with them as OWNER.
func (s *Management) SignUp(ctx context.Context, p model.Principal, email, password, name string) (model.User, *model.Account, error) {
	e, err := normEmail(email)
	if err != nil {
		return model.User{}, nil, err
	}
	if err := model.CheckDisplayName("a name", strings.TrimSpace(name)); err != nil {
		return model.User{}, nil, err
	}
	if len(password) < 8 || len(password) > 72 {
		return model.User{}, nil, model.Errorf(model.CodeBadUserInput, "a password has 8 to 72 characters")
	}
	accountID := "acc" + ids.RandomString(12)
	u, err := s.grains.User(e).SignUp(ctx, actors.NewUser{UserID: "u" + ids.RandomString(12), Name: name, Password: password,
		AccountID: accountID, Cost: s.cfg.BcryptCost})
	if err != nil {
		return model.User{}, nil, err
	}
	acc := &model.Account{ID: accountID, Name: accountName(name, e), Plan: model.PlanStarter,
		Members: []model.Member{{User: u.User, Role: model.RoleOwner}}, ProjectIDs: []string{}}
	st, err := s.grains.Account(accountID).Create(ctx, acc)
	if err != nil {
		return model.User{}, nil, err
	}
	// A live session project of the browser or assistant signing up moves
	// into the new workspace.
	if err := s.adoptSessionProject(ctx, p, accountID); err != nil {
		return model.User{}, nil, err
	}
	if fresh, err := s.account(ctx, accountID); err == nil {
		st = fresh
	}
	return u.User, &st.Account, nil
}

func accountName(name, email string) string {
	if name != "" {
		return name + "'s workspace"
	}
	return strings.SplitN(email, "@", 2)[0] + "'s workspace"
}

// Login checks a password and returns the user and the account to work in:
// accountID if given (the user must be a member), else their own.
func (s *Management) Login(ctx context.Context, email, password, accountID string) (model.User, *model.Account, error) {
	e, err := normEmail(email)
	if err != nil {
		return model.User{}, nil, model.Errorf(model.CodeUnauthenticated, "wrong e-mail or password")
	}
	done, err := s.grains.AdmitLogin(ctx, e)
	if err != nil {
		return model.User{}, nil, err
	}
	u, err := s.grains.User(e).Login(ctx, password)
	done(err) // a wrong password counts only now, once checked
	if err != nil {
		return model.User{}, nil, err
	}
	if len(u.AccountIDs) == 0 {
		return model.User{}, nil, model.Errorf(model.CodeUnauthenticated, "this user has no account")
	}
	if accountID == "" {
		accountID = u.AccountIDs[0]
	}
	acc, err := s.account(ctx, accountID)
	if model.ErrorCode(err) == model.CodeNotFound || err == nil && acc.Account.Member(u.User.ID) == nil {
		return model.User{}, nil, model.Errorf(model.CodeForbidden, "you are not a member of account %s", accountID)
	}
	if err != nil {
		return model.User{}, nil, err
	}
	return u.User, &acc.Account, nil
}

func (s *core) account(ctx context.Context, id string) (*actors.AccountState, error) {
	return s.grains.Account(id).Get(ctx)
}

// needUser refuses principals that are not a signed-in user.
func needUser(p model.Principal) error {
	if p.UserID == "" || p.AccountID == "" {
		if p.KeyProjectID != "" {
			return model.Errorf(model.CodeForbidden, "an API key reaches only its own project; sign in for account operations")
		}
		return model.Errorf(model.CodeUnauthenticated, "sign in first (login or signUp)")
	}
	return nil
}

// Me returns the signed-in user, as their account knows them.
func (s *Management) Me(ctx context.Context, p model.Principal) (model.User, error) {
	if err := needUser(p); err != nil {
		return model.User{}, err
	}
	st, err := s.account(ctx, p.AccountID)
	if err != nil {
		return model.User{}, err
	}
	m := st.Account.Member(p.UserID)
	if m == nil {
		return model.User{}, model.Errorf(model.CodeForbidden, "you are no longer a member of this account")
	}
	return m.User, nil
}

// Account returns the principal's account and its usage.
func (s *Management) Account(ctx context.Context, p model.Principal) (*model.Account, model.Usage, error) {
	if err := needUser(p); err != nil {
		return nil, model.Usage{}, err
	}
	st, err := s.account(ctx, p.AccountID)
	if err != nil {
		return nil, model.Usage{}, err
	}
	if st.Account.Member(p.UserID) == nil {
		return nil, model.Usage{}, model.Errorf(model.CodeForbidden, "you are no longer a member of this account")
	}
	u, err := s.grains.AccountUsage(ctx, &st.Account)
	if err != nil {
		return nil, model.Usage{}, err
	}
	if err := s.planUsage(&u, st); err != nil {
		return nil, model.Usage{}, err
	}
	return &st.Account, u, nil
}

// SetPlan changes the account's plan (OWNER only; stands in for billing).
func (s *Management) SetPlan(ctx context.Context, p model.Principal, plan model.Plan) (*model.Account, error) {
	if err := needUser(p); err != nil {
		return nil, err
	}
	st, err := s.grains.Account(p.AccountID).SetPlan(ctx, p.UserID, plan)
	if err != nil {
		return nil, err
	}
	return &st.Account, nil
}

// SetMemberRole changes a member's role (ADMIN or higher).
func (s *Management) SetMemberRole(ctx context.Context, p model.Principal, userID string, role model.Role) (model.Member, error) {
	if err := needUser(p); err != nil {
		return model.Member{}, err
	}
	if role.Rank() < 0 {
		return model.Member{}, model.Errorf(model.CodeBadUserInput, "unknown role %q", role)
	}
	st, err := s.grains.Account(p.AccountID).SetRole(ctx, p.UserID, userID, role)
	if err != nil {
		return model.Member{}, err
	}
	return *st.Account.Member(userID), nil
}

// RemoveMember removes a member (ADMIN or higher; not the last owner),
// revoking the pending invitations and the invite links they made.
func (s *Management) RemoveMember(ctx context.Context, p model.Principal, userID string) error {
	if err := needUser(p); err != nil {
		return err
	}
	cur, err := s.account(ctx, p.AccountID)
	if err != nil {
		return err
	}
	m := cur.Account.Member(userID)
	if m == nil {
		return model.Errorf(model.CodeNotFound, "user %s is not a member", userID)
	}
	if err := s.grains.Account(p.AccountID).RemoveMember(ctx, p.UserID, userID); err != nil {
		return err
	}
	// The account's grain revoked the invitations they made in the same
	// write; the invitees' lists forget them (a stale entry is skipped on
	// read anyway).
	for _, inv := range cur.Invitations {
		if inv.InvitedBy == userID {
			_ = s.grains.User(inv.Email).DropInvite(ctx, p.AccountID, inv.ID)
		}
	}
	return s.grains.User(m.User.Email).RemoveAccount(ctx, p.AccountID)
}
