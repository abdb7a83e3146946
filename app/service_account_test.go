package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/mockgql/mockgql/model"
)

func TestAccounts(t *testing.T) {
	nd := startNode(t, "", nil)
	svc := nd.svc
	ctx := context.Background()
	ann := signUp(t, svc, "Ann@Example.com")

	t.Run("sign-up", func(t *testing.T) {
		if ann.user.Email != "ann@example.com" || ann.user.ID == "" {
			t.Errorf("user = %+v, want the lower-cased e-mail and an ID", ann.user)
		}
		if ann.acc.Plan != model.PlanStarter || len(ann.acc.Members) != 1 || ann.acc.Members[0].Role != model.RoleOwner ||
			ann.acc.Members[0].User.ID != ann.user.ID || ann.acc.Name != "ann's workspace" {
			t.Errorf("account = %+v, want ann's STARTER workspace with her as OWNER", ann.acc)
		}
		u, acc, err := svc.Management.SignUp(ctx, model.Principal{}, "named@example.com", "long enough", "Nora")
		if err != nil || u.Name != "Nora" || acc.Name != "Nora's workspace" {
			t.Errorf("named sign-up = %+v, %+v, %v", u, acc, err)
		}
	})
	t.Run("sign-up refusals", func(t *testing.T) {
		tests := []struct {
			name, email, password string
			code                  model.Code
		}{
			{"taken", "ann@example.com", "another pass", model.CodeConflict},
			{"taken, other case", " ANN@example.COM ", "another pass", model.CodeConflict},
			{"not an e-mail", "ann", "long enough", model.CodeBadUserInput},
			{"display name form", "Ann <x@example.com>", "long enough", model.CodeBadUserInput},
			{"short password", "short@example.com", "1234567", model.CodeBadUserInput},
			{"long password", "long@example.com", string(make([]byte, 73)), model.CodeBadUserInput},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, _, err := svc.Management.SignUp(ctx, model.Principal{}, tt.email, tt.password, "")
				wantCode(t, err, tt.code)
			})
		}
	})
	t.Run("login", func(t *testing.T) {
		u, acc, err := svc.Management.Login(ctx, "ANN@example.com", "correct horse", "")
		if err != nil {
			t.Fatal(err)
		}
		if u.ID != ann.user.ID || acc.ID != ann.acc.ID {
			t.Errorf("login = %s in %s, want %s in %s", u.ID, acc.ID, ann.user.ID, ann.acc.ID)
		}
		if _, acc, err := svc.Management.Login(ctx, "ann@example.com", "correct horse", ann.acc.ID); err != nil || acc.ID != ann.acc.ID {
			t.Errorf("login to her own account by ID: %v", err)
		}
	})
	t.Run("login refusals", func(t *testing.T) {
		bob := signUp(t, svc, "bob@example.com")
		tests := []struct {
			name, email, password, accountID string
			code                             model.Code
		}{
			{"wrong password", "ann@example.com", "wrong horse", "", model.CodeUnauthenticated},
			{"unknown user", "nobody@example.com", "correct horse", "", model.CodeUnauthenticated},
			{"malformed e-mail", "ann", "correct horse", "", model.CodeUnauthenticated},
			{"account she is not a member of", "ann@example.com", "correct horse", bob.acc.ID, model.CodeForbidden},
			{"account that does not exist", "ann@example.com", "correct horse", "accNoSuchThing", model.CodeForbidden},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, _, err := svc.Management.Login(ctx, tt.email, tt.password, tt.accountID)
				wantCode(t, err, tt.code)
			})
		}
	})
	t.Run("me and account", func(t *testing.T) {
		me, err := svc.Management.Me(ctx, ann.p)
		if err != nil || me.ID != ann.user.ID {
			t.Errorf("Me = %+v, %v", me, err)
		}
		acc, usage, err := svc.Management.Account(ctx, ann.p)
		if err != nil || acc.ID != ann.acc.ID {
			t.Fatalf("Account = %+v, %v", acc, err)
		}
		if usage.Quota != 1000 || usage.Period != "2026-11-21" || !usage.ResetsAt.Equal(time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("usage = %+v, want the STARTER day", usage)
		}
		for _, p := range []model.Principal{{}, {UserID: ann.user.ID}, {SessionID: "s"}} {
			_, err := svc.Management.Me(ctx, p)
			wantCode(t, err, model.CodeUnauthenticated)
		}
		_, err = svc.Management.Me(ctx, model.Principal{AccountID: ann.acc.ID, KeyProjectID: "p", KeyScope: model.ScopeFull})
		wantCode(t, err, model.CodeForbidden)
	})
}

