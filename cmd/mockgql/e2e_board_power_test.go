package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestBoardQueryPower: on the API design page a person turns on the Relay
// connection, where and orderBy of a list operation and adds an AGGREGATE
// operation; the runtime then answers them, and the changes since the
// baseline are all SAFE.
func TestBoardQueryPower(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "power@example.com", "pw")
	pid := sh.project["id"].(string)
	sh.owner.must(`mutation($p:ID!){ setSchemaBaseline(projectId:$p) }`, map[string]any{"p": pid})
	p := newPage(t, s)
	p.signedIn(sh.owner)
	p.open("/board/projects/"+pid+"/design", `fieldset.power-options[data-operation="products"]`)
	for _, opt := range []string{"relay", "where", "orderBy"} {
		p.click(fmt.Sprintf(`fieldset.power-options[data-operation="products"] input[data-option=%q]`, opt))
		p.waitText(`section[data-operations="Product"] .status`, "SAFE change")
		p.js(`(document.querySelector('section[data-operations="Product"] .status').textContent = "", true)`)
	}
	opts := sh.owner.must(`query($id:ID){ project(id:$id) { operations { name options { relay where orderBy } } } }`, map[string]any{"id": pid})
	if !strings.Contains(fmt.Sprint(opts), "map[name:products options:map[orderBy:true relay:true where:true]]") {
		t.Fatalf("options after the clicks: %v", opts)
	}
	// A new AGGREGATE operation through the form.
	p.click(`details[data-new-operation="Product"] summary`)
	p.choose(`details[data-new-operation="Product"] select`, "aggregate")
	p.set(`details[data-new-operation="Product"] input[type="text"]`, "productStats")
	p.click(`details[data-new-operation="Product"] button[type="submit"]`)
	p.wait(`tr[data-operation="productStats"]`)
	p.waitText("#changes", "SAFE")
	if strings.Contains(p.text("#changes"), "BREAKING") || strings.Contains(p.text("#changes"), "DANGEROUS") {
		t.Fatalf("changes: %s", p.text("#changes"))
	}
	p.js(`(document.querySelector('fieldset.power-options[data-operation="products"]').scrollIntoView(), true)`)
	p.shot("design-query-power")
	d := sh.query(`{ productsConnection(first: 2, where: {price: {gt: 20}}, orderBy: [{field: price, direction: DESC}]) { totalCount edges { node { name } } pageInfo { hasNextPage } }
		productStats(groupBy: [currency]) { count groups { key count sum { price } } } }`, nil).data(t)
	got := fmt.Sprint(d)
	for _, want := range []string{"totalCount:3", "[map[node:map[name:Desk]] map[node:map[name:Chair]]]", "hasNextPage:true", "count:4", "key:map[currency:EUR]"} {
		if !strings.Contains(got, want) {
			t.Fatalf("runtime answer %s lacks %q", got, want)
		}
	}
}
