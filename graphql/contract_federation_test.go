package graphql

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/model"
)

// TestFederationSubgraph: a Federation 2 subgraph (extend schema @link,
// @key with one and two fields, @shareable, @external, @requires,
// @provides, @tag, @inaccessible, @override) imports without defining the
// directives, answers _service { sdl } with its own document and
// _entities by each @key, in the order asked, null for a key no row has —
// as a router expects of a subgraph (issue 29 item 1).
func TestFederationSubgraph(t *testing.T) {
	h := newContractHarness(t, "testdata/federation/products.graphql")
	raw, err := os.ReadFile("testdata/federation/products.graphql")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	if got := fmt.Sprint(h.do(`{ _service { sdl } }`, nil)); !strings.Contains(got, `@key(fields: "sku package")`) || strings.Contains(got, "directive @key") {
		t.Fatalf("_service.sdl is not the subgraph's own document: %.300s", got)
	}
	if sdl := jsonAt(h.do(`{ _service { sdl } }`, nil), "data._service.sdl"); sdl != doc {
		t.Errorf("_service.sdl differs from the imported document")
	}
	list := jsonAt(h.do(`{ topProducts(first: 3) { id sku package name } }`, nil), "data.topProducts").([]any)
	if len(list) != 3 {
		t.Fatalf("topProducts: %v", list)
	}
	a, b := list[0].(map[string]any), list[2].(map[string]any)
	reps := []any{
		map[string]any{"__typename": "Product", "id": b["id"]},
		map[string]any{"__typename": "Product", "sku": a["sku"], "package": a["package"]},
		map[string]any{"__typename": "Product", "id": "no-such-product"},
		map[string]any{"__typename": "Review", "id": "review-2"},
	}
	q := `query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Product { id name } ... on Review { id body } } }`
	out := h.do(q, map[string]any{"r": reps})
	if out["errors"] != nil {
		t.Fatalf("_entities: %v", out)
	}
	got := jsonAt(out, "data._entities").([]any)
	if len(got) != 4 || jsonAt(got[0], "id") != b["id"] || jsonAt(got[1], "id") != a["id"] || jsonAt(got[1], "name") != a["name"] ||
		got[2] != nil || jsonAt(got[3], "__typename") != "Review" || jsonAt(got[3], "id") != "review-2" {
		t.Errorf("_entities answered %v for %v", got, reps)
	}

	for _, bad := range []struct{ rep, says string }{
		{`{"__typename": "PageInfo", "id": "x"}`, "not an entity"},
		{`{"__typename": "Product", "name": "x"}`, "none of Product's @key field sets"},
	} {
		var rep any
		if err := json.Unmarshal([]byte(bad.rep), &rep); err != nil {
			t.Fatal(err)
		}
		out := h.do(q, map[string]any{"r": []any{rep}})
		if !strings.Contains(fmt.Sprint(out["errors"]), bad.says) {
			t.Errorf("_entities(%s): %v, want an error saying %q", bad.rep, out, bad.says)
		}
	}

	// The router's composition reads the directives from the SDL; the
	// runtime's introspection lists their definitions too.
	dirs := fmt.Sprint(h.do(`{ __schema { directives { name } } }`, nil))
	for _, d := range []string{"key", "link", "shareable", "external", "requires", "provides", "tag", "inaccessible", "override"} {
		if !strings.Contains(dirs, "name:"+d+"]") {
			t.Errorf("introspection lacks @%s: %s", d, dirs)
		}
	}
}

// TestFederationOneSubgraph: a Federation 1 subgraph that extends types
// it does not define (Query, Product) imports, serves its own list and
// resolves entities by a String key.
func TestFederationOneSubgraph(t *testing.T) {
	h := newContractHarness(t, "testdata/federation/inventory-v1.graphql")
	ws := jsonAt(h.do(`{ warehouses { code city } }`, nil), "data.warehouses").([]any)
	if len(ws) == 0 {
		t.Fatal("no warehouses")
	}
	code := jsonAt(ws[0], "code")
	out := h.do(`query($r: [_Any!]!) { _entities(representations: $r) { ... on Warehouse { code city } } }`,
		map[string]any{"r": []any{map[string]any{"__typename": "Warehouse", "code": code}}})
	if got := jsonAt(out, "data._entities").([]any); len(got) != 1 || jsonAt(got[0], "code") != code {
		t.Errorf("_entities by a String key: %v", out)
	}
}

// TestFederationParse: documents that define the federation directives
// themselves (as rover prints a subgraph) or use none parse as before;
// a subgraph's line numbers stay its own.
func TestFederationParse(t *testing.T) {
	printed := `directive @key(fields: _FieldSet!) repeatable on OBJECT | INTERFACE
scalar _FieldSet
scalar _Any
type _Service { sdl: String }
union _Entity = Book
type Query { _service: _Service! _entities(representations: [_Any!]!): [_Entity]! books: [Book!]! }
type Book @key(fields: "id") { id: ID! title: String }
`
	s, err := contract.Parse([]byte(printed), contract.MaxDocumentBytes)
	if err != nil {
		t.Fatalf("a subgraph printed with its federation definitions: %v", err)
	}
	p := contract.Interpret(s)
	shapes := map[string]contract.Shape{}
	for _, q := range p.Queries {
		shapes[q.Name] = q.Shape
	}
	if shapes["_service"] != contract.ShapeService || shapes["_entities"] != contract.ShapeEntities || shapes["books"] != contract.ShapeList {
		t.Errorf("shapes: %v", shapes)
	}
	_, err = contract.Parse([]byte("extend schema @link(url: \"https://specs.apollo.dev/federation/v2.3\", import: [\"@key\"])\ntype Query {\n  a: Int\n  b: Nope\n}\n"), contract.MaxDocumentBytes)
	if err == nil || !strings.Contains(err.Error(), "line 4") {
		t.Errorf("an error in a subgraph is not placed on its own line: %v", err)
	}
}

