package actors_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/model"
)

// upload imports a small NDJSON dataset as p.
func upload(svc *actors.Service, p model.Principal, code, body string) (model.DataSource, error) {
	return svc.ImportDataset(context.Background(), p, model.DatasetImport{ImportCode: code, Format: "ndjson", Body: strings.NewReader(body)})
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
		ds, err := svc.DataSourcesFor(ctx, tc.p)
		if err != nil || codes(ds) != tc.want {
			t.Errorf("%s sees %q (%v), want %q", who, codes(ds), err, tc.want)
		}
	}
	if ds, _ := svc.DataSources(ctx); codes(ds) != "demo" {
		t.Errorf("the public list: %q", codes(ds))
	}
	// Ann's project and Bob's bind a table to Ann's code: only Ann's
	// reads its rows.
	bound := func(a account, name string) (*model.Project, *model.Table, string) {
		t.Helper()
		pr, err := svc.CreateProject(ctx, a.p, name, "")
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := svc.CreateTable(ctx, a.p, pr.ID, "Row", &model.TableSource{ImportCode: "secret"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.CreateAttribute(ctx, a.p, model.Attribute{TableID: tbl.ID, Name: "name", Type: model.TypeString,
			Mapping: model.MappingSource, SourcePath: "name"}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.GenerateDefaultOperations(ctx, a.p, pr.ID, ""); err != nil {
			t.Fatal(err)
		}
		res, err := svc.Runtime(ctx, model.RuntimeRequest{Slug: pr.Slug, Body: []byte(`{"query":"{ rows { total items { name } } }"}`), Internal: true, ProjectID: pr.ID})
		if err != nil {
			t.Fatal(err)
		}
		return pr, tbl, string(res.Body)
	}
	_, annTbl, annRows := bound(ann, "Ann's")
	_, _, bobRows := bound(bob, "Bob's")
	if !strings.Contains(annRows, `"name":"ann's"`) {
		t.Fatalf("ann's project over her dataset: %s", annRows)
	}
	if strings.Contains(bobRows, "ann's") || !strings.Contains(bobRows, `"total":0`) {
		t.Fatalf("bob's project over ann's dataset: %s; want no rows", bobRows)
	}
	if err := svc.DeleteDataset(ctx, bob.p, "secret"); model.ErrorCode(err) != model.ErrNotFound {
		t.Errorf("bob deletes ann's dataset: %v", err)
	}
	if err := svc.DeleteDataset(ctx, ann.p, "demo"); model.ErrorCode(err) != model.ErrForbidden {
		t.Errorf("ann deletes a curated dataset: %v", err)
	}
	err := svc.DeleteDataset(ctx, ann.p, "secret")
	if model.ErrorCode(err) != model.ErrConflict || !strings.Contains(err.Error(), "Ann's.Row") {
		t.Fatalf("deleting a bound dataset: %v; want CONFLICT naming Ann's.Row", err)
	}
	if err := svc.DeleteTable(ctx, ann.p, annTbl.ID); err != nil {
		t.Fatal(err)
	}
	if err := svc.DeleteDataset(ctx, ann.p, "secret"); err != nil {
		t.Fatalf("deleting an unbound dataset: %v", err)
	}
	if ds, _ := svc.DataSourcesFor(ctx, ann.p); codes(ds) != "demo" {
		t.Errorf("after the deletion ann sees %q", codes(ds))
	}
	if _, err := upload(svc, ann.p, "secret", `{"id":2}`); model.ErrorCode(err) != model.ErrConflict {
		t.Errorf("a deleted code given out again: %v", err)
	}
	// STARTER holds 10 datasets of its own (the deleted one no longer counts).
	for i := range 11 {
		_, err := upload(svc, ann.p, fmt.Sprintf("a%d", i), `{"id":1}`)
		if i < 10 && err != nil || i == 10 && model.ErrorCode(err) != model.ErrLimitReached {
			t.Fatalf("dataset %d on STARTER: %v", i+1, err)
		}
	}
	// A curator's upload is curated: everyone sees it.
	carol := signUp(t, svc, "carol@example.com")
	if _, err := upload(svc, carol.p, "curated", `{"id":1}`); err != nil {
		t.Fatal(err)
	}
	if ds, _ := svc.DataSources(ctx); codes(ds) != "curated,demo" {
		t.Errorf("after a curator's upload the public list is %q", codes(ds))
	}
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
	ds, err := nd.svc.DataSources(context.Background())
	if err != nil || len(ds) != 1 {
		t.Fatal(ds, err)
	}
	docs, total := ds[0].Samples(50), 0
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
