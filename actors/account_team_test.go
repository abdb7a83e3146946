package actors

import (
	"testing"
	"time"

	"github.com/mockgql/mockgql/model"
)

// TestInviteWindow: an account's hourly invitation window refuses the
// invitation past its limit with the seconds left, and opens again an
// hour after it started.
func TestInviteWindow(t *testing.T) {
	start := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	cases := []struct {
		name  string
		after time.Duration // since the window filled up
		ok    bool
		retry int
	}{
		{"at once", 0, false, 3601},
		{"late in the hour", 59*time.Minute + 30*time.Second, false, 31},
		{"an hour on", time.Hour, true, 0},
		{"a clock that went back", -time.Minute, true, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var w inviteWindow
			for i := range 3 {
				if err := countInvite(&w, 3, start); err != nil {
					t.Fatalf("invitation %d: %v", i, err)
				}
			}
			err := countInvite(&w, 3, start.Add(tc.after))
			if tc.ok != (err == nil) {
				t.Fatalf("err = %v, want ok=%v", err, tc.ok)
			}
			if e, _ := err.(*model.Error); err != nil && (e.Code != model.CodeTooManyRequests || e.RetryAfter != tc.retry) {
				t.Fatalf("refusal = %+v, want TOO_MANY_REQUESTS retry %d", e, tc.retry)
			}
		})
	}
}

// TestAddInvitation: an invitation is pending, the same address again
// renews it (same ID, new role), a member's address is a CONFLICT, and
// an admin cannot invite an owner.
func TestAddInvitation(t *testing.T) {
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	cfg := DefaultConfig()
	s := &AccountState{Account: model.Account{Members: []model.Member{
		{User: model.User{ID: "uOwner", Email: "ann@example.com"}, Role: model.RoleOwner},
		{User: model.User{ID: "uAdmin", Email: "al@example.com"}, Role: model.RoleAdmin}}}}
	inv := func(id, email string, role model.Role) model.Invitation {
		return model.Invitation{ID: id, Email: email, Role: role}
	}
	if err := addInvitation(s, cfg, "uOwner", inv("inv1", "bo@example.com", model.RoleViewer), now); err != nil {
		t.Fatal(err)
	}
	if err := addInvitation(s, cfg, "uOwner", inv("inv2", "bo@example.com", model.RoleEditor), now); err != nil {
		t.Fatal(err)
	}
	if len(s.Invitations) != 1 || s.Invitations[0].ID != "inv1" || s.Invitations[0].Role != model.RoleEditor ||
		!s.Invitations[0].ExpiresAt.Equal(now.Add(cfg.InviteTTL)) {
		t.Fatalf("invitations = %+v", s.Invitations)
	}
	for _, tc := range []struct {
		name, caller, email string
		role                model.Role
		code                model.Code
	}{
		{"a member", "uOwner", "AL@example.com", model.RoleViewer, model.CodeConflict},
		{"an owner by an admin", "uAdmin", "cy@example.com", model.RoleOwner, model.CodeForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := addInvitation(s, cfg, tc.caller, inv("inv9", tc.email, tc.role), now)
			if model.ErrorCode(err) != tc.code {
				t.Fatalf("err = %v, want %s", err, tc.code)
			}
		})
	}
	pruneInvitations(s, now.Add(cfg.InviteTTL))
	if len(s.Invitations) != 0 {
		t.Fatalf("expired invitations kept: %+v", s.Invitations)
	}
}