// TestContractDirectivesIntrospected: every directive the document
// defines is in the runtime's introspection, @defer and @stream included
// (Shopify's Storefront schema defines them); a deferred fragment is
// answered in the complete result. A schema that does not define @defer
// does not advertise the prelude's.
func TestContractDirectivesIntrospected(t *testing.T) {
	h := newContractHarness(t, "testdata/conventions/directives.graphql")
	dirs := fmt.Sprint(h.do(`{ __schema { directives { name } } }`, nil))
	for _, d := range []string{"defer", "stream", "inContext", "custom"} {
		if !strings.Contains(dirs, "name:"+d+"]") {
			t.Errorf("introspection lacks @%s: %s", d, dirs)
		}
	}
	if got := fmt.Sprint(jsonAt(h.do(`{ books { id ... @defer(label: "more") { title } } }`, nil), "data.books.0")); !strings.Contains(got, "title:") {
		t.Errorf("a deferred fragment is not in the complete result: %s", got)
	}
	other := newContractHarness(t, "testdata/federation/products.graphql")
	if dirs := fmt.Sprint(other.do(`{ __schema { directives { name } } }`, nil)); strings.Contains(dirs, "name:defer]") {
		t.Errorf("a schema without @defer advertises the prelude's: %s", dirs)
	}
}

// TestShopifyStorefront: Shopify's Storefront API (an introspection
// result, contract/testdata) imports, answers a storefront's product
// query with rows of the query's shape, finds a product by the id a list
// gave, and lists the @defer it defines.
func TestShopifyStorefront(t *testing.T) {
	raw, err := os.ReadFile("../contract/testdata/shopify-storefront.introspection.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	z, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	p := &model.Project{ID: "pshopify1", Slug: "shopify", Name: "shopify", Kind: model.KindAccount}
	if _, err := contract.Apply(p, doc, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	h := &rtHarness{tb: t, rt: rtCompile(t, p, Options{}), pool: memPool{}, ov: engine.NewOverlay()}
	out := h.do(`{ products(first: 3) { edges { cursor node { id title handle vendor priceRange { minVariantPrice { amount currencyCode } } } } pageInfo { hasNextPage endCursor } } }`, nil)
	if out["errors"] != nil {
		t.Fatalf("products: %v", out["errors"])
	}
	edges, _ := jsonAt(out, "data.products.edges").([]any)
	if len(edges) != 3 || jsonAt(edges[0], "node.id") == nil || jsonAt(edges[0], "node.priceRange.minVariantPrice.amount") == nil {
		t.Fatalf("products(first: 3): %v", out)
	}
	id := jsonAt(edges[1], "node.id")
	one := h.do(`query($id: ID!) { product(id: $id) { id title } }`, map[string]any{"id": id})
	if jsonAt(one, "data.product.id") != id || jsonAt(one, "data.product.title") != jsonAt(edges[1], "node.title") {
		t.Errorf("product(id: %v): %v", id, one)
	}
	if dirs := fmt.Sprint(h.do(`{ __schema { directives { name } } }`, nil)); !strings.Contains(dirs, "name:defer]") || !strings.Contains(dirs, "name:inContext]") {
		t.Errorf("the Storefront API's directives: %s", dirs)
	}

	// A storefront's screen: values by meaning, no Latin, pictures mockgql
	// serves, handles that are slugs, option names a shop uses.
	screen := h.do(`{ products(first: 5) { edges { node { title handle vendor productType description tags
	  featuredImage { url altText } options { name values } variants(first: 2) { edges { node { title sku image { url } } } } } } }
	  collections(first: 3) { edges { node { title handle description } } } }`, nil)
	if screen["errors"] != nil {
		t.Fatal(screen["errors"])
	}
	b, _ := json.Marshal(screen["data"])
	if m := latinWords.FindAllString(string(b), 10); len(m) > 0 {
		t.Errorf("Latin placeholder words on a storefront: %v", m)
	}
	slug := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	for _, e := range jsonAt(screen, "data.products.edges").([]any) {
		n := e.(map[string]any)["node"].(map[string]any)
		if u, _ := jsonAt(n, "featuredImage.url").(string); !strings.HasPrefix(u, "/img/") {
			t.Errorf("a product's featuredImage.url %q is not a picture mockgql serves", u)
		}
		if h, _ := n["handle"].(string); !slug.MatchString(h) {
			t.Errorf("a product's handle %q is not a slug", h)
		}
		for _, o := range n["options"].([]any) {
			if name := jsonAt(o, "name"); !slices.Contains([]any{"Size", "Color", "Material", "Style"}, name) {
				t.Errorf("an option named %v", name)
			}
		}
	}
}
