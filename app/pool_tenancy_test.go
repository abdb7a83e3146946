package app_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/app"
	"github.com/mockgql/mockgql/model"
)

// upload imports a small NDJSON dataset as p.
func upload(svc *app.Service, p model.Principal, code, body string) (model.DataSource, error) {
	return svc.Datasets.ImportDataset(context.Background(), p, model.DatasetImport{ImportCode: code, Format: "ndjson", Body: strings.NewReader(body)})
}

func codes(ds []model.DataSource) string {
	var out []string
	for _, d := range ds {
		out = append(out, d.ImportCode)
	}
	return strings.Join(out, ",")
}

// TestDatasetsBelongToTheirAccount: a dataset an account uploads is listed
// for its members and read by its projects only; other accounts, sessions
// and anonymous callers see the curated pool (the node's own uploads, such
// as the demo data, and the --pool-curators accounts'); a project of
// another account bound to the code reads nothing. deleteDataset is
// refused while a table is bound (naming it), then frees the bytes but not
// the code. Plans bound the count. It used to be one pool everyone saw.
func TestDatasetsBelongToTheirAccount(t *testing.T) {
	nd := startNode(t, "", nil, func(e *actors.Env) { e.Config.PoolCurators = []string{"carol@example.com"} })
	svc, ctx := nd.svc, context.Background()
	ann, bob := signUp(t, svc, "ann@example.com"), signUp(t, svc, "bob@example.com")
	if _, err := upload(svc, model.Principal{System: true}, "demo", `{"id":1,"name":"curated"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := upload(svc, ann.p, "secret", `{"id":1,"name":"ann's"}`); err != nil {
		t.Fatal(err)
	}
	for who, tc := range map[string]struct {
		p    model.Principal
		want string
	}{
		"ann":       {ann.p, "demo,secret"},
		"bob":       {bob.p, "demo"},
		"anonymous": {model.Principal{}, "demo"},
	} {
		ds, err := svc.Management.DataSourcesFor(ctx, tc.p)
		if err != nil || codes(ds) != tc.want {
			t.Errorf("%s sees %q (%v), want %q", who, codes(ds), err, tc.want)
		}
	}
	if ds, _ := svc.MCP.DataSources(ctx); codes(ds) != "demo" {
		t.Errorf("the public list: %q", codes(ds))
	}
	// Ann's project and Bob's bind a table to Ann's code: only Ann's
	// reads its rows.
	bound := func(a account, name string) (*model.Project, *model.Table, string) {
		t.Helper()
		return boundProject(t, svc, a, name, "secret")
	}
	_, annTbl, annRows := bound(ann, "Ann's")
	_, _, bobRows := bound(bob, "Bob's")
	if !strings.Contains(annRows, `"name":"ann's"`) {
		t.Fatalf("ann's project over her dataset: %s", annRows)
	}
	if strings.Contains(bobRows, "ann's") || !strings.Contains(bobRows, `"total":0`) {
		t.Fatalf("bob's project over ann's dataset: %s; want no rows", bobRows)
	}
	if err := svc.Management.DeleteDataset(ctx, bob.p, "secret"); model.ErrorCode(err) != model.CodeNotFound {
		t.Errorf("bob deletes ann's dataset: %v", err)
	}
	if err := svc.Management.DeleteDataset(ctx, ann.p, "demo"); model.ErrorCode(err) != model.CodeForbidden {
		t.Errorf("ann deletes a curated dataset: %v", err)
	}
	err := svc.Management.DeleteDataset(ctx, ann.p, "secret")
	if model.ErrorCode(err) != model.CodeConflict || !strings.Contains(err.Error(), "Ann's.Row") {
		t.Fatalf("deleting a bound dataset: %v; want CONFLICT naming Ann's.Row", err)
	}
	if err := svc.Management.DeleteTable(ctx, ann.p, annTbl.ID); err != nil {
		t.Fatal(err)
	}
	if err := svc.Management.DeleteDataset(ctx, ann.p, "secret"); err != nil {
		t.Fatalf("deleting an unbound dataset: %v", err)
	}
	if ds, _ := svc.Management.DataSourcesFor(ctx, ann.p); codes(ds) != "demo" {
		t.Errorf("after the deletion ann sees %q", codes(ds))
	}
	// STARTER holds 10 datasets of its own (the deleted one no longer counts).
	for i := range 11 {
		_, err := upload(svc, ann.p, fmt.Sprintf("a%d", i), `{"id":1}`)
		if i < 10 && err != nil || i == 10 && model.ErrorCode(err) != model.CodeLimitReached {
			t.Fatalf("dataset %d on STARTER: %v", i+1, err)
		}
	}
	// A curator's upload is curated: everyone sees it.
	carol := signUp(t, svc, "carol@example.com")
	if _, err := upload(svc, carol.p, "curated", `{"id":1}`); err != nil {
		t.Fatal(err)
	}
	if ds, _ := svc.MCP.DataSources(ctx); codes(ds) != "curated,demo" {
		t.Errorf("after a curator's upload the public list is %q", codes(ds))
	}
}

// boundProject makes a project of a with one table bound to code and
// returns it with what its list operation answers.
func boundProject(t *testing.T, svc *app.Service, a account, name, code string) (*model.Project, *model.Table, string) {
	t.Helper()
	ctx := context.Background()
	pr, err := svc.Management.CreateProject(ctx, a.p, name, "")
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := svc.Management.CreateTable(ctx, a.p, pr.ID, "Row", &model.TableSource{ImportCode: code})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Management.CreateAttribute(ctx, a.p, model.Attribute{TableID: tbl.ID, Name: "name", Type: model.TypeString,
		Mapping: model.MappingSource, SourcePath: "name"}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Management.GenerateDefaultOperations(ctx, a.p, pr.ID, ""); err != nil {
		t.Fatal(err)
	}
	return pr, tbl, projectRows(t, svc, pr)
}

// projectRows is what pr's list operation of boundProject answers.
func projectRows(t *testing.T, svc *app.Service, pr *model.Project) string {
	t.Helper()
	res, err := svc.Runtime.Runtime(context.Background(), model.RuntimeRequest{Slug: pr.Slug, Body: []byte(`{"query":"{ rows { total items { name } } }"}`),
		Internal: true, ProjectID: pr.ID})
	if err != nil {
		t.Fatal(err)
	}
	return string(res.Body)
}

// TestImportCodesAreScopedPerAccount: two accounts import the same code
// with different data and each project reads its own; a third account
// reads neither; an account cannot take a curated code; a deleted code is
// imported again by its owner; all of it holds after a restart on the
// same bbolt file. Import codes used to be one namespace for the server,
// first come first served, and a deleted one was retired for good.
func TestImportCodesAreScopedPerAccount(t *testing.T) {
	path := filepath.Join(t.TempDir(), "scoped.db")
	nd := startNode(t, path, nil)
	svc, ctx := nd.svc, context.Background()
	ann, bob, cy := signUp(t, svc, "ann@example.com"), signUp(t, svc, "bob@example.com"), signUp(t, svc, "cy@example.com")
	if _, err := upload(svc, model.Principal{System: true}, "curated", `{"id":1,"name":"curated"}`); err != nil {
		t.Fatal(err)
	}
	for who, a := range map[string]account{"ann": ann, "bob": bob} {
		if _, err := upload(svc, a.p, "shared", `{"id":1,"name":"`+who+`'s"}`); err != nil {
			t.Fatalf("%s imports code shared: %v", who, err)
		}
	}
	if _, err := upload(svc, ann.p, "shared", `{"id":1}`); model.ErrorCode(err) != model.CodeConflict {
		t.Errorf("ann imports her own code again: %v; want CONFLICT", err)
	}
	if _, err := upload(svc, cy.p, "curated", `{"id":1}`); model.ErrorCode(err) != model.CodeConflict {
		t.Errorf("an account takes a curated code: %v; want CONFLICT", err)
	}
	annPr, annTbl, annRows := boundProject(t, svc, ann, "Ann's", "shared")
	bobPr, _, bobRows := boundProject(t, svc, bob, "Bob's", "shared")
	cyPr, _, cyRows := boundProject(t, svc, cy, "Cy's", "shared")
	check := func(when string, want map[*model.Project]string) {
		t.Helper()
		for pr, w := range want {
			if got := projectRows(t, svc, pr); !strings.Contains(got, w) {
				t.Errorf("%s: project %s reads %s; want %s", when, pr.Name, got, w)
			}
		}
		for who, tc := range map[string]struct {
			a    account
			want string
		}{"ann": {ann, "curated,shared"}, "bob": {bob, "curated,shared"}, "cy": {cy, "curated"}} {
			if ds, err := svc.Management.DataSourcesFor(ctx, tc.a.p); err != nil || codes(ds) != tc.want {
				t.Errorf("%s: %s lists %q (%v), want %q", when, who, codes(ds), err, tc.want)
			}
		}
	}
	for pr, rows := range map[*model.Project]string{annPr: annRows, bobPr: bobRows, cyPr: cyRows} {
		want := map[*model.Project]string{annPr: `"name":"ann's"`, bobPr: `"name":"bob's"`, cyPr: `"total":0`}[pr]
		if !strings.Contains(rows, want) {
			t.Errorf("project %s reads %s; want %s", pr.Name, rows, want)
		}
	}
	// Ann deletes hers and imports the code again: her project reads the
	// new data, Bob's still his.
	if err := svc.Management.DeleteTable(ctx, ann.p, annTbl.ID); err != nil {
		t.Fatal(err)
	}
	if err := svc.Management.DeleteDataset(ctx, ann.p, "shared"); err != nil {
		t.Fatal(err)
	}
	if ds, _ := svc.Management.DataSourcesFor(ctx, ann.p); codes(ds) != "curated" {
		t.Errorf("after the deletion ann lists %q", codes(ds))
	}
	if _, err := upload(svc, ann.p, "shared", `{"id":1,"name":"ann's again"}`); err != nil {
		t.Fatalf("ann imports her deleted code again: %v", err)
	}
	annPr, _, _ = boundProject(t, svc, ann, "Ann's 2", "shared")
	want := map[*model.Project]string{annPr: `"name":"ann's again"`, bobPr: `"name":"bob's"`, cyPr: `"total":0`}
	check("after the re-import", want)
	nd.stop()
	nd = startNode(t, path, nil)
	svc = nd.svc
	check("after a restart", want)
}

// TestSampleDocumentsAreBounded: sampleDocuments shows documents up to
// 32 KB and 256 KB a call, whatever the limit; a bigger document is
// replaced by a note of its size (8 aliases of sampleDocuments(limit: 50)
// over 2 MB documents used to answer 219 MB).
func TestSampleDocumentsAreBounded(t *testing.T) {
	nd := startNode(t, "", nil)
	var b strings.Builder
	for i := range 20 {
		b.WriteString(`{"id":` + string(rune('0'+i%10)) + `,"blob":"` + strings.Repeat("x", 100<<10) + `"}` + "\n")
	}
	if _, err := upload(nd.svc, model.Principal{System: true}, "big", b.String()); err != nil {
		t.Fatal(err)
	}
	ds, err := nd.svc.MCP.DataSources(context.Background())
	if err != nil || len(ds) != 1 {
		t.Fatal(ds, err)
	}
	docs, total := ds[0].Samples.Sample(50), 0
	for _, d := range docs {
		total += len(d)
		if len(d) > 32<<10 || !strings.Contains(string(d), "_omitted") {
			t.Fatalf("a sample of %d bytes: %.100s", len(d), d)
		}
	}
	if len(docs) != 20 || total > 256<<10 {
		t.Fatalf("%d samples, %d bytes", len(docs), total)
	}
}
