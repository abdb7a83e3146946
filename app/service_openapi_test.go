package app_test

import (
	"context"
	"encoding/base64"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/model"
)

// threeSchemas is an OpenAPI document with schemas A, B and C.
const threeSchemas = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{
 "A":{"type":"object","properties":{"id":{"type":"integer"},"x":{"type":"string"}}},
 "B":{"type":"object","properties":{"y":{"type":"object","properties":{"z":{"type":"number"}}}}},
 "C":{"type":"object","properties":{"w":{"type":"boolean"}}}}}}`

// TestImportOpenAPIAllOrNothing checks that one edit adds every imported
// table, and that a refusal of any one of them adds none.
func TestImportOpenAPIAllOrNothing(t *testing.T) {
	nd := startNode(t, "", nil)
	ctx := context.Background()
	ann := signUp(t, nd.svc, "importer@example.com")
	pr, err := nd.svc.Management.CreateProject(ctx, ann.p, "Import", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nd.svc.Management.CreateTable(ctx, ann.p, pr.ID, "C", nil); err != nil {
		t.Fatal(err)
	}
	_, err = nd.svc.Management.ImportOpenAPI(ctx, ann.p, pr.ID, threeSchemas, []string{"A", "B", "C"})
	wantCode(t, err, model.CodeConflict)
	if got, _ := nd.svc.Management.Project(ctx, ann.p, pr.ID, ""); len(got.Tables) != 1 {
		t.Fatalf("a refused import left %d tables", len(got.Tables))
	}
	tables, err := nd.svc.Management.ImportOpenAPI(ctx, ann.p, pr.ID, threeSchemas, []string{"B", "A"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 2 || tables[0].Name != "B" || tables[1].Name != "A" {
		t.Fatalf("imported %+v", tables)
	}
	for _, tb := range tables {
		if !strings.HasPrefix(tb.ID, pr.ID+".") || tb.Source != nil {
			t.Errorf("table %+v", tb)
		}
		for _, a := range tb.Attributes {
			if a.TableID != tb.ID || !strings.HasPrefix(a.ID, pr.ID+".") || a.Mapping != model.MappingNone {
				t.Errorf("attribute %+v", a)
			}
		}
	}
	if a := tables[0].Attributes[0]; a.Name != "yZ" || a.SourcePath != "y.z" || a.Type != model.TypeFloat {
		t.Errorf("nested attribute %+v", a)
	}
	_, err = nd.svc.Management.ImportOpenAPI(ctx, ann.p, pr.ID, "swagger: '1.2'", nil)
	wantCode(t, err, model.CodeBadUserInput)
}

// TestSchemaBaseline checks that a baseline keeps the model version, comes
// back after a restart and is what schemaChanges compares with.
func TestSchemaBaseline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mockgql.db")
	clock := newTestClock()
	ctx := context.Background()
	first := startNode(t, path, clock)
	ann := signUp(t, first.svc, "baseline@example.com")
	pr, err := first.svc.Management.CreateProject(ctx, ann.p, "Versioned", "")
	if err != nil {
		t.Fatal(err)
	}
	importProducts(t, first.svc, "products")
	buildShop(t, first.svc, ann.p, pr.ID, "products")
	_, err = first.svc.Management.SchemaChanges(ctx, ann.p, pr.ID)
	wantCode(t, err, model.CodeNotFound)
	before, _ := first.svc.Management.Project(ctx, ann.p, pr.ID, "")
	if err := first.svc.Management.SetSchemaBaseline(ctx, ann.p, pr.ID); err != nil {
		t.Fatal(err)
	}
	after, _ := first.svc.Management.Project(ctx, ann.p, pr.ID, "")
	if after.Version != before.Version || !strings.Contains(after.Baseline, "type Query") {
		t.Fatalf("version %d → %d, baseline %q", before.Version, after.Version, after.Baseline)
	}
	first.stop()

	second := startNode(t, path, clock)
	changes, err := second.svc.Management.SchemaChanges(ctx, ann.p, pr.ID)
	if err != nil || len(changes) != 0 {
		t.Fatalf("after the restart: %v, %v", changes, err)
	}
	var list *model.Operation
	for _, o := range after.Operations {
		if o.Kind == model.OpList {
			list = o
		}
	}
	if _, err := second.svc.Management.UpdateOperation(ctx, ann.p, list.ID, model.OperationPatch{Name: ptr("everything")}); err != nil {
		t.Fatal(err)
	}
	changes, err = second.svc.Management.SchemaChanges(ctx, ann.p, pr.ID)
	if err != nil || len(changes) != 2 || changes[0].Criticality != model.ChangeBreaking || changes[0].Path != "Query."+list.Name {
		t.Fatalf("after a rename: %+v, %v", changes, err)
	}
}

// TestExportCodePackageAccess checks the plan and role rules, including an
// API key acting for its PROFESSIONAL account.
func TestExportCodePackageAccess(t *testing.T) {
	nd := startNode(t, "", nil)
	ctx := context.Background()
	ann := signUp(t, nd.svc, "codepkg@example.com")
	pr, err := nd.svc.Management.CreateProject(ctx, ann.p, "Package", "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = nd.svc.Management.ExportCodePackage(ctx, ann.p, pr.ID, "go")
	wantCode(t, err, model.CodeForbidden)
	if _, err := nd.svc.Management.SetPlan(ctx, ann.p, model.PlanProfessional); err != nil {
		t.Fatal(err)
	}
	zip, err := nd.svc.Management.ExportCodePackage(ctx, ann.p, pr.ID, "Go")
	if b, _ := base64.StdEncoding.DecodeString(zip); err != nil || !strings.HasPrefix(string(b), "PK") {
		t.Fatalf("package: %v", err)
	}
	key, err := nd.svc.Management.CreateAPIKey(ctx, ann.p, pr.ID, "ci", model.ScopeFull, time.Time{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nd.svc.Management.ExportCodePackage(ctx, keyPrincipal(key.Key), pr.ID, "go"); err != nil {
		t.Fatalf("with a FULL key: %v", err)
	}
	gp, session, err := nd.svc.Public.CreateGuestProject(ctx, model.Principal{}, "Guest")
	if err != nil {
		t.Fatal(err)
	}
	_, err = nd.svc.Management.ExportCodePackage(ctx, model.Principal{SessionID: session}, gp.ID, "go")
	wantCode(t, err, model.CodeForbidden)
}