// team is an account with a member of every role.
type team struct {
	owner                 account
	admin, editor, viewer model.Principal
	adminU, editorU       model.User
	viewerU               model.User
}

func newTeam(t *testing.T, nd *node, prefix string) team {
	t.Helper()
	ctx := context.Background()
	tm := team{owner: signUp(t, nd.svc, prefix+"-owner@example.com")}
	invite := func(name string, role model.Role) (model.User, model.Principal) {
		t.Helper()
		own := signUp(t, nd.svc, prefix+"-"+name+"@example.com")
		u := own.user
		inv, err := nd.svc.Management.InviteMember(ctx, tm.owner.p, u.Email, role)
		if err != nil {
			t.Fatalf("InviteMember(%s, %s): %v", name, role, err)
		}
		if inv.Role != role || inv.Email != u.Email {
			t.Fatalf("invitation = %+v", inv)
		}
		if _, err := nd.svc.Management.AnswerInvitation(ctx, own.p, inv.ID, "", true); err != nil {
			t.Fatalf("AnswerInvitation(%s): %v", name, err)
		}
		return u, memberOf(u, tm.owner)
	}
	tm.adminU, tm.admin = invite("admin", model.RoleAdmin)
	tm.editorU, tm.editor = invite("editor", model.RoleEditor)
	tm.viewerU, tm.viewer = invite("viewer", model.RoleViewer)
	return tm
}

