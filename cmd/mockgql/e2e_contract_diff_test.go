package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// flatProductsJSON and flatCategoriesJSON are datasets whose field paths
// are the field names, so a contract type bound to them by name reads what
// a table project's SOURCE attributes read.
const (
	flatProductsJSON = `[
 {"id": 1, "name": "Desk", "price": 120.5, "stock": 9, "categoryId": 1},
 {"id": 2, "name": "Chair", "price": 45, "stock": 12, "categoryId": 1},
 {"id": 3, "name": "Lamp", "price": 19.99, "stock": 100, "categoryId": 2},
 {"id": 4, "name": "Bulb", "price": 3.5, "stock": 0, "categoryId": 2},
 {"id": 5, "name": "Shelf", "price": 80, "stock": 4, "categoryId": 1},
 {"id": 6, "name": "Desk lamp", "price": 35, "stock": 7, "categoryId": 2}]`
	flatCategoriesJSON = `[{"id": 1, "title": "Office"}, {"id": 2, "title": "Lighting"}, {"id": 3, "title": "Empty"}]`
)

// TestContractDifferential builds a table project over two datasets
// through the management API, imports its runtime schema (Project.sdl)
// into a second project as a contract bound to the same datasets, and
// requires the same answers from both runtimes for list queries (paging,
// sorting, parameters, relations both ways) and lookups.
func TestContractDifferential(t *testing.T) {
	s := startServer(t)
	u := s.signUp("contract-diff@example.com")
	u.must(`mutation { setPlan(plan: PROFESSIONAL) { plan } }`, nil)
	u.importVia("dprod", "json", flatProductsJSON, "").data(t)
	u.importVia("dcat", "json", flatCategoriesJSON, "").data(t)

	tables := u.tableProject(t, "Tables")
	sdl := get(u.must(`query($id:ID){ project(id:$id) { sdl } }`, map[string]any{"id": tables.id}), "project", "sdl").(string)
	contract := newContractProjectFor(t, u, "Contract", sdl)
	sg := u.must(`query($p:ID!){ contractDatasetSuggestions(projectId:$p, type:"Product") { dataSource { importCode } matchedFields missingFields } }`,
		map[string]any{"p": contract.id})
	if got := fmt.Sprint(get(sg, "contractDatasetSuggestions", 0)); got != "map[dataSource:map[importCode:dprod] matchedFields:[name price stock categoryId] missingFields:[]]" {
		t.Errorf("suggestions for Product: %v", sg)
	}
	if r := u.gql(`mutation($p:ID!){ bindContractTable(projectId:$p, type:"Product", importCode:"nope") { id } }`, map[string]any{"p": contract.id}); r.errCode() != "NOT_FOUND" {
		t.Errorf("binding to no dataset: %s", r.Raw)
	}
	for typ, code := range map[string]string{"Product": "dprod", "Category": "dcat"} {
		u.must(`mutation($p:ID!,$t:String!,$c:String){ bindContractTable(projectId:$p, type:$t, importCode:$c) { id } }`,
			map[string]any{"p": contract.id, "t": typ, "c": code})
	}
	for _, q := range []string{
		`{ products { total page pageSize items { id name price stock categoryId } } }`,
		`{ products(page: 2, pageSize: 2) { total items { id name } } }`,
		`{ searchProducts(minPrice: 30) { total items { id price } } }`,
		`{ searchProducts(minPrice: 30, categoryId: 1) { total items { id } } }`,
		`{ searchProducts(q: "lamp") { total items { name } } }`,
		`{ products(pageSize: 3) { items { name category { id title } } } }`,
		`{ categories { total items { title products { id name } } } }`,
	} {
		a, b := tables.query(s, q, nil), contract.query(s, q, nil)
		if a.Status != 200 || a.JSON["errors"] != nil {
			t.Fatalf("table project: %s: %s", q, a.Raw)
		}
		if !bytes.Equal(a.Raw, b.Raw) {
			t.Errorf("%s\ntable project:    %s\ncontract project: %s", q, a.Raw, b.Raw)
		}
	}
	// A sort given as two arguments (sortField, sortDirection) and a
	// lookup by an ID that the dataset holds as a number.
	for _, q := range []string{
		`{ products(sortField: "price", sortDirection: DESC) { items { id price } } }`,
		`{ products(sortField: "name") { items { name } } }`,
		`{ product(id: "3") { id name price category { title } } }`,
		`{ category(id: "2") { title products { id } } }`,
	} {
		a, b := tables.query(s, q, nil), contract.query(s, q, nil)
		if a.Status != 200 || a.JSON["errors"] != nil || strings.Contains(string(a.Raw), "null") {
			t.Fatalf("table project: %s: %s", q, a.Raw)
		}
		if !bytes.Equal(a.Raw, b.Raw) {
			t.Errorf("%s\ntable project:    %s\ncontract project: %s", q, a.Raw, b.Raw)
		}
	}
	t.Run("an argument named after a relation compares its key; a mapping says so explicitly", func(t *testing.T) {
		// byCategory(category:) names the relation field Product.category,
		// whose key is the column categoryId: the import reads it as that
		// equality, and an editor's mapping to the column serves the same.
		q := `{ byCategory(category: 2) { total items { id } } }`
		if a, b := tables.query(s, q, nil), contract.query(s, q, nil); !bytes.Equal(a.Raw, b.Raw) {
			t.Errorf("before the mapping:\ntable project:    %s\ncontract project: %s", a.Raw, b.Raw)
		}
		d := u.must(`mutation($p:ID!){ setContractMapping(projectId:$p, field:"Query.byCategory", args:[{name:"category", role:"eq", field:"categoryId"}]) {
			contract { report { name mapped description } } } }`, map[string]any{"p": contract.id})
		if got := string(mustJSON(d)); !strings.Contains(got, `sortDirection → sort direction, category → equality on categoryId","mapped":true,"name":"byCategory"`) {
			t.Errorf("report after the mapping: %s", got)
		}
		if a, b := tables.query(s, q, nil), contract.query(s, q, nil); !bytes.Equal(a.Raw, b.Raw) {
			t.Errorf("after the mapping:\ntable project:    %s\ncontract project: %s", a.Raw, b.Raw)
		}
		r := u.gql(`mutation($p:ID!){ setContractMapping(projectId:$p, field:"Query.byCategory", args:[{name:"category", role:"eq", field:"nope"}]) { id } }`, map[string]any{"p": contract.id})
		if r.errCode() != "BAD_USER_INPUT" || !strings.Contains(string(r.Raw), "nope") {
			t.Errorf("a mapping to an unknown field: %s", r.Raw)
		}
	})
	t.Run("unbound again, the rows are generated", func(t *testing.T) {
		u.must(`mutation($p:ID!){ bindContractTable(projectId:$p, type:"Category", importCode:null) { contract { tables { type importCode } } } }`, map[string]any{"p": contract.id})
		// Generated category names may hold the word (Office Supplies);
		// the dataset's row is the title Office alone.
		r := contract.query(s, `{ categories { total items { title } } }`, nil)
		if r.JSON["errors"] != nil || get(r.data(t), "categories", "total") != float64(20) || strings.Contains(string(r.Raw), `"title":"Office"}`) {
			t.Errorf("categories after unbinding: %s", r.Raw)
		}
	})
}

