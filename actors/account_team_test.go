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
