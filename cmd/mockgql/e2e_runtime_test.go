package main

import (
	"fmt"
	"strings"
	"testing"
)

func TestRuntime(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "rt@example.com", "rt")

	names := func(r response, field string) string {
		t.Helper()
		var out []string
		for _, it := range get(r.data(t), field, "items").([]any) {
			out = append(out, fmt.Sprint(get(it, "name")))
		}
		return strings.Join(out, ",")
	}
	cases := []struct {
		name, query, field, want string
	}{
		{"storage order", `{ products { items { name } } }`, "products", "Desk,Chair,Lamp,desk lamp"},
		{"paging", `{ products(page: 2, pageSize: 3) { items { name } } }`, "products", "desk lamp"},
		{"sort number asc", `{ products(sortField: "price") { items { name } } }`, "products", "Lamp,desk lamp,Chair,Desk"},
		{"sort desc", `{ products(sortField: "price", sortDirection: DESC) { items { name } } }`, "products", "Desk,Chair,desk lamp,Lamp"},
		{"text numbers sort lexicographically", `{ products(sortField: "stock") { items { name } } }`, "products", "Lamp,Chair,desk lamp,Desk"},
		{"wrongly cased sortField keeps storage order", `{ products(sortField: "Price") { items { name } } }`, "products", "Desk,Chair,Lamp,desk lamp"},
		{"gte", `{ searchProducts(minPrice: 25) { items { name } } }`, "searchProducts", "Desk,Chair,desk lamp"},
		{"eq", `{ searchProducts(category: 2) { items { name } } }`, "searchProducts", "Lamp,desk lamp"},
		{"like is case-insensitive contains", `{ searchProducts(q: "DESK") { items { name } } }`, "searchProducts", "Desk,desk lamp"},
		{"in", `{ searchProducts(ids: [2, 4]) { items { name } } }`, "searchProducts", "Chair,desk lamp"},
		{"in with wrong-typed values", `{ searchProducts(ids: ["2", "4"]) { items { name } } }`, "searchProducts", ""},
		{"wrong type matches nothing", `{ searchProducts(minPrice: "25") { items { name } } }`, "searchProducts", ""},
		{"no-parameter operation ignores unknown args", `{ products(color: "red", pageSize: 1) { items { name } } }`, "products", "Desk"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := names(sh.query(c.query, nil), c.field); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
	t.Run("unknown argument on an operation with parameters", func(t *testing.T) {
		r := sh.query(`{ searchProducts(color: "red") { total } }`, nil)
		if r.Status != 200 || r.errCode() != "BAD_USER_INPUT" {
			t.Fatalf("got %d %s", r.Status, r.Raw)
		}
	})
	t.Run("total, page and pageSize", func(t *testing.T) {
		d := sh.query(`{ products(page: 0, pageSize: 5000) { total page pageSize } }`, nil).data(t)
		if fmt.Sprint(get(d, "products")) != "map[page:1 pageSize:1000 total:4]" {
			t.Fatalf("got %v", d)
		}
	})
	t.Run("single by id and relations both ways", func(t *testing.T) {
		d := sh.query(`{ product(id: "3") { name category { title products { name } } } }`, nil).data(t)
		if got := fmt.Sprint(get(d, "product")); got != "map[category:map[products:[map[name:Lamp] map[name:desk lamp]] title:Lighting] name:Lamp]" {
			t.Fatalf("got %s", got)
		}
	})
	t.Run("variables and operationName", func(t *testing.T) {
		r := s.do("POST", sh.runtime, []byte(`{"query":"query A($n:Int){ products(pageSize:$n){ items { name } } } query B { products { total } }",
			"variables":{"n":1},"operationName":"A"}`), "X-API-Key", sh.rtKey, "Accept", "application/graphql-response+json, application/json")
		if got := names(r, "products"); got != "Desk" {
			t.Fatalf("got %q", got)
		}
	})
	t.Run("mutations persist in the overlay", func(t *testing.T) {
		d := sh.query(`mutation { createProduct(input: {name: "Sofa", price: 300}) { id name price } }`, nil).data(t)
		id := get(d, "createProduct", "id").(string)
		sh.query(`mutation($id:ID!){ updateProduct(id:$id, input:{price: 10}) { id } }`, map[string]any{"id": id}).data(t)
		sh.query(`mutation { deleteProduct(id: "1") { name } }`, nil).data(t)
		if got := names(sh.query(`{ products(sortField: "price") { items { name } } }`, nil), "products"); got != "Sofa,Lamp,desk lamp,Chair" {
			t.Fatalf("after mutations: %q", got)
		}
		if r := sh.query(`mutation { deleteProduct(id: "999") { name } }`, nil); r.errCode() != "NOT_FOUND" {
			t.Fatalf("delete unknown: %s", r.Raw)
		}
	})
	t.Run("not ready table", func(t *testing.T) {
		pid := sh.project["id"].(string)
		d := sh.owner.must(`mutation($p:ID!){ createModellingTable(input:{projectId:$p, name:"Loose"}) { id ready } }`, map[string]any{"p": pid})
		sh.owner.must(`mutation($p:ID!,$t:ID!){ generateDefaultGqlOperations(projectId:$p, tableId:$t) { name } }`,
			map[string]any{"p": pid, "t": get(d, "createModellingTable", "id")})
		r := sh.query(`{ looses { items { id } total } }`, nil)
		if r.errCode() != "NOT_READY" || get(r.JSON, "data", "looses", "total") != 0.0 {
			t.Fatalf("got %s", r.Raw)
		}
	})
	t.Run("invalid GraphQL and malformed bodies are 400 with the error body", func(t *testing.T) {
		r := sh.query(`{ products { items { name }`, nil)
		r.refusal(t, 400, "Bad Request")
		if get(r.JSON, "errors", 0, "extensions", "code") != "GRAPHQL_PARSE_FAILED" {
			t.Fatalf("errors: %s", r.Raw)
		}
		s.do("POST", sh.runtime, []byte(`{"query": 5}`), "X-API-Key", sh.rtKey).refusal(t, 400, "Bad Request")
		r = s.do("POST", sh.runtime, []byte(`not json`), "X-API-Key", sh.rtKey)
		r.refusal(t, 400, "Bad Request")
		if get(r.JSON, "errors", 0, "extensions", "code") != "Bad Request" || get(r.JSON, "errors", 0, "message") != r.JSON["detail"] {
			t.Fatalf("a malformed body's 400 lacks its GraphQL errors: %s", r.Raw)
		}
		s.do("POST", sh.runtime, []byte(`{"query":"{ x }"}`+strings.Repeat(" ", 1<<20)), "X-API-Key", sh.rtKey).refusal(t, 413, "PAYLOAD_TOO_LARGE")
	})
	t.Run("disabled operation is unknown", func(t *testing.T) {
		ops := sh.owner.must(`query($id:ID){ project(id:$id) { operations { id name } } }`, map[string]any{"id": sh.project["id"]})
		var opID string
		for _, o := range get(ops, "project", "operations").([]any) {
			if get(o, "name") == "categories" {
				opID = get(o, "id").(string)
			}
		}
		sh.owner.must(`mutation($id:ID!){ updateOperation(input:{operationId:$id, enabled:false}) { enabled } }`, map[string]any{"id": opID})
		sh.query(`{ categories { total } }`, nil).refusal(t, 400, "Bad Request")
	})
	t.Run("introspection", func(t *testing.T) {
		d := sh.query(`{ __schema { queryType { name } types { name } } }`, nil).data(t)
		if !strings.Contains(fmt.Sprint(d), "ProductPage") {
			t.Fatalf("schema lacks ProductPage: %v", d)
		}
	})
}
