package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

func TestAPIKeys(t *testing.T) {
	nd := startNode(t, "", nil)
	svc := nd.svc
	ctx := context.Background()
	tm := newTeam(t, nd, "keys")
	pr, err := svc.Management.CreateProject(ctx, tm.editor, "Shop", "")
	if err != nil {
		t.Fatal(err)
	}

	t.Run("plan gate", func(t *testing.T) {
		_, err := svc.Management.CreateAPIKey(ctx, tm.owner.p, pr.ID, "ci", model.ScopeRuntime, time.Time{}, 0)
		wantCode(t, err, model.CodeForbidden)
		_, err = svc.Management.APIKeys(ctx, tm.owner.p, pr.ID)
		wantCode(t, err, model.CodeForbidden)
		if _, err := svc.Management.SetPlan(ctx, tm.owner.p, model.PlanProfessional); err != nil {
			t.Fatal(err)
		}
	})
	var runtimeKey model.CreatedKey
	t.Run("create", func(t *testing.T) {
		var err error
		runtimeKey, err = svc.Management.CreateAPIKey(ctx, tm.editor, pr.ID, "  ci  ", model.ScopeRuntime, time.Time{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		k, v := runtimeKey.Key, runtimeKey.Value
		if len(v) != len(ids.KeyPrefix)+43 || !strings.HasPrefix(v, ids.KeyPrefix) || !strings.HasPrefix(v, k.Prefix) || len(k.Prefix) != 10 {
			t.Errorf("value %q, prefix %q", v, k.Prefix)
		}
		if k.Name != "ci" || k.ProjectID != pr.ID || k.AccountID != tm.owner.acc.ID || k.Scope != model.ScopeRuntime ||
			k.MaxActors != 5 || k.Revoked || k.Hash != "" || !k.CreatedAt.Equal(nd.clock.Now()) {
			t.Errorf("key = %+v", k)
		}
		tests := []struct {
			name    string
			p       model.Principal
			project string
			scope   model.Scope
			expires time.Time
			actors  int
			code    model.Code
		}{
			{"viewer", tm.viewer, pr.ID, model.ScopeRuntime, time.Time{}, 0, model.CodeForbidden},
			{"unknown scope", tm.editor, pr.ID, "ADMIN", time.Time{}, 0, model.CodeBadUserInput},
			{"expired already", tm.editor, pr.ID, model.ScopeRuntime, nd.clock.Now(), 0, model.CodeBadUserInput},
			{"no actors", tm.editor, pr.ID, model.ScopeRuntime, time.Time{}, -1, model.CodeBadUserInput},
			{"too many actors", tm.editor, pr.ID, model.ScopeRuntime, time.Time{}, 1001, model.CodeBadUserInput},
			{"unknown project", tm.editor, "pNoSuchProject", model.ScopeRuntime, time.Time{}, 0, model.CodeNotFound},
			{"by an API key", keyPrincipal(runtimeKey.Key), pr.ID, model.ScopeRuntime, time.Time{}, 0, model.CodeForbidden},
			{"anonymous", model.Principal{}, pr.ID, model.ScopeRuntime, time.Time{}, 0, model.CodeUnauthenticated},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := svc.Management.CreateAPIKey(ctx, tt.p, tt.project, "x", tt.scope, tt.expires, tt.actors)
				wantCode(t, err, tt.code)
			})
		}
		if k, err := svc.Management.CreateAPIKey(ctx, tm.admin, pr.ID, "max", model.ScopeFull, time.Time{}, 1000); err != nil || k.Key.MaxActors != 1000 {
			t.Errorf("maxActors 1000: %+v, %v", k.Key, err)
		}
	})
	t.Run("guest projects have no keys", func(t *testing.T) {
		gp, session, err := svc.Public.CreateGuestProject(ctx, model.Principal{}, "")
		if err != nil {
			t.Fatal(err)
		}
		_, err = svc.Management.CreateAPIKey(ctx, tm.editor, gp.ID, "x", model.ScopeRuntime, time.Time{}, 0)
		wantCode(t, err, model.CodeForbidden)
		_, err = svc.Management.CreateAPIKey(ctx, model.Principal{SessionID: session}, gp.ID, "x", model.ScopeRuntime, time.Time{}, 0)
		wantCode(t, err, model.CodeUnauthenticated)
	})
	t.Run("auth", func(t *testing.T) {
		expiring, err := svc.Management.CreateAPIKey(ctx, tm.admin, pr.ID, "temp", model.ScopeFull, nd.clock.Now().Add(time.Hour), 0)
		if err != nil {
			t.Fatal(err)
		}
		revoked, err := svc.Management.CreateAPIKey(ctx, tm.admin, pr.ID, "revoked", model.ScopeManagement, time.Time{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		k, err := svc.Edge.AuthKey(ctx, runtimeKey.Value)
		if err != nil || k.ID != runtimeKey.Key.ID || k.Scope != model.ScopeRuntime || k.ProjectID != pr.ID {
			t.Errorf("AuthKey = %+v, %v", k, err)
		}
		r, err := svc.Management.RevokeAPIKey(ctx, tm.admin, revoked.Key.ID)
		if err != nil || !r.Revoked || r.Hash != "" {
			t.Errorf("RevokeAPIKey = %+v, %v", r, err)
		}
		if _, err := svc.Edge.AuthKey(ctx, expiring.Value); err != nil {
			t.Errorf("before expiry: %v", err)
		}
		nd.clock.Add(time.Hour)
		t.Cleanup(func() { nd.clock.Add(-time.Hour) })

		unknown := ids.KeyPrefix + strings.Repeat("A", 43)
		tests := []struct {
			name, value string
			code        model.Code
		}{
			{"unknown", unknown, model.CodeAPIKeyInvalid},
			{"empty", "", model.CodeAPIKeyInvalid},
			{"no prefix", strings.Repeat("A", 47), model.CodeAPIKeyInvalid},
			{"short", runtimeKey.Value[:len(runtimeKey.Value)-1], model.CodeAPIKeyInvalid},
			{"long", runtimeKey.Value + "A", model.CodeAPIKeyInvalid},
			{"other prefix", "xyz_" + runtimeKey.Value[4:], model.CodeAPIKeyInvalid},
			{"revoked", revoked.Value, model.CodeAPIKeyInvalid},
			{"expired", expiring.Value, model.CodeAPIKeyExpired},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := svc.Edge.AuthKey(ctx, tt.value)
				wantCode(t, err, tt.code)
			})
		}
		if _, err := svc.Edge.AuthKey(ctx, runtimeKey.Value); err != nil {
			t.Errorf("a key without expiry expired: %v", err)
		}
	})
	t.Run("list, revoke and delete", func(t *testing.T) {
		keys, err := svc.Management.APIKeys(ctx, tm.editor, pr.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(keys) != 4 {
			t.Errorf("got %d keys, want 4", len(keys))
		}
		for _, k := range keys {
			if k.Hash != "" || k.ProjectID != pr.ID {
				t.Errorf("listed key %+v: the hash must not leave", k)
			}
		}
		_, err = svc.Management.APIKeys(ctx, tm.viewer, pr.ID)
		wantCode(t, err, model.CodeForbidden)
		_, err = svc.Management.RevokeAPIKey(ctx, tm.viewer, runtimeKey.Key.ID)
		wantCode(t, err, model.CodeForbidden)
		_, err = svc.Management.RevokeAPIKey(ctx, tm.editor, "kNoSuchKey")
		wantCode(t, err, model.CodeNotFound)

		// Another account cannot reach the key.
		stranger := signUp(t, svc, "stranger@example.com")
		_, err = svc.Management.RevokeAPIKey(ctx, stranger.p, runtimeKey.Key.ID)
		wantCode(t, err, model.CodeNotFound)
		err = svc.Management.DeleteAPIKey(ctx, stranger.p, runtimeKey.Key.ID)
		wantCode(t, err, model.CodeNotFound)

		if err := svc.Management.DeleteAPIKey(ctx, tm.editor, runtimeKey.Key.ID); err != nil {
			t.Fatal(err)
		}
		_, err = svc.Edge.AuthKey(ctx, runtimeKey.Value)
		wantCode(t, err, model.CodeAPIKeyInvalid)
		keys, err = svc.Management.APIKeys(ctx, tm.editor, pr.ID)
		if err != nil || len(keys) != 3 {
			t.Errorf("after delete: %d keys, %v", len(keys), err)
		}
		err = svc.Management.DeleteAPIKey(ctx, tm.editor, runtimeKey.Key.ID)
		wantCode(t, err, model.CodeNotFound)
	})
	t.Run("downgrade", func(t *testing.T) {
		if _, err := svc.Management.SetPlan(ctx, tm.owner.p, model.PlanStarter); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _, _ = svc.Management.SetPlan(ctx, tm.owner.p, model.PlanProfessional) })
		_, err := svc.Management.CreateAPIKey(ctx, tm.editor, pr.ID, "x", model.ScopeRuntime, time.Time{}, 0)
		wantCode(t, err, model.CodeForbidden)
	})
}
