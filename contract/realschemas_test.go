package contract

import (
	"compress/gzip"
	"io"
	"os"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// gunzip returns the contents of the gzipped test file name.
func gunzip(t testing.TB, name string) []byte {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRealSchemasWithinBounds (issue 31 with issue 29): the import's
// byte, structural and row-value bounds admit Saleor's schema, and
// Shopify's Storefront API imports whole — an introspection result that
// defines @defer — within every bound, its directives kept.
func TestRealSchemasWithinBounds(t *testing.T) {
	t.Run("saleor", func(t *testing.T) {
		s, err := Parse(gunzip(t, "testdata/saleor.graphql.gz"), MaxDocumentBytes)
		if err != nil {
			t.Fatalf("Saleor's schema: %v", err)
		}
		plan := Interpret(s)
		if err := plan.CheckCells((&model.Contract{}).GeneratedRows); err != nil {
			t.Fatalf("Saleor's schema over a row-value bound: %v", err)
		}
		if len(plan.Entities) < 50 {
			t.Fatalf("%d entities: not Saleor's schema", len(plan.Entities))
		}
	})
	t.Run("shopify storefront", func(t *testing.T) {
		s, err := Parse(gunzip(t, "testdata/shopify-storefront.introspection.json.gz"), MaxDocumentBytes)
		if err != nil {
			t.Fatalf("Shopify's Storefront API: %v", err)
		}
		if s.AST.Directives["defer"] == nil || s.AST.Directives["defer"].Position.Src.BuiltIn {
			t.Errorf("the Storefront API's own @defer is not in the schema")
		}
		plan := Interpret(s)
		if err := plan.CheckCells((&model.Contract{}).GeneratedRows); err != nil {
			t.Fatalf("over a row-value bound: %v", err)
		}
		shapes := map[string]Shape{}
		for _, q := range plan.Queries {
			shapes[q.Name] = q.Shape
		}
		if shapes["products"] != ShapeConnection || shapes["product"] != ShapeLookup {
			t.Errorf("products %q, product %q", shapes["products"], shapes["product"])
		}
	})
}
