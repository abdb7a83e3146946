package actors

import (
	"crypto/subtle"
	"strings"
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// The account grain's part in teams: the session-token versions that make
// a member's JWTs revocable, and the pending invitations.

// maxPendingInvitations bounds an account's pending invitations (and so
// its record); the hourly window (Config.InviteLimit) bounds their rate.
const maxPendingInvitations = 100

// inviteWindow counts the invitations an account sent in a fixed hour.
type inviteWindow struct {
	Start time.Time `json:"start,omitzero"`
	Count int       `json:"count,omitempty"`
}

// team answers the teams requests of run; anything else is unknown.
func (a *accountGrain) team(g *grain, c *call) (result, error) {
	switch m := c.req.(type) {
	case *pb.AccountCheckSession:
		return a.checkSession(m.UserId, m.Version)
	case *pb.AccountRevokeSessions:
		return a.update(g, "", "", func(s *AccountState) error {
			bumpTokenVersion(s, m.UserId)
			return nil
		})
	case *pb.AccountInvite:
		inv, err := decodeDoc[model.Invitation](m.Invitation)
		if err != nil {
			return nil, err
		}
		now := g.env.Clock.Now()
		return a.update(g, m.Caller, model.RoleAdmin, func(s *AccountState) error {
			return addInvitation(s, g.env.Config, m.Caller, *inv, now)
		})
	case *pb.AccountInviteLink:
		return a.update(g, m.Caller, model.RoleAdmin, func(s *AccountState) error {
			inv := pendingInvitation(s, m.InvitationId, g.env.Clock.Now())
			if inv == nil {
				return errNoInvitation()
			}
			if err := ownerOnly(s, m.Caller, inv.Role, ""); err != nil {
				return model.Errorf(model.CodeForbidden, "only an owner can make a link to an OWNER invitation")
			}
			inv.LinkHash, inv.LinkBy = m.LinkHash, m.Caller
			return nil
		})
	case *pb.AccountRevokeInvite:
		return a.update(g, m.Caller, model.RoleAdmin, func(s *AccountState) error {
			if pendingInvitation(s, m.InvitationId, g.env.Clock.Now()) == nil {
				return errNoInvitation()
			}
			dropInvitation(s, m.InvitationId)
			return nil
		})
	case *pb.AccountAnswerInvite:
		return a.answerInvitation(g, m)
	}
	return nil, unknownRequest(g, c)
}

// checkSession refuses a token of a user who is no member (FORBIDDEN) or
// whose version is older than the user's current one (UNAUTHENTICATED).
// It reads only the grain's state: no store read.
func (a *accountGrain) checkSession(userID string, version uint64) (result, error) {
	if a.state.Account.Member(userID) == nil {
		return nil, model.Errorf(model.CodeForbidden, "you are no longer a member of this workspace; log in again")
	}
	if version < a.state.Account.TokenVersion(userID) {
		return nil, model.Errorf(model.CodeUnauthenticated, "this session has ended (logout, a password change or a removal); log in again")
	}
	return doneReply(true), nil
}

// bumpTokenVersion revokes every token of userID for the account.
func bumpTokenVersion(s *AccountState, userID string) {
	if s.Account.TokenVersions == nil {
		s.Account.TokenVersions = map[string]uint64{}
	}
	s.Account.TokenVersions[userID]++
}

func errNoInvitation() error {
	return model.Errorf(model.CodeNotFound, "no such pending invitation: it was accepted, declined, revoked or it expired")
}

// addInvitation adds inv as pending (or renews the pending one for the
// same address with inv's role), counting it in the hourly window.
// Renewing replaces the role, so it needs the right to grant both; the
// renewed invitation is the caller's, and its link survives only when
// neither the role nor the maker changed.
func addInvitation(s *AccountState, cfg Config, caller string, inv model.Invitation, now time.Time) error {
	var replaced model.Role
	for _, old := range s.Invitations {
		if strings.EqualFold(old.Email, inv.Email) && now.Before(old.ExpiresAt) {
			replaced = old.Role
		}
	}
	if err := ownerOnly(s, caller, inv.Role, replaced); err != nil {
		return err
	}
	for _, m := range s.Account.Members {
		if strings.EqualFold(m.User.Email, inv.Email) {
			return model.Errorf(model.CodeConflict, "%s is a member already (role %s); use setMemberRole", m.User.Email, m.Role)
		}
	}
	pruneInvitations(s, now)
	if err := countInvite(&s.InviteWindow, cfg.InviteLimit, now); err != nil {
		return err
	}
	inv.CreatedAt, inv.ExpiresAt = now.UTC(), now.UTC().Add(cfg.InviteTTL)
	for i := range s.Invitations {
		if old := s.Invitations[i]; strings.EqualFold(old.Email, inv.Email) {
			inv.ID = old.ID
			if old.Role == inv.Role && old.InvitedBy == inv.InvitedBy {
				inv.LinkHash, inv.LinkBy = old.LinkHash, old.LinkBy
			}
			s.Invitations[i] = inv
			return nil
		}
	}
	if len(s.Invitations) >= maxPendingInvitations {
		return model.Errorf(model.CodeLimitReached, "the workspace has %d pending invitations, the most it may hold; revoke some first", maxPendingInvitations)
	}
	s.Invitations = append(s.Invitations, inv)
	return nil
}

// countInvite takes one invitation of the account's hourly window, or
// refuses with TOO_MANY_REQUESTS and the seconds until the window resets.
func countInvite(w *inviteWindow, limit int, now time.Time) error {
	if now.Sub(w.Start) >= time.Hour || now.Before(w.Start) {
		*w = inviteWindow{Start: now.UTC()}
	}
	if w.Count >= limit {
		retry := int(w.Start.Add(time.Hour).Sub(now)/time.Second) + 1
		return &model.Error{Code: model.CodeTooManyRequests, RetryAfter: retry,
			Message: "this workspace sent as many invitations as it may this hour; try again later"}
	}
	w.Count++
	return nil
}

// pruneInvitations drops the expired ones.
func pruneInvitations(s *AccountState, now time.Time) {
	out := s.Invitations[:0:0]
	for _, inv := range s.Invitations {
		if now.Before(inv.ExpiresAt) {
			out = append(out, inv)
		}
	}
	s.Invitations = out
}

// pendingInvitation returns the live invitation id of s, or nil.
func pendingInvitation(s *AccountState, id string, now time.Time) *model.Invitation {
	for i := range s.Invitations {
		if s.Invitations[i].ID == id && now.Before(s.Invitations[i].ExpiresAt) {
			return &s.Invitations[i]
		}
	}
	return nil
}

func dropInvitation(s *AccountState, id string) {
	out := s.Invitations[:0:0]
	for _, inv := range s.Invitations {
		if inv.ID != id {
			out = append(out, inv)
		}
	}
	s.Invitations = out
}

// answerInvitation accepts or declines an invitation for the user of the
// request: the one it was sent to (by e-mail), or whoever holds its link.
// Any mismatch is the same NOT_FOUND, so an answer reveals nothing.
func (a *accountGrain) answerInvitation(g *grain, m *pb.AccountAnswerInvite) (result, error) {
	u, err := decodeOptional[model.User](m.User.GetJson())
	if err != nil {
		return nil, err
	}
	if u == nil || u.ID == "" {
		return nil, model.Errorf(model.CodeBadUserInput, "an answer needs the user")
	}
	return a.update(g, "", "", func(s *AccountState) error {
		inv := pendingInvitation(s, m.InvitationId, g.env.Clock.Now())
		if inv == nil || !invitedUser(inv, u, m.LinkHash) {
			return errNoInvitation()
		}
		if inv.AddressBound() && !strings.EqualFold(inv.Email, u.Email) {
			return model.Errorf(model.CodeForbidden, "this invitation gives the role %s, so only the address it was sent to can answer it: log in with that address", inv.Role)
		}
		if m.Accept {
			if err := makersMayGrant(s, inv, m.LinkHash != ""); err != nil {
				return err
			}
		}
		role := inv.Role
		dropInvitation(s, m.InvitationId)
		if !m.Accept || s.Account.Member(u.ID) != nil {
			return nil
		}
		s.Account.Members = append(s.Account.Members, model.Member{User: *u, Role: role})
		return nil
	})
}

// invitedUser says whether u may answer inv: by the link's secret when
// linkHash is given, else by the address it was sent to.
func invitedUser(inv *model.Invitation, u *model.User, linkHash string) bool {
	if linkHash != "" {
		return inv.LinkHash != "" && subtle.ConstantTimeCompare([]byte(inv.LinkHash), []byte(linkHash)) == 1
	}
	return strings.EqualFold(inv.Email, u.Email)
}

// makersMayGrant refuses an acceptance whose invitation's maker — or, by
// link, the link's maker — may no longer give its role (demoted since, or
// gone: removal revokes what they made, but an invitation kept from
// before that is refused here too).
func makersMayGrant(s *AccountState, inv *model.Invitation, byLink bool) error {
	makers := []struct{ id, what string }{{inv.InvitedBy, "invitation"}}
	if byLink && inv.LinkBy != "" { // links made before LinkBy was kept: the invitation's maker answers
		makers = append(makers, struct{ id, what string }{inv.LinkBy, "invite link"})
	}
	for _, mk := range makers {
		if m := s.Account.Member(mk.id); mk.id == "" || m == nil || !m.Role.CanGrant(inv.Role) {
			return model.Errorf(model.CodeForbidden, "the member who made this %s can no longer give the role %s (they were removed or their role changed); ask an owner or admin of the workspace to invite you again", mk.what, inv.Role)
		}
	}
	return nil
}

// revokeMadeBy drops the pending invitations userID made and the links
// they made to others' invitations, and returns how many invitations it
// dropped: what a removed member made must not let anyone in after them.
func revokeMadeBy(s *AccountState, userID string) int {
	out := s.Invitations[:0:0]
	for _, inv := range s.Invitations {
		if inv.InvitedBy == userID {
			continue
		}
		if inv.LinkBy == userID {
			inv.LinkHash, inv.LinkBy = "", ""
		}
		out = append(out, inv)
	}
	n := len(s.Invitations) - len(out)
	s.Invitations = out
	return n
}