func TestRoles(t *testing.T) {
	nd := startNode(t, "", nil)
	svc := nd.svc
	ctx := context.Background()
	tm := newTeam(t, nd, "roles")

	t.Run("a member logs in to the team's account", func(t *testing.T) {
		_, acc, err := svc.Management.Login(ctx, tm.editorU.Email, "correct horse", tm.owner.acc.ID)
		if err != nil || acc.ID != tm.owner.acc.ID {
			t.Fatalf("Login = %v", err)
		}
		if len(acc.Members) != 4 {
			t.Errorf("members = %+v", acc.Members)
		}
	})
	t.Run("projects", func(t *testing.T) {
		_, err := svc.Management.CreateProject(ctx, tm.viewer, "Viewer's", "")
		wantCode(t, err, model.CodeForbidden)
		pr, err := svc.Management.CreateProject(ctx, tm.editor, "Editor's", "")
		if err != nil {
			t.Fatalf("editor CreateProject: %v", err)
		}
		if _, err := svc.Management.Project(ctx, tm.viewer, pr.ID, ""); err != nil {
			t.Errorf("viewer cannot read: %v", err)
		}
		_, err = svc.Management.CreateTable(ctx, tm.viewer, pr.ID, "Product", nil)
		wantCode(t, err, model.CodeForbidden)
		_, err = svc.Management.UpdateProject(ctx, tm.viewer, pr.ID, ptr("Renamed"), ptr("viewer-slug"))
		wantCode(t, err, model.CodeForbidden)
		if _, err := svc.Management.Project(ctx, tm.owner.p, "", "viewer-slug"); model.ErrorCode(err) != model.CodeNotFound {
			t.Errorf("a refused UpdateProject kept the slug it claimed: %v", err)
		}
		err = svc.Management.DeleteProject(ctx, tm.viewer, pr.ID)
		wantCode(t, err, model.CodeForbidden)
		if _, err := svc.Management.CreateTable(ctx, tm.editor, pr.ID, "Product", nil); err != nil {
			t.Errorf("editor CreateTable: %v", err)
		}
		if _, err := svc.Management.CreateTable(ctx, tm.admin, pr.ID, "Customer", nil); err != nil {
			t.Errorf("admin CreateTable: %v", err)
		}
		list, err := svc.Management.Projects(ctx, tm.viewer)
		if err != nil || len(list) != 1 || list[0].ID != pr.ID {
			t.Errorf("viewer's Projects = %v, %v", list, err)
		}
	})
	t.Run("members", func(t *testing.T) {
		_, err := svc.Management.InviteMember(ctx, tm.editor, "new@example.com", model.RoleViewer)
		wantCode(t, err, model.CodeForbidden)
		_, err = svc.Management.SetMemberRole(ctx, tm.editor, tm.viewerU.ID, model.RoleEditor)
		wantCode(t, err, model.CodeForbidden)
		err = svc.Management.RemoveMember(ctx, tm.viewer, tm.editorU.ID)
		wantCode(t, err, model.CodeForbidden)
		_, err = svc.Management.InviteMember(ctx, tm.admin, "new@example.com", "GOD")
		wantCode(t, err, model.CodeBadUserInput)

		// An admin invites someone not signed up yet; they sign up later,
		// find the invitation, accept it and then have both accounts.
		inv, err := svc.Management.InviteMember(ctx, tm.admin, "New@Example.com", model.RoleViewer)
		if err != nil {
			t.Fatalf("admin InviteMember: %v", err)
		}
		newbie := signUp(t, svc, "new@example.com")
		mine, err := svc.Management.MyInvitations(ctx, newbie.p)
		if err != nil || len(mine) != 1 || mine[0].ID != inv.ID || mine[0].AccountName != tm.owner.acc.Name {
			t.Fatalf("MyInvitations = %+v, %v", mine, err)
		}
		_, _, err = svc.Management.Login(ctx, "new@example.com", "correct horse", tm.owner.acc.ID)
		wantCode(t, err, model.CodeForbidden) // pending: not a member yet
		if _, err := svc.Management.AnswerInvitation(ctx, newbie.p, inv.ID, "", true); err != nil {
			t.Fatalf("AnswerInvitation: %v", err)
		}
		m := model.Member{User: newbie.user}
		if _, acc, err := svc.Management.Login(ctx, "new@example.com", "correct horse", tm.owner.acc.ID); err != nil || acc.Member(m.User.ID).Role != model.RoleViewer {
			t.Errorf("invited user's login to the team: %v", err)
		}
		if _, acc, err := svc.Management.Login(ctx, "new@example.com", "correct horse", ""); err != nil || acc.ID != newbie.acc.ID {
			t.Errorf("default login should be the user's own account: %v", err)
		}

		got, err := svc.Management.SetMemberRole(ctx, tm.admin, m.User.ID, model.RoleEditor)
		if err != nil || got.Role != model.RoleEditor {
			t.Fatalf("admin SetMemberRole = %+v, %v", got, err)
		}
		_, err = svc.Management.SetMemberRole(ctx, tm.admin, "uNobody", model.RoleEditor)
		wantCode(t, err, model.CodeNotFound)
		if err := svc.Management.RemoveMember(ctx, tm.admin, m.User.ID); err != nil {
			t.Fatalf("admin RemoveMember: %v", err)
		}
		_, _, err = svc.Management.Login(ctx, "new@example.com", "correct horse", tm.owner.acc.ID)
		wantCode(t, err, model.CodeForbidden)
		_, err = svc.Management.Me(ctx, memberOf(m.User, tm.owner))
		wantCode(t, err, model.CodeForbidden)
		_, err = svc.Management.CreateProject(ctx, memberOf(m.User, tm.owner), "After removal", "")
		wantCode(t, err, model.CodeForbidden)
		err = svc.Management.RemoveMember(ctx, tm.admin, m.User.ID)
		wantCode(t, err, model.CodeNotFound)
	})
	t.Run("last owner", func(t *testing.T) {
		_, err := svc.Management.SetMemberRole(ctx, tm.owner.p, tm.owner.user.ID, model.RoleAdmin)
		wantCode(t, err, model.CodeConflict)
		_, err = svc.Management.SetMemberRole(ctx, tm.admin, tm.owner.user.ID, model.RoleViewer)
		wantCode(t, err, model.CodeForbidden) // only owners change owners
		err = svc.Management.RemoveMember(ctx, tm.owner.p, tm.owner.user.ID)
		wantCode(t, err, model.CodeConflict)

		// With a second owner, the first may step down.
		if _, err := svc.Management.SetMemberRole(ctx, tm.owner.p, tm.editorU.ID, model.RoleOwner); err != nil {
			t.Fatalf("promote to OWNER: %v", err)
		}
		if _, err := svc.Management.SetMemberRole(ctx, tm.owner.p, tm.owner.user.ID, model.RoleAdmin); err != nil {
			t.Fatalf("an owner steps down beside another: %v", err)
		}
		_, err = svc.Management.SetMemberRole(ctx, tm.editor, tm.editorU.ID, model.RoleEditor)
		wantCode(t, err, model.CodeConflict)
		acc, _, err := svc.Management.Account(ctx, tm.owner.p)
		if err != nil || acc.Member(tm.owner.user.ID).Role != model.RoleAdmin || acc.Member(tm.editorU.ID).Role != model.RoleOwner {
			t.Errorf("account = %+v, %v", acc, err)
		}
	})
	t.Run("plan", func(t *testing.T) {
		// The editor is the owner now (subtest "last owner").
		_, err := svc.Management.SetPlan(ctx, tm.admin, model.PlanTeam)
		wantCode(t, err, model.CodeForbidden)
		_, err = svc.Management.SetPlan(ctx, tm.editor, "GOLD")
		wantCode(t, err, model.CodeBadUserInput)
		acc, err := svc.Management.SetPlan(ctx, tm.editor, model.PlanTeam)
		if err != nil || acc.Plan != model.PlanTeam {
			t.Errorf("owner SetPlan = %+v, %v", acc, err)
		}
	})
}