// tableProject makes a table project over the dprod and dcat datasets:
// Product and Category with SOURCE attributes of the same names, a
// one-to-many relation, default operations and searchProducts(minPrice,
// category, q); it has a FULL key.
func (u *user) tableProject(t *testing.T, name string) *contractProject {
	t.Helper()
	p := get(u.must(`mutation($n:String!){ createProject(name:$n) { id slug } }`, map[string]any{"n": name}), "createProject").(map[string]any)
	sh := &shop{s: u.s, owner: u, project: p}
	prod := sh.table(t, p["id"].(string), "Product", "dprod", [][3]string{
		{"id", "ID", "id"}, {"name", "STRING", "name"}, {"price", "FLOAT", "price"}, {"stock", "INT", "stock"}, {"categoryId", "INT", "categoryId"}})
	cat := sh.table(t, p["id"].(string), "Category", "dcat", [][3]string{{"id", "ID", "id"}, {"title", "STRING", "title"}})
	u.must(`mutation($s:ID!,$t:ID!){ createRelation(input:{sourceTableId:$s, targetTableId:$t, cardinality: ONE_TO_MANY,
		sourceAttribute:"id", targetAttribute:"categoryId", fieldName:"products", inverseFieldName:"category"}) { id } }`,
		map[string]any{"s": cat, "t": prod})
	u.must(`mutation($p:ID!){ generateDefaultGqlOperations(projectId:$p) { name } }`, map[string]any{"p": p["id"]})
	u.must(`mutation($t:ID!){ createOperation(input:{tableId:$t, name:"searchProducts", kind: LIST, parameters:[
		{name:"minPrice", attribute:"price", operator: gte}, {name:"categoryId", attribute:"categoryId", operator: eq},
		{name:"q", attribute:"name", operator: like}]}) { id } }`, map[string]any{"t": prod})
	u.must(`mutation($t:ID!){ createOperation(input:{tableId:$t, name:"byCategory", kind: LIST, parameters:[
		{name:"category", attribute:"categoryId", operator: eq}]}) { id } }`, map[string]any{"t": prod})
	cp := &contractProject{owner: u, id: p["id"].(string), slug: p["slug"].(string)}
	cp.runtime = "/mock/" + cp.slug + "/graphql"
	cp.key = get(u.must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"k", scope: FULL) { value } }`, map[string]any{"p": cp.id}), "createApiKey", "value").(string)
	return cp
}

// newContractProjectFor makes a project of u from sdl, with a FULL key.
func newContractProjectFor(t *testing.T, u *user, name, sdl string) *contractProject {
	t.Helper()
	d := u.must(`mutation($n:String!,$s:String!){ createProject(name:$n, sdl:$s) { id slug } }`, map[string]any{"n": name, "s": sdl})
	cp := &contractProject{owner: u, id: get(d, "createProject", "id").(string), slug: get(d, "createProject", "slug").(string)}
	cp.runtime = "/mock/" + cp.slug + "/graphql"
	cp.key = get(u.must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"k", scope: FULL) { value } }`, map[string]any{"p": cp.id}), "createApiKey", "value").(string)
	return cp
}
