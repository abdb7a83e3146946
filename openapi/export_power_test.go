package openapi

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/mockgql/mockgql/model"
)

// powerProject is fixtureProject with every query option: products with
// relay, where and orderBy, searchProducts with where, an AGGREGATE
// operation productsAggregate and a disabled one.
func powerProject(t testing.TB) *model.Project {
	t.Helper()
	p := fixtureProject(t)
	for _, o := range p.Operations {
		switch o.Name {
		case "products":
			o.Options = &model.OperationOptions{Relay: true, Where: true, OrderBy: true}
		case "searchProducts":
			o.Options = &model.OperationOptions{Where: true}
		}
	}
	check(t, p.AddOperation(&model.Operation{ID: "o100", TableID: "t1", Name: "productsAggregate", Kind: model.OpAggregate, Enabled: true}))
	check(t, p.AddOperation(&model.Operation{ID: "o101", TableID: "t2", Name: "categoriesAggregate", Kind: model.OpAggregate}))
	return p
}

// TestExportPowerPaths checks the paths, parameters and schemas of the
// operations that opt in, and that the others and other tables gain none.
func TestExportPowerPaths(t *testing.T) {
	for _, format := range []string{"json", "yaml"} {
		t.Run(format, func(t *testing.T) {
			doc := loadExport(t, powerProject(t), format)
			ops := operations(doc)
			for _, want := range []string{"GET /products/-/productsConnection productsConnection", "GET /products/-/productsAggregate productsAggregate"} {
				if !slices.Contains(ops, want) {
					t.Errorf("no %q in %q", want, ops)
				}
			}
			if len(ops) != 14 || strings.Contains(strings.Join(ops, " "), "categoriesAggregate") || strings.Contains(strings.Join(ops, " "), "searchProductsConnection") {
				t.Errorf("operations: %q", ops)
			}
			params := map[string][]string{
				"/products":                      {"page", "pageSize", "sortField", "sortDirection", "where", "orderBy"},
				"/products/-/searchProducts":     {"page", "pageSize", "sortField", "sortDirection", "minPrice", "ids", "q", "where"},
				"/products/-/productsConnection": {"first", "last", "after", "before", "sortField", "sortDirection", "where", "orderBy"},
				"/products/-/productsAggregate":  {"where", "groupBy"},
				"/categories":                    {"page", "pageSize", "sortField", "sortDirection"},
			}
			for path, want := range params {
				if got := parameterNames(doc.Paths.Value(path).Get); !slices.Equal(got, want) {
					t.Errorf("%s parameters %v, want %v", path, got, want)
				}
			}
			for _, name := range []string{"FilterOperators", "ProductWhere", "PageInfo", "ProductConnection", "ProductEdge", "ProductAggregate", "ProductNumbers", "ProductGroup"} {
				if doc.Components.Schemas[name] == nil {
					t.Errorf("no schema %s", name)
				}
			}
			for _, name := range []string{"CategoryWhere", "CategoryAggregate", "CategoryConnection"} {
				if doc.Components.Schemas[name] != nil {
					t.Errorf("schema %s of an operation that does not opt in", name)
				}
			}
			where := doc.Components.Schemas["ProductWhere"].Value
			for _, name := range []string{"and", "or", "not", "id", "name", "price", "currency"} {
				if where.Properties[name] == nil {
					t.Errorf("ProductWhere lacks %s", name)
				}
			}
			if where.Properties["label"] != nil {
				t.Error("ProductWhere filters the COMPUTED attribute label")
			}
			order := doc.Paths.Value("/products").Get.Parameters.GetByInAndName("query", "orderBy").Schema.Value.Items.Value
			if !slices.Equal(order.Enum, []any{"id", "-id", "name", "-name", "price", "-price"}) {
				t.Errorf("orderBy fields (the SOURCE-mapped attributes): %v", order.Enum)
			}
			if nums := doc.Components.Schemas["ProductNumbers"].Value.Properties; len(nums) != 2 || nums["price"] == nil || nums["stock"] == nil {
				t.Errorf("ProductNumbers: %v", nums)
			}
		})
	}
}

