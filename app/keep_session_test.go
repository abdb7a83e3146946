package app_test

import (
	"context"
	"testing"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/model"
)

// TestKeepSessionProject checks keepSessionProject's rules: a signed-in
// EDITOR or above of the workspace takes the session project its browser
// holds (an adoption link's board session, or its session cookie's), once,
// within the plan's project cap; the project stops expiring, loses its
// share token and joins the account's list, and the assistant's session
// may make another.
func TestKeepSessionProject(t *testing.T) {
	nd := startNode(t, "", nil, func(e *actors.Env) { e.Config.Limits.Projects[0] = 1 })
	svc := nd.svc
	ctx := context.Background()
	tm := newTeam(t, nd, "keep")
	stranger := signUp(t, svc, "keep-stranger@example.com")
	sp, assistant, err := svc.Public.CreateSessionProject(ctx, model.Principal{}, "Assistant's")
	if err != nil {
		t.Fatal(err)
	}
	id := sp.Project.ID
	other, _, err := svc.Public.CreateSessionProject(ctx, model.Principal{}, "Someone else's")
	if err != nil {
		t.Fatal(err)
	}
	holding := func(p model.Principal) model.Principal { p.BoardProjectID = id; return p }
	team := tm.owner.acc.ID

	refusals := []struct {
		name    string
		p       model.Principal
		project string
		account string
		code    model.Code
	}{
		{"signed out", model.Principal{BoardProjectID: id}, id, "", model.CodeUnauthenticated},
		{"viewer", holding(tm.viewer), id, "", model.CodeForbidden},
		{"not a member of the workspace", holding(stranger.p), id, team, model.CodeForbidden},
		{"no such workspace", holding(tm.editor), id, "accNoSuchAccount1", model.CodeForbidden},
		{"not held by this browser", tm.editor, id, "", model.CodeNotFound},
		{"another session's project", holding(tm.editor), other.Project.ID, "", model.CodeNotFound},
		{"malformed ID", holding(tm.editor), "<p>", "", model.CodeBadUserInput},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			_, err := svc.Management.KeepSessionProject(ctx, tt.p, tt.project, tt.account)
			wantCode(t, err, tt.code)
		})
	}

	t.Run("the plan's project cap", func(t *testing.T) {
		full, err := svc.Management.CreateProject(ctx, tm.owner.p, "Fills the cap", "")
		if err != nil {
			t.Fatal(err)
		}
		_, err = svc.Management.KeepSessionProject(ctx, holding(tm.editor), id, "")
		wantCode(t, err, model.CodeLimitReached)
		pr, err := svc.Management.Project(ctx, model.Principal{SessionID: assistant}, id, "")
		if err != nil || pr.Kind != model.KindSession || pr.ExpiresAt.IsZero() {
			t.Fatalf("a refused keep changed the project: %+v, %v", pr, err)
		}
		if err := svc.Management.DeleteProject(ctx, tm.owner.p, full.ID); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("an editor keeps it", func(t *testing.T) {
		pr, err := svc.Management.KeepSessionProject(ctx, holding(tm.editor), id, team)
		if err != nil {
			t.Fatalf("KeepSessionProject: %v", err)
		}
		if pr.Kind != model.KindAccount || pr.AccountID != team || !pr.ExpiresAt.IsZero() || pr.ShareToken != "" {
			t.Errorf("kept project = kind %s, account %s, expires %v, share token %q", pr.Kind, pr.AccountID, pr.ExpiresAt, pr.ShareToken)
		}
		list, err := svc.Management.Projects(ctx, tm.viewer)
		if err != nil || len(list) != 1 || list[0].ID != id {
			t.Errorf("the workspace's projects = %v, %v", list, err)
		}
		if _, err := svc.Management.Project(ctx, model.Principal{SessionID: assistant}, id, ""); err == nil {
			t.Error("the assistant's session still reaches the kept project")
		}
		if _, _, err := svc.Public.CreateSessionProject(ctx, model.Principal{SessionID: assistant}, "Next"); err != nil {
			t.Errorf("the assistant's session cannot make another: %v", err)
		}
	})

	t.Run("kept already", func(t *testing.T) {
		_, err := svc.Management.KeepSessionProject(ctx, holding(tm.admin), id, "")
		wantCode(t, err, model.CodeConflict)
	})

	t.Run("by the session cookie that made it", func(t *testing.T) {
		own := signUp(t, svc, "keep-own@example.com")
		sp, session, err := svc.Public.CreateSessionProject(ctx, model.Principal{}, "Mine")
		if err != nil {
			t.Fatal(err)
		}
		p := own.p
		p.SessionID = session
		pr, err := svc.Management.KeepSessionProject(ctx, p, sp.Project.ID, "")
		if err != nil || pr.AccountID != own.acc.ID {
			t.Fatalf("KeepSessionProject = %+v, %v", pr, err)
		}
	})
}
