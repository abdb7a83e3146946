package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/internal/testdata"
)

// TestContractFakerServe runs a `mockgql serve` process and imports, through
// the management API, schemas written for graphql-faker, unchanged:
// graphql-faker's own example schema (testdata/faker/default-schema.graphql)
// answers its @fake and @examples fields and lists the directives in its
// introspection; a new version in its style with options
// (annotated.graphql) answers @fake's options, @examples typed by the field
// and @listLength's lengths, the same after a kill -9; an editor's
// generator (setContractGenerator) wins over @fake at once while a row a
// mutation created keeps its value.
func TestContractFakerServe(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	data, port := t.TempDir(), freePort(t)
	p := startProc(t, data, port)
	cp := newContractProject(t, p.server, "faker@example.com", string(testdata.Read(t, "faker", "default-schema.graphql")))

	d := cp.mustQuery(p.server, `{ allCompanies { name industry employees { firstName lastName address } } __schema { directives { name } } }`, nil)
	companies := get(d, "allCompanies").([]any)
	if len(companies) == 0 {
		t.Fatal("no companies")
	}
	for _, c := range companies {
		c := c.(map[string]any)
		if !slices.Contains([]string{"IT", "Manufacturing", "Medicine", "Media"}, fmt.Sprint(c["industry"])) || c["name"] == "" {
			t.Errorf("a company: %v", c)
		}
	}
	if ds := fmt.Sprint(get(d, "__schema", "directives")); !strings.Contains(ds, "name:fake]") || !strings.Contains(ds, "name:examples]") || !strings.Contains(ds, "name:listLength]") {
		t.Errorf("introspection's directives: %s", ds)
	}

	// A new version in graphql-faker's style, with options.
	cp.owner.must(`mutation($p:ID!,$s:String!){ importGraphQLSchema(projectId:$p, sdl:$s) { project { id } } }`,
		map[string]any{"p": cp.id, "s": string(testdata.Read(t, "faker", "annotated.graphql"))})
	created := get(cp.mustQuery(p.server, `mutation { createProduct(name: "Desk", contact: "buyer@shop.test") { id contact } }`, nil), "createProduct", "id")
	const q = `{ products { id sku price stock image released tags contact } lucky }`
	first := cp.mustQuery(p.server, q, nil)
	checkFakerProducts(t, p.server, first, created, "@")

	p.kill()
	p = startProc(t, data, port)
	cp.owner = cp.owner.on(p.server)
	again := cp.mustQuery(p.server, q, nil)
	a, _ := json.Marshal(first)
	b, _ := json.Marshal(again)
	if string(a) != string(b) {
		t.Errorf("after a restart the values changed:\n%s\n%s", a, b)
	}

	// The editor's generator wins over @fake(type: email), at once.
	cp.owner.must(`mutation($p:ID!){ setContractGenerator(projectId:$p, type:"Product", field:"contact", generator:{kind:"examples", options:{values:["desk@crew.test"]}}) { id } }`,
		map[string]any{"p": cp.id})
	checkFakerProducts(t, p.server, cp.mustQuery(p.server, q, nil), created, "desk@crew.test")
}

// checkFakerProducts checks the products and lucky numbers of the
// annotated schema's runtime: each value within what its directive says,
// each picture loading from the node, contact holding want (the created
// product's own contact whatever the generator).
func checkFakerProducts(t *testing.T, s *server, d map[string]any, created any, want string) {
	t.Helper()
	day := regexp.MustCompile(`^2021-\d\d-\d\d$`)
	for _, x := range get(d, "products").([]any) {
		pr := x.(map[string]any)
		price, _ := strconv.ParseFloat(fmt.Sprint(pr["price"]), 64)
		stock, _ := pr["stock"].(float64)
		tags, _ := pr["tags"].([]any)
		ok := strings.HasPrefix(fmt.Sprint(pr["sku"]), "SKU-") && price >= 5 && price <= 9 && stock >= 3 && stock <= 7 &&
			strings.HasPrefix(fmt.Sprint(pr["image"]), "/img/120x90.png") && day.MatchString(fmt.Sprint(pr["released"])) && len(tags) >= 4 && len(tags) <= 6
		if pr["id"] == created {
			ok = pr["contact"] == "buyer@shop.test"
		} else if !strings.Contains(fmt.Sprint(pr["contact"]), want) {
			ok = false
		}
		if !ok {
			t.Fatalf("a product out of its directives (contact %q): %v", want, pr)
		}
	}
	img := get(d, "products").([]any)[0].(map[string]any)["image"].(string)
	if r := s.do("GET", img, nil); r.Status != 200 || r.Header.Get("Content-Type") != "image/png" {
		t.Errorf("GET %s: %d %s", img, r.Status, r.Header.Get("Content-Type"))
	}
	if n := len(get(d, "lucky").([]any)); n != 7 {
		t.Errorf("lucky has %d numbers; @listLength(min: 7, max: 7)", n)
	}
}
