package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/internal/testdata"
)

// conventionDoc returns a schema of testdata/conventions, written in the
// style of a real API's (Shopify, Saleor, Rick and Morty).
func conventionDoc(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testdata.Dir(t, "conventions"), name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// newStarterContract makes a project from sdl for a new STARTER account
// (5 tables a project), then moves the account to PROFESSIONAL for a FULL
// key (STARTER has none).
func newStarterContract(t *testing.T, s *server, email, sdl string) *contractProject {
	t.Helper()
	u := s.signUp(email)
	d := u.must(`mutation($n:String!,$s:String!){ createProject(name:$n, sdl:$s) { id slug } }`, map[string]any{"n": "Shop", "s": sdl})
	u.must(`mutation { setPlan(plan: PROFESSIONAL) { plan } }`, nil)
	cp := &contractProject{owner: u, id: get(d, "createProject", "id").(string), slug: get(d, "createProject", "slug").(string)}
	cp.runtime = "/mock/" + cp.slug + "/graphql"
	k := u.must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"k", scope: FULL) { value } }`, map[string]any{"p": cp.id})
	cp.key = get(k, "createApiKey", "value").(string)
	return cp
}

// TestContractConventionsServe runs a `mockgql serve` process and, through
// /mock/{slug}/graphql, a storefront schema in Shopify's style on
// STARTER (its payload and error types are no tables, so it fits the 5
// tables a project): customerCreate(input:) persists across a kill -9,
// orderUpdateStatus changes the order, userErrors is [] on success and
// names the unknown key on refusal without a top-level error; then a
// character page in Rick and Morty's style answers info from its rows,
// and a Saleor-style products(search:) finds the product created.
func TestContractConventionsServe(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	data, port := t.TempDir(), freePort(t)
	p := startProc(t, data, port)
	shop := newStarterContract(t, p.server, "conventions-shop@example.com", conventionDoc(t, "shop.graphql"))
	d := shop.mustQuery(p.server, `mutation { customerCreate(input: {email: "ada@example.com", firstName: "Ada"}) { customer { id } userErrors { field message } } }`, nil)
	if errs := fmt.Sprint(get(d, "customerCreate", "userErrors")); errs != "[]" {
		t.Errorf("userErrors on success: %s", errs)
	}
	id := get(d, "customerCreate", "customer", "id").(string)
	shop.mustQuery(p.server, `mutation { orderUpdateStatus(id: "order-1", input: {status: FULFILLED}) { order { id } } }`, nil)
	r := shop.query(p.server, `mutation { customerDelete(input: {id: "customer-404"}) { deletedCustomerId userErrors { field message } } }`, nil)
	if r.Status != 200 || r.JSON["errors"] != nil || !strings.Contains(string(r.Raw), `"userErrors":[{"field":["input","id"],"message":"customerDelete: no Customer has the id \"customer-404\""}]`) {
		t.Errorf("an unknown customer's delete: %d %s", r.Status, r.Raw)
	}

	p.kill()
	p = startProc(t, data, port)
	got := shop.mustQuery(p.server, `query($id: ID!) { customer(id: $id) { email firstName } order(id: "order-1") { status } customers(first: 100, query: "ada@") { edges { node { id } } } }`, map[string]any{"id": id})
	if s := fmt.Sprint(got); s != fmt.Sprintf("map[customer:map[email:ada@example.com firstName:Ada] customers:map[edges:[map[node:map[id:%s]]]] order:map[status:FULFILLED]]", id) {
		t.Errorf("after a restart: %s", s)
	}

	// An input object's field mapped as the key of a mutation the import
	// left generated, through the management API.
	shop.owner.must(`mutation($p:ID!){ setContractMapping(projectId:$p, field:"Mutation.customerArchive", shape:"delete", entity:"Customer", args:[{name:"input.customerRef", role:"key"}]) { id } }`,
		map[string]any{"p": shop.id})
	shop.mustQuery(p.server, `mutation { customerArchive(input: {customerRef: "customer-5"}) { deletedCustomerId } }`, nil)
	if got := get(shop.mustQuery(p.server, `{ customer(id: "customer-5") { id } }`, nil), "customer"); got != nil {
		t.Errorf("customerArchive mapped to delete by input.customerRef left customer-5: %v", got)
	}

	pro := newContractProject(t, p.server, "conventions-pages@example.com", conventionDoc(t, "characters.graphql"))
	pro.owner.must(`mutation($p:ID!){ setContractRows(projectId:$p, type:"Character", rows: 41) { id } }`, map[string]any{"p": pro.id})
	for page, want := range map[int]string{1: "map[count:41 next:2 pages:3 prev:<nil>]", 3: "map[count:41 next:<nil> pages:3 prev:2]"} {
		got := pro.mustQuery(p.server, fmt.Sprintf(`{ characters(page: %d) { info { count pages next prev } } }`, page), nil)
		if s := fmt.Sprint(get(got, "characters", "info")); s != want {
			t.Errorf("page %d: info %s, want %s", page, s, want)
		}
	}
	cat := newContractProject(t, p.server, "conventions-catalog@example.com", conventionDoc(t, "catalog.graphql"))
	pid := get(cat.mustQuery(p.server, `mutation { productCreate(input: {name: "Zzyzx walnut desk"}) { product { id } errors { field } } }`, nil), "productCreate", "product", "id")
	got = cat.mustQuery(p.server, `{ products(first: 50, search: "ZZYZX") { totalCount edges { node { id name } } } }`, nil)
	if s := fmt.Sprint(got); s != fmt.Sprintf("map[products:map[edges:[map[node:map[id:%s name:Zzyzx walnut desk]]] totalCount:1]]", pid) {
		t.Errorf("products(search:) after productCreate: %s", s)
	}
}
