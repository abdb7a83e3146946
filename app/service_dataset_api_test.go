package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// TestCreateAPIFromDataset: one call makes a bound table with an attribute
// per path (types inferred), its default operations and views, which serve
// rows at once; a refusal at any step leaves the project as it was.
func TestCreateAPIFromDataset(t *testing.T) {
	nd := startNode(t, "", nil)
	svc, ctx := nd.svc, context.Background()
	tm := newTeam(t, nd, "oneStep")
	importProducts(t, svc, "products")
	pr, err := svc.Management.CreateProject(ctx, tm.owner.p, "Shop", "")
	if err != nil {
		t.Fatal(err)
	}
	tables := func() int {
		t.Helper()
		got, err := svc.Management.Project(ctx, tm.owner.p, pr.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		return len(got.Tables)
	}
	in := model.DatasetAPIInput{ProjectID: pr.ID, ImportCode: "products"}

	t.Run("refusals leave nothing", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			p    model.Principal
			in   model.DatasetAPIInput
			code model.Code
		}{
			{"viewer", tm.viewer, in, model.CodeForbidden},
			{"unknown dataset", tm.editor, model.DatasetAPIInput{ProjectID: pr.ID, ImportCode: "nope"}, model.CodeNotFound},
			{"unknown path", tm.editor, model.DatasetAPIInput{ProjectID: pr.ID, ImportCode: "products", Fields: []model.FieldChoice{{Path: "nope"}}}, model.CodeBadUserInput},
			{"bad name mid-way", tm.editor, model.DatasetAPIInput{ProjectID: pr.ID, ImportCode: "products",
				Fields: []model.FieldChoice{{Path: "id"}, {Path: "name", Name: "not a name"}}}, model.CodeBadUserInput},
			{"same name twice", tm.editor, model.DatasetAPIInput{ProjectID: pr.ID, ImportCode: "products",
				Fields: []model.FieldChoice{{Path: "id"}, {Path: "name", Name: "id"}}}, model.CodeConflict},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, _, err := svc.Management.CreateAPIFromDataset(ctx, tc.p, tc.in)
				wantCode(t, err, tc.code)
				if n := tables(); n != 0 {
					t.Fatalf("%d tables left behind", n)
				}
			})
		}
	})

	t.Run("made", func(t *testing.T) {
		tbl, ops, err := svc.Management.CreateAPIFromDataset(ctx, tm.editor, in)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, a := range tbl.Attributes {
			got = append(got, a.Name+":"+string(a.Type)+":"+a.SourcePath)
		}
		if tbl.Name != "Product" || strings.Join(got, " ") != "id:ID:id name:STRING:name price:FLOAT:price category:STRING:category" {
			t.Fatalf("table %s: %v", tbl.Name, got)
		}
		if len(ops) != 5 || ops[0].Name != "products" {
			t.Fatalf("operations: %d, first %+v", len(ops), ops[0])
		}
		res, err := svc.Management.PreviewQuery(ctx, tm.editor, pr.ID, "", []byte(`{"query":"{ products { total items { id price } } }"}`))
		if err != nil || !strings.Contains(string(res.Body), `"total":3`) || !strings.Contains(string(res.Body), `"price":999.5`) {
			t.Fatalf("rows: %v %s", err, res.Body)
		}
		_, _, err = svc.Management.CreateAPIFromDataset(ctx, tm.editor, in)
		wantCode(t, err, model.CodeConflict)
		if n := tables(); n != 1 {
			t.Fatalf("tables after a name clash: %d", n)
		}
	})

	t.Run("add all fields", func(t *testing.T) {
		tbl, err := svc.Management.CreateTable(ctx, tm.editor, pr.ID, "Item", &model.TableSource{ImportCode: "products"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Management.CreateAttributesFromDataset(ctx, tm.editor, tbl.ID, []model.FieldChoice{{Path: "id"}, {Path: "id"}}); err == nil {
			t.Fatal("a path chosen twice was accepted")
		}
		if _, err := svc.Management.CreateAttributesFromDataset(ctx, tm.editor, tbl.ID, []model.FieldChoice{{Path: "name", Name: "label"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Management.CreateAttributesFromDataset(ctx, tm.editor, tbl.ID, []model.FieldChoice{{Path: "category", Name: "price"}}); err != nil {
			t.Fatal(err)
		}
		as, err := svc.Management.CreateAttributesFromDataset(ctx, tm.editor, tbl.ID, nil) // the paths not read yet, names kept apart
		if err != nil || len(as) != 2 || as[0].Name != "id" || as[1].Name != "price2" || as[1].SourcePath != "price" {
			t.Fatalf("all fields: %v %+v", err, as)
		}
		_, err = svc.Management.CreateAttributesFromDataset(ctx, tm.editor, tbl.ID, nil)
		wantCode(t, err, model.CodeBadUserInput)
		unbound, err := svc.Management.CreateTable(ctx, tm.editor, pr.ID, "Loose", nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = svc.Management.CreateAttributesFromDataset(ctx, tm.editor, unbound.ID, nil)
		wantCode(t, err, model.CodeBadUserInput)
	})
}
