package actors

import (
	"golang.org/x/crypto/bcrypt"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// maxInviteRefs bounds the pending invitations one address keeps; a new
// one drops the oldest.
const maxInviteRefs = 50

// InviteRef names a pending invitation: its account and ID.
type InviteRef struct {
	AccountID    string `json:"accountId"`
	InvitationID string `json:"invitationId"`
}

// team answers the user grain's teams requests.
func (u *userGrain) team(g *grain, c *call) (result, error) {
	switch m := c.req.(type) {
	case *pb.UserChangePassword:
		return u.changePassword(g, m)
	case *pb.UserAddInvite:
		return u.setInvite(g, InviteRef{AccountID: m.AccountId, InvitationID: m.InvitationId}, true)
	case *pb.UserDropInvite:
		return u.setInvite(g, InviteRef{AccountID: m.AccountId, InvitationID: m.InvitationId}, false)
	}
	return nil, unknownRequest(g, c)
}

// changePassword checks the old password and stores the new one's hash.
func (u *userGrain) changePassword(g *grain, m *pb.UserChangePassword) (result, error) {
	if _, err := u.login(m.OldPassword); err != nil {
		return nil, model.Errorf(model.CodeUnauthenticated, "the current password is wrong")
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(m.NewPassword), int(m.Cost))
	if err != nil {
		return nil, model.Errorf(model.CodeBadUserInput, "password: %v", err)
	}
	next := clone(u.state)
	next.PasswordHash = hash
	if err := commit(g, next, func(v UserState) { u.state = v }); err != nil {
		return nil, err
	}
	return u.public(), nil
}

// setInvite adds (or drops) ref to the address's pending invitations. An
// address nobody signed up with gets a placeholder with no ID, password or
// account: it only holds the invitations until sign-up.
func (u *userGrain) setInvite(g *grain, ref InviteRef, add bool) (result, error) {
	if !u.found && !add {
		return UserState{User: model.User{Email: g.id}}, nil
	}
	next := clone(u.state)
	if !u.found {
		next = UserState{User: model.User{Email: g.id}, AccountIDs: []string{}}
	}
	out := next.Invites[:0:0]
	for _, r := range next.Invites {
		if r != ref {
			out = append(out, r)
		}
	}
	if add {
		out = append(out, ref)
		if len(out) > maxInviteRefs {
			out = out[len(out)-maxInviteRefs:]
		}
	}
	next.Invites = out
	if err := commit(g, next, func(v UserState) { u.state, u.found = v, true }); err != nil {
		return nil, err
	}
	return u.public(), nil
}
