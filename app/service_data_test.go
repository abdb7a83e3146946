package app_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/model"
)

func TestDatasets(t *testing.T) {
	nd := startNode(t, "", nil)
	svc := nd.svc
	ctx := context.Background()
	tm := newTeam(t, nd, "data")
	imp := func(code, format, body string) model.DatasetImport {
		return model.DatasetImport{ImportCode: code, Format: format, Body: strings.NewReader(body)}
	}

	t.Run("formats", func(t *testing.T) {
		tests := []struct {
			in       model.DatasetImport
			paths    []string
			count    int
			variants []model.DataSourceVariant
		}{
			{imp("j", "json", productsJSON), []string{"category", "id", "name", "price"}, 3, []model.DataSourceVariant{}},
			{imp("n", "NDJSON", `{"a":1,"b":{"c":"x"}}`+"\n"+`{"a":2}`), []string{"a", "b.c"}, 2, []model.DataSourceVariant{}},
			{imp("c", "csv", "name,kind\nrex,dog\ntom,cat\nfido,dog\n"), []string{"kind", "name"}, 3, []model.DataSourceVariant{}},
		}
		for _, tt := range tests {
			t.Run(tt.in.ImportCode, func(t *testing.T) {
				ds, err := svc.Datasets.ImportDataset(ctx, systemPrincipal, tt.in)
				if err != nil {
					t.Fatal(err)
				}
				paths := append([]string(nil), ds.FieldPaths...)
				slices.Sort(paths)
				if ds.ImportCode != tt.in.ImportCode || ds.RecordCount != tt.count || !reflect.DeepEqual(paths, tt.paths) ||
					!reflect.DeepEqual(ds.Variants, tt.variants) || ds.Name != tt.in.ImportCode {
					t.Errorf("data source = %+v", ds)
				}
				if got := ds.Samples.Sample(10); len(got) != tt.count {
					t.Errorf("samples = %q", got)
				}
			})
		}
	})
	t.Run("variants", func(t *testing.T) {
		in := imp("pets", "csv", "name,kind\nrex,dog\ntom,cat\nfido,dog\n")
		in.VariantField, in.Name = "kind", "Pets"
		ds, err := svc.Datasets.ImportDataset(ctx, systemPrincipal, in)
		if err != nil {
			t.Fatal(err)
		}
		want := []model.DataSourceVariant{{Name: "dog", RecordCount: 2}, {Name: "cat", RecordCount: 1}}
		byName := func(a, b model.DataSourceVariant) int { return strings.Compare(a.Name, b.Name) }
		slices.SortFunc(ds.Variants, byName)
		slices.SortFunc(want, byName)
		if ds.Name != "Pets" || !reflect.DeepEqual(ds.Variants, want) {
			t.Errorf("data source = %+v", ds)
		}
	})
	t.Run("list", func(t *testing.T) {
		list, err := svc.MCP.DataSources(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var codes []string
		for _, ds := range list {
			codes = append(codes, ds.ImportCode)
		}
		if want := []string{"c", "j", "n", "pets"}; !reflect.DeepEqual(codes, want) {
			t.Errorf("codes = %q, want %q", codes, want)
		}
	})
	t.Run("who may import", func(t *testing.T) {
		tests := []struct {
			name string
			p    model.Principal
			code model.Code
		}{
			{"anonymous", model.Principal{}, model.CodeUnauthenticated},
			{"session", model.Principal{SessionID: "s"}, model.CodeUnauthenticated},
			{"viewer", tm.viewer, model.CodeForbidden},
			{"API key", model.Principal{AccountID: tm.owner.acc.ID, KeyProjectID: "p", KeyScope: model.ScopeFull}, model.CodeForbidden},
			{"editor", tm.editor, ""},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := svc.Datasets.ImportDataset(ctx, tt.p, imp("by-"+strings.ReplaceAll(tt.name, " ", "-"), "json", `[{"a":1}]`))
				if tt.code == "" {
					if err != nil {
						t.Fatal(err)
					}
					return
				}
				wantCode(t, err, tt.code)
			})
		}
	})
	t.Run("refusals leave nothing behind", func(t *testing.T) {
		tests := []struct {
			name string
			in   model.DatasetImport
			code model.Code
		}{
			{"taken code", imp("j", "json", `[{"a":1}]`), model.CodeConflict},
			{"unknown format", imp("x1", "xml", `<a/>`), model.CodeBadUserInput},
			{"malformed JSON", imp("x2", "json", `[{"a":1},{"a":}]`), model.CodeBadUserInput},
			{"empty", imp("x3", "json", `[]`), model.CodeBadUserInput},
			{"bad import code", imp("no spaces allowed", "json", `[{"a":1}]`), model.CodeBadUserInput},
			{"too large", model.DatasetImport{ImportCode: "x4", Format: "json", Body: strings.NewReader(productsJSON), MaxBytes: 10}, model.CodePayloadTooLarge},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := svc.Datasets.ImportDataset(ctx, systemPrincipal, tt.in)
				wantCode(t, err, tt.code)
				n := 0
				if err := nd.db.Scan("datablob", tt.in.ImportCode+"/", func(string, []byte) error { n++; return nil }); err != nil {
					t.Fatal(err)
				}
				if tt.code != model.CodeConflict && n != 0 {
					t.Errorf("%d blob chunks left behind", n)
				}
			})
		}
		// The editor's upload is the team's own; the curated pool has the rest.
		list, err := svc.Management.DataSourcesFor(ctx, tm.editor)
		if err != nil || len(list) != 5 {
			t.Errorf("data pool after refusals: %d sources, %v", len(list), err)
		}
		if curated, err := svc.MCP.DataSources(ctx); err != nil || len(curated) != 4 {
			t.Errorf("curated pool after refusals: %d sources, %v", len(curated), err)
		}
		// The first j is intact.
		i := slices.IndexFunc(list, func(ds model.DataSource) bool { return ds.ImportCode == "j" })
		if i < 0 || list[i].RecordCount != 3 {
			t.Errorf("j after a refused re-import: %+v", list)
		}
	})
	t.Run("a table bound to a variant", func(t *testing.T) {
		if _, err := svc.Management.SetPlan(ctx, tm.owner.p, model.PlanProfessional); err != nil {
			t.Fatal(err)
		}
		pr, err := svc.Management.CreateProject(ctx, tm.owner.p, "Pets", "pets")
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := svc.Management.CreateTable(ctx, tm.owner.p, pr.ID, "Product", &model.TableSource{ImportCode: "pets", Variant: ptr("dog")})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Management.CreateAttribute(ctx, tm.owner.p, model.Attribute{TableID: tbl.ID, Name: "name", Type: model.TypeString, Mapping: model.MappingSource, SourcePath: "name"}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Management.GenerateDefaultOperations(ctx, tm.owner.p, pr.ID, ""); err != nil {
			t.Fatal(err)
		}
		k, err := svc.Management.CreateAPIKey(ctx, tm.owner.p, pr.ID, "k", model.ScopeRuntime, time.Time{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := productNames(t, svc, "pets", k.Value, ""); !reflect.DeepEqual(got, []string{"rex", "fido"}) {
			t.Errorf("dogs = %q", got)
		}
	})
}
