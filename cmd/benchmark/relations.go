package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"time"
)

// The relations scenarios (issue 13): pages of 1M products with each
// product's customer (many-to-one) and pages of 50k customers with their
// 20 products each (one-to-many), next to the flat page of 20 products and
// the flat page of 420 (as many rows as the one-to-many page writes). Each
// is 1,000 distinct pages on a server whose query cache is 1 MB, so no
// answer and no row list comes from a cache, measured against a bare gin
// handler answering each page with its bytes. The cost of a shape relative
// to the flat page is then read two ways: in time (flat req/s over its
// req/s), and relative to its ceiling (the flat page's ratio to the bare
// handler over its own), which leaves out what writing more bytes costs
// any server.
// -only relations runs the group alone; a full run takes it after mix.

const (
	relProducts  = 1_000_000
	relCustomers = 50_000
)

// relationRows generates the products, each bought by customer id % 50k,
// and the customers, as NDJSON.
func relationRows() (products, customers []byte) {
	var p, c bytes.Buffer
	p.Grow(relProducts * 64)
	for i := 1; i <= relProducts; i++ {
		fmt.Fprintf(&p, `{"id":%d,"name":"Item %d","price":%d,"customerId":%d}`+"\n", i, i, i*7919%100000, i%relCustomers)
	}
	for i := range relCustomers {
		fmt.Fprintf(&c, `{"id":%d,"name":"Customer %d"}`+"\n", i, i)
	}
	return p.Bytes(), c.Bytes()
}

// relationProject imports the two datasets and builds the project: tables
// Product and Customer, Customer ONE_TO_MANY Product through customerId,
// the default operations, and a FULL key.
func relationProject(m *mockgql) (key string, err error) {
	if err := benchAccount(m); err != nil {
		return "", err
	}
	products, customers := relationRows()
	if _, err := m.postReader("/datasets/relproducts?format=ndjson", bytes.NewReader(products)); err != nil {
		return "", err
	}
	if _, err := m.postReader("/datasets/relcustomers?format=ndjson", bytes.NewReader(customers)); err != nil {
		return "", err
	}
	pid, err := relationModel(m, "Relations", "rel", "relproducts", "relcustomers")
	if err != nil {
		return "", err
	}
	return finishProject(m, pid)
}

// relationModel builds the model of a relations project over the
// datasets pcode (products) and ccode (customers): tables Product and
// Customer, Customer ONE_TO_MANY Product through customerId (fields
// products and customer), and returns its ID.
func relationModel(m *mockgql, name, slug, pcode, ccode string) (string, error) {
	d, err := m.gql(`mutation($n:String!,$s:String!){ createProject(name:$n, slug:$s) { id } }`, map[string]any{"n": name, "s": slug})
	if err != nil {
		return "", err
	}
	pid := d["createProject"].(map[string]any)["id"].(string)
	tables := map[string]string{}
	for _, t := range []struct {
		name, code string
		attrs      [][2]string
	}{
		{"Product", pcode, [][2]string{{"id", "ID"}, {"name", "STRING"}, {"price", "FLOAT"}, {"customerId", "INT"}}},
		{"Customer", ccode, [][2]string{{"id", "ID"}, {"name", "STRING"}}},
	} {
		d, err := m.gql(`mutation($p:ID!,$n:String!,$c:String!){ createModellingTable(input:{projectId:$p, name:$n, source:{importCode:$c}}) { id } }`,
			map[string]any{"p": pid, "n": t.name, "c": t.code})
		if err != nil {
			return "", err
		}
		tables[t.name] = d["createModellingTable"].(map[string]any)["id"].(string)
		for _, a := range t.attrs {
			if _, err := m.gql(`mutation($t:ID!,$n:String!,$ty:ScalarType!){ createModellingAttribute(input:{tableId:$t, name:$n, type:$ty, mappingType: SOURCE, sourceMapping:{path:$n}}) { id } }`,
				map[string]any{"t": tables[t.name], "n": a[0], "ty": a[1]}); err != nil {
				return "", err
			}
		}
	}
	if _, err := m.gql(`mutation($s:ID!,$t:ID!){ createRelation(input:{sourceTableId:$s, targetTableId:$t, cardinality: ONE_TO_MANY,
		sourceAttribute: "id", targetAttribute: "customerId", fieldName: "products", inverseFieldName: "customer"}) { id } }`,
		map[string]any{"s": tables["Customer"], "t": tables["Product"]}); err != nil {
		return "", err
	}
	return pid, nil
}

// relationShape is one scenario of the group: its name and its 1,000
// distinct queries.
type relationShape struct {
	name    string
	queries []string
}

func relationShapes() []relationShape {
	pages := func(format string, sorted bool) []string {
		var out []string
		for p := 1; len(out) < mixCount; p++ {
			out = append(out, fmt.Sprintf(format, p, ""))
			if sorted {
				out = append(out, fmt.Sprintf(format, p, ", sortDirection: DESC"))
			}
		}
		return out
	}
	return []relationShape{
		{"flat page (20 of 1M products)", pages(`{ products(page: %d, pageSize: 20, sortField: "price"%s) { total items { id name price } } }`, true)},
		{"many-to-one (20 products + customer)", pages(`{ products(page: %d, pageSize: 20, sortField: "price"%s) { total items { id name price customer { id name } } } }`, true)},
		{"one-to-many (20 customers + 20 products each)", pages(`{ customers(page: %d, pageSize: 20%s) { total items { id name products { id name price } } } }`, false)},
		{"flat page of 420 products", pages(`{ products(page: %d, pageSize: 420, sortField: "price"%s) { total items { id name price } } }`, true)},
	}
}

// relationsBench runs the group on a server of its own (its datasets do
// not weigh on the main server's memory figures).
func relationsBench(bin, self, dir string, o options, rep *report) error {
	srv, err := startMockgql(bin, filepath.Join(dir, "relations"), "--ip-limit", "0", "--ip-limit-management", "0", "--query-cache-mb", "1")
	if err != nil {
		return err
	}
	defer srv.stop()
	t0 := time.Now()
	key, err := relationProject(srv)
	if err != nil {
		return err
	}
	rep.note("relations: import of %d products and %d customers and the model: %v", relProducts, relCustomers, time.Since(t0).Round(time.Millisecond))
	const path = "/mock/rel/graphql"
	var names []string
	for _, sh := range relationShapes() {
		// The first pass builds the indexes (price's order, the lookups of
		// id and customerId) and gives the bare handler its answers.
		set, err := collectMix(srv, path, key, sh.queries)
		if err != nil {
			return fmt.Errorf("%s: %w", sh.name, err)
		}
		if err := measureMix(self, dir, "relations: "+sh.name, srv, path, key, set, o, rep); err != nil {
			return err
		}
		names = append(names, "relations: "+sh.name)
	}
	flat := rep.find(names[0])
	for _, n := range names[1:] {
		r := rep.find(n)
		rep.note("%s: %.1f× the flat page's time a request; %.1f× once each is taken relative to its ceiling (a bare handler writing the same bytes)",
			n, flat.ours.rps()/r.ours.rps(), (flat.ours.rps()/flat.bare.rps())/(r.ours.rps()/r.bare.rps()))
	}
	return nil
}
