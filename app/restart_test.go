package app_test

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/mockgql/mockgql/model"
)

// TestRestart: a node stops and a new one starts on the same database
// file; the grains load everything acknowledged before from bbolt.
func TestRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mockgql.db")
	clock := newTestClock()
	ctx := context.Background()

	first := startNode(t, path, clock)
	importProducts(t, first.svc, "products")
	s := newShop(t, first, "durable@example.com", "durable", "products")
	revoked, err := first.svc.Management.CreateAPIKey(ctx, s.owner.p, s.project.ID, "revoked", model.ScopeRuntime, time.Time{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.svc.Management.RevokeAPIKey(ctx, s.owner.p, revoked.Key.ID); err != nil {
		t.Fatal(err)
	}
	created := mutate(t, first.svc, "durable", s.runtime.Value, "", `mutation { createProduct(input: {name: "Persisted", price: 1}) { id } }`, "createProduct")
	mutate(t, first.svc, "durable", s.runtime.Value, "", `mutation { updateProduct(id: "p1", input: {name: "Laptop Pro"}) { id } }`, "updateProduct")
	mutate(t, first.svc, "durable", s.runtime.Value, "", `mutation { deleteProduct(id: "p2") { id } }`, "deleteProduct")
	gp, session, err := first.svc.Public.CreateGuestProject(ctx, model.Principal{}, "Guest")
	if err != nil {
		t.Fatal(err)
	}
	buildShop(t, first.svc, model.Principal{SessionID: session}, gp.ID, "products")
	mutate(t, first.svc, gp.Slug, "", gp.ShareToken, `mutation { createProduct(input: {name: "Guest row"}) { id } }`, "createProduct")
	if _, err := first.svc.Management.UpdateProject(ctx, s.owner.p, s.project.ID, ptr("Durable shop"), nil); err != nil {
		t.Fatal(err)
	}
	before, err := first.svc.Management.Project(ctx, s.owner.p, s.project.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	wantNames := []string{"Laptop Pro", "Desk", "Persisted"}
	if got := productNames(t, first.svc, "durable", s.runtime.Value, ""); !reflect.DeepEqual(got, wantNames) {
		t.Fatalf("before the restart: %q", got)
	}
	first.stop()

	second := startNode(t, path, clock)
	svc := second.svc
	t.Run("accounts", func(t *testing.T) {
		u, acc, err := svc.Management.Login(ctx, "durable@example.com", "correct horse", "")
		if err != nil || u.ID != s.owner.user.ID || acc.Plan != model.PlanProfessional || len(acc.ProjectIDs) != 2 {
			t.Errorf("login after restart: %+v, %+v, %v", u, acc, err)
		}
	})
	t.Run("model", func(t *testing.T) {
		after, err := svc.Management.Project(ctx, s.owner.p, "", "durable")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(after, before) {
			t.Errorf("project after restart:\n got %+v\nwant %+v", after, before)
		}
	})
	t.Run("mock data", func(t *testing.T) {
		if got := productNames(t, svc, "durable", s.runtime.Value, ""); !reflect.DeepEqual(got, wantNames) {
			t.Errorf("after the restart: %q, want %q", got, wantNames)
		}
		again := mutate(t, svc, "durable", s.full.Value, "", `mutation { createProduct(input: {name: "After restart"}) { id } }`, "createProduct")
		if again["id"] == created["id"] {
			t.Errorf("a row created after the restart reuses id %v", again["id"])
		}
		if got := productNames(t, svc, "durable", s.runtime.Value, ""); !reflect.DeepEqual(got, append(wantNames, "After restart")) {
			t.Errorf("after a new mutation: %q", got)
		}
	})
	t.Run("keys", func(t *testing.T) {
		_, err := runtime(ctx, svc, "durable", revoked.Value, "", `{ products { total } }`)
		wantCode(t, err, model.CodeAPIKeyInvalid)
		_, err = runtime(ctx, svc, "durable", s.mgmt.Value, "", `{ products { total } }`)
		wantCode(t, err, model.CodeScopeInsufficient)
		keys, err := svc.Management.APIKeys(ctx, s.owner.p, s.project.ID)
		if err != nil || len(keys) != 4 {
			t.Errorf("keys after restart: %d, %v", len(keys), err)
		}
	})
	t.Run("guest project", func(t *testing.T) {
		if got := productNames(t, svc, gp.Slug, "", gp.ShareToken); !slices.Contains(got, "Guest row") || len(got) != 4 {
			t.Errorf("guest rows after restart: %q", got)
		}
		if _, err := svc.Management.CreateTable(ctx, model.Principal{SessionID: session}, gp.ID, "More", nil); err != nil {
			t.Errorf("the session lost its project: %v", err)
		}
	})
	t.Run("data pool", func(t *testing.T) {
		sources, err := svc.MCP.DataSources(ctx)
		if err != nil || len(sources) != 1 || sources[0].ImportCode != "products" || sources[0].RecordCount != 3 {
			t.Fatalf("data sources after restart: %+v, %v", sources, err)
		}
		if samples := sources[0].Samples.Sample(2); len(samples) != 2 {
			t.Errorf("samples: %q", samples)
		}
		_, err = svc.Datasets.ImportDataset(ctx, systemPrincipal, model.DatasetImport{ImportCode: "products", Format: "json", Body: nil})
		wantCode(t, err, model.CodeConflict)
	})
}