// TestInvitationRenewal: renewing an invitation needs the right to give
// both the role it had and the new one, and keeps its link only when
// neither the role nor the maker changed.
func TestInvitationRenewal(t *testing.T) {
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	cfg := DefaultConfig()
	for _, tc := range []struct {
		name        string
		had         model.Role
		by, renewer string
		role        model.Role
		code        model.Code
		keepsLink   bool
	}{
		{"an admin renews the owner's OWNER invitation as ADMIN", model.RoleOwner, "uOwner", "uAdmin", model.RoleAdmin, model.CodeForbidden, false},
		{"an admin renews an EDITOR invitation as OWNER", model.RoleEditor, "uOwner", "uAdmin", model.RoleOwner, model.CodeForbidden, false},
		{"an admin renews the owner's EDITOR invitation", model.RoleEditor, "uOwner", "uAdmin", model.RoleEditor, "", false},
		{"the maker renews it as it was", model.RoleEditor, "uAdmin", "uAdmin", model.RoleEditor, "", true},
		{"the maker renews it with another role", model.RoleEditor, "uAdmin", "uAdmin", model.RoleViewer, "", false},
		{"the owner renews an OWNER invitation", model.RoleOwner, "uOwner", "uOwner", model.RoleAdmin, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &AccountState{Account: model.Account{Members: []model.Member{
				{User: model.User{ID: "uOwner", Email: "ann@example.com"}, Role: model.RoleOwner},
				{User: model.User{ID: "uAdmin", Email: "al@example.com"}, Role: model.RoleAdmin}}},
				Invitations: []model.Invitation{{ID: "inv1", Email: "bo@example.com", Role: tc.had, InvitedBy: tc.by,
					LinkHash: "h", LinkBy: tc.by, ExpiresAt: now.Add(time.Hour)}}}
			err := addInvitation(s, cfg, tc.renewer, model.Invitation{ID: "inv2", Email: "bo@example.com", Role: tc.role, InvitedBy: tc.renewer}, now)
			if model.ErrorCode(err) != tc.code {
				t.Fatalf("err = %v, want %q", err, tc.code)
			}
			got := s.Invitations[0]
			if tc.code != "" {
				if got.Role != tc.had || got.InvitedBy != tc.by || got.LinkHash != "h" {
					t.Fatalf("a refused renewal changed it: %+v", got)
				}
				return
			}
			if got.ID != "inv1" || got.Role != tc.role || got.InvitedBy != tc.renewer || (got.LinkHash == "h") != tc.keepsLink {
				t.Fatalf("renewed = %+v, want role %s by %s, link kept %v", got, tc.role, tc.renewer, tc.keepsLink)
			}
		})
	}
}

// TestMakersMayGrant: accepting needs the invitation's maker, and by
// link the link's maker, to be a member who may still give its role.
func TestMakersMayGrant(t *testing.T) {
	s := &AccountState{Account: model.Account{Members: []model.Member{
		{User: model.User{ID: "uOwner"}, Role: model.RoleOwner},
		{User: model.User{ID: "uAdmin"}, Role: model.RoleAdmin},
		{User: model.User{ID: "uDemoted"}, Role: model.RoleEditor}}}}
	for _, tc := range []struct {
		name       string
		role       model.Role
		by, linkBy string
		byLink, ok bool
	}{
		{"an admin's EDITOR invitation", model.RoleEditor, "uAdmin", "", false, true},
		{"an admin's ADMIN invitation", model.RoleAdmin, "uAdmin", "", false, true},
		{"an OWNER invitation kept from an admin", model.RoleOwner, "uAdmin", "", false, false},
		{"a demoted admin's invitation", model.RoleViewer, "uDemoted", "", false, false},
		{"a removed member's invitation", model.RoleViewer, "uGone", "", false, false},
		{"no maker kept", model.RoleViewer, "", "", false, false},
		{"the owner's invitation by a demoted admin's link", model.RoleEditor, "uOwner", "uDemoted", true, false},
		{"the owner's invitation by an admin's link", model.RoleEditor, "uOwner", "uAdmin", true, true},
		{"a link made before its maker was kept", model.RoleEditor, "uOwner", "", true, true},
		{"the demoted admin's link, accepted by ID", model.RoleEditor, "uOwner", "uDemoted", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := makersMayGrant(s, &model.Invitation{Role: tc.role, InvitedBy: tc.by, LinkBy: tc.linkBy}, tc.byLink)
			if tc.ok != (err == nil) || err != nil && model.ErrorCode(err) != model.CodeForbidden {
				t.Fatalf("err = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}

// TestRevokeMadeBy: a removed member's invitations go, and so do the
// links they made to others' invitations; the rest stays.
func TestRevokeMadeBy(t *testing.T) {
	s := &AccountState{Invitations: []model.Invitation{
		{ID: "a", InvitedBy: "uAdmin", LinkHash: "h1", LinkBy: "uAdmin"},
		{ID: "b", InvitedBy: "uOwner", LinkHash: "h2", LinkBy: "uAdmin"},
		{ID: "c", InvitedBy: "uOwner", LinkHash: "h3", LinkBy: "uOwner"},
		{ID: "d", InvitedBy: "uAdmin"},
	}}
	if n := revokeMadeBy(s, "uAdmin"); n != 2 {
		t.Fatalf("revoked %d invitations, want 2", n)
	}
	if len(s.Invitations) != 2 || s.Invitations[0].ID != "b" || s.Invitations[0].LinkHash != "" || s.Invitations[0].LinkBy != "" ||
		s.Invitations[1].ID != "c" || s.Invitations[1].LinkHash != "h3" {
		t.Fatalf("left = %+v", s.Invitations)
	}
}
