package actors

import (
	"golang.org/x/crypto/bcrypt"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// userGrain is one person, found by e-mail (its identity, lower-cased). It
// holds the bcrypt hash of the password, which never leaves the grain.
type userGrain struct {
	state UserState
	found bool
}

type UserState struct {
	User         model.User `json:"user"`
	PasswordHash []byte     `json:"passwordHash,omitempty"`
	// AccountIDs lists the accounts the user belongs to; the first is the
	// one created at sign-up.
	AccountIDs []string `json:"accountIds"`
	// Invites are the pending invitations sent to the e-mail address,
	// newest last (user_team.go); a placeholder without a password holds
	// them until its owner signs up.
	Invites []InviteRef `json:"invites,omitempty"`
}

func (u *userGrain) load(g *grain) (err error) {
	u.found, err = g.loadJSON(&u.state)
	return err
}

func (u *userGrain) handle(g *grain, c *call) (result, error) {
	switch m := c.req.(type) {
	case *pb.UserGet:
		if !u.found {
			return nil, model.Errorf(model.CodeNotFound, "no user %s", g.id)
		}
		return u.public(), nil
	case *pb.UserSignup:
		return u.signup(g, m)
	case *pb.UserLogin:
		return u.login(m.Password)
	case *pb.UserInvite:
		return u.invite(g, m.UserId)
	case *pb.UserAddAccount:
		return u.membership(g, true, m.AccountId)
	case *pb.UserRemoveAccount:
		return u.membership(g, false, m.AccountId)
	case *pb.UserChangePassword, *pb.UserAddInvite, *pb.UserDropInvite:
		return u.team(g, c)
	}
	return nil, unknownRequest(g, c)
}

// public is the state without the password hash.
func (u *userGrain) public() UserState {
	s := u.state
	s.PasswordHash = nil
	return s
}

func (u *userGrain) signup(g *grain, a *pb.UserSignup) (result, error) {
	if u.found && len(u.state.PasswordHash) > 0 {
		// CONFLICT is the documented code (docs/reference/errors.md) and a client needs it to offer a login;
		// the message neither echoes the address nor says more than that.
		return nil, model.Errorf(model.CodeConflict, "this e-mail address cannot be used to sign up; if it is yours, log in")
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(a.Password), int(a.Cost))
	if err != nil {
		return nil, model.Errorf(model.CodeBadUserInput, "password: %v", err)
	}
	next := clone(u.state)
	if next.User.ID == "" { // an invited placeholder keeps its ID, memberships and invitations
		next.User = model.User{ID: a.UserId, Email: g.id}
	}
	if a.Name != "" {
		next.User.Name = a.Name
	}
	next.PasswordHash = hash
	next.AccountIDs = append([]string{a.AccountId}, next.AccountIDs...)
	if err := commit(g, next, func(v UserState) { u.state, u.found = v, true }); err != nil {
		return nil, err
	}
	return u.public(), nil
}

func (u *userGrain) login(password string) (result, error) {
	bad := model.Errorf(model.CodeUnauthenticated, "wrong e-mail or password")
	if !u.found || len(u.state.PasswordHash) == 0 {
		// Spend the same time as a real check, so timing does not tell
		// which e-mails have accounts.
		_ = bcrypt.CompareHashAndPassword(dummyHash, []byte(password))
		return nil, bad
	}
	if bcrypt.CompareHashAndPassword(u.state.PasswordHash, []byte(password)) != nil {
		return nil, bad
	}
	return u.public(), nil
}

var dummyHash, _ = bcrypt.GenerateFromPassword([]byte("timing equaliser"), bcrypt.DefaultCost)

// invite makes a placeholder user for an e-mail that has none, so an
// account can add them before they sign up.
func (u *userGrain) invite(g *grain, userID string) (result, error) {
	if u.found {
		return u.public(), nil
	}
	next := UserState{User: model.User{ID: userID, Email: g.id}, AccountIDs: []string{}}
	if err := commit(g, next, func(v UserState) { u.state, u.found = v, true }); err != nil {
		return nil, err
	}
	return u.public(), nil
}

func (u *userGrain) membership(g *grain, add bool, accountID string) (result, error) {
	if !u.found {
		return nil, model.Errorf(model.CodeNotFound, "no user %s", g.id)
	}
	next := clone(u.state)
	next.AccountIDs = removeString(next.AccountIDs, accountID)
	if add {
		next.AccountIDs = append(next.AccountIDs, accountID)
	}
	if err := commit(g, next, func(v UserState) { u.state = v }); err != nil {
		return nil, err
	}
	return u.public(), nil
}

func removeString(list []string, s string) []string {
	out := list[:0:0]
	for _, v := range list {
		if v != s {
			out = append(out, v)
		}
	}
	return out
}