// TestRolesInviteExistingMember: inviting a member again must not bypass
// SetMemberRole's rules.
func TestRolesInviteExistingMember(t *testing.T) {
	nd := startNode(t, "", nil)
	ctx := context.Background()
	tm := newTeam(t, nd, "again")
	_, err := nd.svc.Management.InviteMember(ctx, tm.admin, tm.owner.user.Email, model.RoleViewer)
	if err == nil {
		acc, _, _ := nd.svc.Management.Account(ctx, tm.admin)
		t.Fatalf("an admin re-invited the last owner as VIEWER; the account now has roles %+v", acc.Members)
	}
}

// TestRolesAdminCannotMakeOwners: OWNER is above ADMIN (setPlan is OWNER
// only), so an admin may not grant it, to anyone or to themselves.
func TestRolesAdminCannotMakeOwners(t *testing.T) {
	nd := startNode(t, "", nil)
	ctx := context.Background()
	tm := newTeam(t, nd, "escalate")
	_, err := nd.svc.Management.SetMemberRole(ctx, tm.admin, tm.adminU.ID, model.RoleOwner)
	wantCode(t, err, model.CodeForbidden)
	_, err = nd.svc.Management.InviteMember(ctx, tm.admin, "puppet@example.com", model.RoleOwner)
	wantCode(t, err, model.CodeForbidden)
}
