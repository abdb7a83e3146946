package openapi

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/mockgql/mockgql/model"
)

// loadExport exports p in format and loads and validates the result with
// kin-openapi.
func loadExport(t *testing.T, p *model.Project, format string) *openapi3.T {
	t.Helper()
	b, err := Export(p, format, "")
	check(t, err)
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(b)
	if err != nil {
		t.Fatalf("load %s export: %v\n%s", format, err, b)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("validate %s export: %v\n%s", format, err, b)
	}
	return doc
}

// TestExportValidates exports JSON and YAML that kin-openapi validates, with
// the paths and schemas of the enabled operations.
func TestExportValidates(t *testing.T) {
	for _, format := range []string{"json", "yaml", ""} {
		t.Run(format, func(t *testing.T) {
			p := fixtureProject(t)
			doc := loadExport(t, p, format)
			if doc.OpenAPI != "3.1.0" || doc.Info.Version != strconv.FormatInt(p.Version, 10) || doc.Servers[0].URL != DefaultServer {
				t.Errorf("openapi %s, info.version %s, server %s", doc.OpenAPI, doc.Info.Version, doc.Servers[0].URL)
			}
			got := operations(doc)
			want := []string{
				"DELETE /products/{id} deleteProduct", "GET /categories categories", "GET /categories/{id} category",
				"GET /products products", "GET /products/-/searchProducts searchProducts", "GET /products/{id} product",
				"PATCH /categories/{id} updateCategory_patch", "PATCH /products/{id} updateProduct_patch",
				"POST /categories createCategory", "POST /products createProduct",
				"PUT /categories/{id} updateCategory", "PUT /products/{id} updateProduct",
			}
			if !slices.Equal(got, want) {
				t.Errorf("operations:\n got %q\nwant %q", got, want)
			}
			for _, name := range []string{"Product", "ProductPage", "ProductInput", "Category", "CategoryPage", "CategoryInput", errorSchema} {
				if doc.Components.Schemas[name] == nil {
					t.Errorf("no schema %s", name)
				}
			}
			search := doc.Paths.Value("/products/-/searchProducts").Get
			if names := parameterNames(search); !slices.Equal(names, []string{"page", "pageSize", "sortField", "sortDirection", "minPrice", "ids", "q"}) {
				t.Errorf("searchProducts parameters: %v", names)
			}
			product := doc.Components.Schemas["Product"].Value
			if product.Properties["label"] != nil || product.Properties["products"] != nil {
				t.Errorf("COMPUTED attribute or relation exported: %v", product.Properties)
			}
			if product.Properties["price"].Value.Type.Slice()[0] != "number" || !product.Properties["price"].Value.Type.IncludesNull() {
				t.Errorf("price: %v", product.Properties["price"].Value.Type)
			}
		})
	}
}

// operations lists "METHOD path operationId", sorted.
func operations(doc *openapi3.T) []string {
	var out []string
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			out = append(out, method+" "+path+" "+op.OperationID)
		}
	}
	slices.Sort(out)
	return out
}

func parameterNames(op *openapi3.Operation) []string {
	var out []string
	for _, p := range op.Parameters {
		out = append(out, p.Value.Name)
	}
	return out
}

// TestExportRoundTrip imports an export's table schemas: the same tables
// come back (COMPUTED attributes aside, which the export leaves out).
func TestExportRoundTrip(t *testing.T) {
	p := fixtureProject(t)
	for _, format := range []string{"json", "yaml"} {
		t.Run(format, func(t *testing.T) {
			b, err := Export(p, format, "https://api.example.com")
			check(t, err)
			checkSameTables(t, p, b)
		})
	}
}

// checkSameTables imports the table schemas of export b of p and checks
// that they give p's tables back (COMPUTED attributes aside).
func checkSameTables(t *testing.T, p *model.Project, b []byte) {
	t.Helper()
	var names []string
	for _, mt := range p.Tables {
		names = append(names, mt.Name)
	}
	tables, err := Import(b, names, ImportOptions{})
	check(t, err)
	for i, mt := range p.Tables {
		var want []model.Attribute
		for _, a := range mt.Attributes {
			if a.Mapping != model.MappingComputed {
				want = append(want, *a)
			}
		}
		if tables[i].Name != mt.Name || attrSet(tables[i].Attributes) != attrSet(want) {
			t.Errorf("%s: got %s %s\nwant %s", mt.Name, tables[i].Name, attrSet(tables[i].Attributes), attrSet(want))
		}
	}
}

// attrSet is attrText sorted by name: JSON objects have no order.
func attrSet(attrs []model.Attribute) string {
	s := strings.Fields(attrText(attrs))
	slices.Sort(s)
	return strings.Join(s, " ")
}

// TestExportDeterministic checks that two exports are the same bytes.
func TestExportDeterministic(t *testing.T) {
	for _, format := range []string{"json", "yaml"} {
		a, _ := Export(fixtureProject(t), format, "")
		b, _ := Export(fixtureProject(t), format, "")
		if string(a) != string(b) {
			t.Errorf("%s exports differ", format)
		}
	}
}

// TestExportEmptyAndRefused covers a project without tables and an
// unknown format.
func TestExportEmptyAndRefused(t *testing.T) {
	loadExport(t, &model.Project{ID: "p", Name: "Empty"}, "json")
	_, err := Export(&model.Project{ID: "p", Name: "x"}, "xml", "")
	wantCode(t, err, model.CodeBadUserInput, `format "xml"`)
}
