package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/mockgql/mockgql/model"
)

// TestProjectRole checks Project.myRole's source for each role and project
// kind, and that a caller who may not read a project learns nothing more
// than Project tells them.
func TestProjectRole(t *testing.T) {
	nd := startNode(t, "", nil)
	svc := nd.svc
	ctx := context.Background()
	tm := newTeam(t, nd, "myrole")
	stranger := signUp(t, svc, "myrole-stranger@example.com")
	pr, err := svc.Management.CreateProject(ctx, tm.editor, "Shop", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Management.SetPlan(ctx, tm.owner.p, model.PlanProfessional); err != nil {
		t.Fatal(err)
	}
	mgmtKey, err := svc.Management.CreateAPIKey(ctx, tm.owner.p, pr.ID, "ci", model.ScopeManagement, time.Time{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	gp, guestSession, err := svc.Public.CreateGuestProject(ctx, model.Principal{}, "Guest")
	if err != nil {
		t.Fatal(err)
	}
	sp, assistantSession, err := svc.Public.CreateSessionProject(ctx, model.Principal{}, "Assistant's")
	if err != nil {
		t.Fatal(err)
	}
	_, otherSession, err := svc.Public.CreateGuestProject(ctx, model.Principal{}, "Other")
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name    string
		p       model.Principal
		project string
		want    model.Role
		code    model.Code
	}{
		{"account owner", tm.owner.p, pr.ID, model.RoleOwner, ""},
		{"account admin", tm.admin, pr.ID, model.RoleAdmin, ""},
		{"account editor", tm.editor, pr.ID, model.RoleEditor, ""},
		{"account viewer", tm.viewer, pr.ID, model.RoleViewer, ""},
		{"management key of the project", keyPrincipal(mgmtKey.Key), pr.ID, model.RoleEditor, ""},
		{"system", systemPrincipal, pr.ID, model.RoleOwner, ""},
		{"guest project's session", model.Principal{SessionID: guestSession}, gp.ID, model.RoleOwner, ""},
		{"session project's session", model.Principal{SessionID: assistantSession}, sp.Project.ID, model.RoleOwner, ""},
		{"adoption link's board session", model.Principal{BoardProjectID: sp.Project.ID}, sp.Project.ID, model.RoleOwner, ""},
		{"signed-in holder of a guest project", model.Principal{UserID: stranger.user.ID, AccountID: stranger.acc.ID, SessionID: guestSession}, gp.ID, model.RoleOwner, ""},
		{"non-member", stranger.p, pr.ID, "", model.CodeNotFound},
		{"management key of another project", keyPrincipal(mgmtKey.Key), gp.ID, "", model.CodeForbidden},
		{"another session, guest project", model.Principal{SessionID: otherSession}, gp.ID, "", model.CodeForbidden},
		{"another session, session project", model.Principal{SessionID: otherSession}, sp.Project.ID, "", model.CodeForbidden},
		{"board session of another project", model.Principal{BoardProjectID: sp.Project.ID}, gp.ID, "", model.CodeForbidden},
		{"anonymous", model.Principal{}, pr.ID, "", model.CodeUnauthenticated},
		{"no such project", tm.owner.p, "pNoSuchProject", "", model.CodeNotFound},
		{"malformed ID", tm.owner.p, "<script>", "", model.CodeBadUserInput},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, readErr := svc.Management.Project(ctx, tt.p, tt.project, "")
			got, err := svc.Management.ProjectRole(ctx, tt.p, tt.project)
			wantCode(t, err, tt.code)
			if model.ErrorCode(readErr) != tt.code {
				t.Errorf("Project: %v, but ProjectRole: %v (the field must fail as the project does)", readErr, err)
			}
			if got != tt.want {
				t.Errorf("role = %q, want %q", got, tt.want)
			}
		})
	}

	t.Run("follows a role change", func(t *testing.T) {
		if _, err := svc.Management.SetMemberRole(ctx, tm.owner.p, tm.viewerU.ID, model.RoleEditor); err != nil {
			t.Fatal(err)
		}
		if got, err := svc.Management.ProjectRole(ctx, tm.viewer, pr.ID); err != nil || got != model.RoleEditor {
			t.Fatalf("after SetMemberRole(EDITOR): %q, %v", got, err)
		}
		if err := svc.Management.RemoveMember(ctx, tm.owner.p, tm.viewerU.ID); err != nil {
			t.Fatal(err)
		}
		_, err := svc.Management.ProjectRole(ctx, tm.viewer, pr.ID)
		wantCode(t, err, model.CodeNotFound)
	})
}