// TestExportPowerRequests checks, with kin-openapi's request validator,
// that the query strings docs/using/import-export.md shows are what the document
// describes, and that malformed ones are not.
func TestExportPowerRequests(t *testing.T) {
	doc := loadExport(t, powerProject(t), "json")
	router, err := legacy.NewRouter(doc)
	check(t, err)
	where := url.QueryEscape(`{"or":[{"price":{"gte":10,"lt":100}},{"name":{"like":"lamp"}}],"not":{"id":{"in":["3","4"]}},"stock":{"isNull":false}}`)
	for _, c := range []struct {
		name, query string
		ok          bool
	}{
		{"list where orderBy", "/products?where=" + where + "&orderBy=price,-name", true},
		{"list where nin eq null", "/products?where=" + url.QueryEscape(`{"and":[{"active":{"eq":null}},{"name":{"nin":["a"]}}]}`), true},
		{"connection", "/products/-/productsConnection?first=10&after=cm93OjQy&orderBy=-price&where=" + where, true},
		{"aggregate", "/products/-/productsAggregate?groupBy=categoryId,active&where=" + where, true},
		{"unknown where field", "/products?where=" + url.QueryEscape(`{"colour":{"eq":"red"}}`), false},
		{"unknown operator", "/products?where=" + url.QueryEscape(`{"price":{"between":[1,2]}}`), false},
		{"where not JSON", "/products?where=price>3", false},
		{"orderBy unknown field", "/products?orderBy=stock", false},
		{"orderBy five keys", "/products?orderBy=id,name,price,-id,-name", false},
		{"groupBy unknown field", "/products/-/productsAggregate?groupBy=colour", false},
		{"negative first", "/products/-/productsConnection?first=-1", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, DefaultServer+c.query, nil)
			check(t, err)
			route, pathParams, err := router.FindRoute(req)
			check(t, err)
			err = openapi3filter.ValidateRequest(context.Background(), &openapi3filter.RequestValidationInput{
				Request: req, PathParams: pathParams, Route: route, Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}})
			if (err == nil) != c.ok {
				t.Errorf("%s: err = %v, want ok %v", c.query, err, c.ok)
			}
		})
	}
}

// TestExportPowerRoundTrip imports a power export: every schema reads
// without error (the query schemas import as tables of their own when
// selected), and the table schemas give back the same tables.
func TestExportPowerRoundTrip(t *testing.T) {
	p := powerProject(t)
	for _, format := range []string{"json", "yaml"} {
		t.Run(format, func(t *testing.T) {
			b, err := Export(p, format, "")
			check(t, err)
			all, err := Import(b, nil, ImportOptions{})
			check(t, err)
			var names []string
			for _, tb := range all {
				names = append(names, tb.Schema)
			}
			if !slices.Contains(names, "ProductWhere") || !slices.Contains(names, "Product") {
				t.Errorf("imported schemas %v", names)
			}
			checkSameTables(t, p, b)
		})
	}
}

// TestExportPowerParameterClash leaves out where and orderBy when a
// parameter of the operation has the name, so the document stays valid.
func TestExportPowerParameterClash(t *testing.T) {
	p := powerProject(t)
	for _, o := range p.Operations {
		if o.Name == "searchProducts" {
			o.Parameters = append(o.Parameters, model.Parameter{Name: "where", Attribute: "name", Operator: model.OpEq})
			o.Options.OrderBy = true
		}
	}
	doc := loadExport(t, p, "json")
	got := parameterNames(doc.Paths.Value("/products/-/searchProducts").Get)
	if !slices.Equal(got, []string{"page", "pageSize", "sortField", "sortDirection", "minPrice", "ids", "q", "where", "orderBy"}) {
		t.Errorf("parameters %v", got)
	}
}
