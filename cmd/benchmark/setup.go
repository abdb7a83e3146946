package main

import (
	"bytes"
	"fmt"
	"strconv"
	"time"
)

// fixture is the benchmark's account, datasets, project and key.
type fixture struct {
	key         string
	runtimePath string
	largeBytes  int
	importLarge time.Duration
	firstLarge  time.Duration
	// resident memory of the server after the import and after the
	// first sorted query
	rssImported, rssIndexed int64
	scenarios               []scenario
}

// rows generates n documents of six short fields (about 110 bytes each).
func rows(n int) []byte {
	var b bytes.Buffer
	b.Grow(n * 112)
	b.WriteByte('[')
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		price := float64((i*7919)%100000) / 100
		fmt.Fprintf(&b, `{"id":%d,"name":"Product %d","price":%s,"category":"cat-%d","inStock":%t,"sku":"SKU-%08d"}`,
			i, i, strconv.FormatFloat(price, 'f', -1, 64), i%50, i%3 != 0, i)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// benchAccount signs the bench's user up on m (a pool curator, see
// startMockgql) on the ENTERPRISE plan, and keeps its session token.
func benchAccount(m *mockgql) error {
	d, err := m.gql(`mutation { signUp(email:"bench@example.com", password:"benchmark!", name:"Bench") { token } }`, nil)
	if err != nil {
		return err
	}
	m.token = d["signUp"].(map[string]any)["token"].(string)
	_, err = m.gql(`mutation { setPlan(plan: ENTERPRISE) { plan } }`, nil)
	return err
}

func setup(m *mockgql, o options) (*fixture, error) {
	if err := benchAccount(m); err != nil {
		return nil, err
	}
	fx := &fixture{}
	if _, err := m.post("/datasets/small?format=json", string(rows(o.rowsSmall))); err != nil {
		return nil, err
	}
	if o.rowsLarge == 0 {
		return fx, model(m, fx, false)
	}
	large := rows(o.rowsLarge)
	fx.largeBytes = len(large)
	t0 := time.Now()
	if _, err := m.postReader("/datasets/large?format=json", bytes.NewReader(large)); err != nil {
		return nil, err
	}
	fx.importLarge = time.Since(t0)
	fx.rssImported = m.rss()
	large = nil
	if err := model(m, fx, true); err != nil {
		return nil, err
	}
	return fx, nil
}

// project creates a project with a table per dataset (Small, and Large
// when withLarge), the list operations searchX and mixX on each and the
// default operations, and returns a FULL key of it.
func project(m *mockgql, name, slug string, withLarge bool) (string, error) {
	d, err := m.gql(`mutation($n:String!,$s:String!){ createProject(name:$n, slug:$s) { id } }`, map[string]any{"n": name, "s": slug})
	if err != nil {
		return "", err
	}
	pid := d["createProject"].(map[string]any)["id"].(string)
	tables := []struct{ name, code string }{{"Small", "small"}, {"Large", "large"}}
	if !withLarge {
		tables = tables[:1]
	}
	for _, t := range tables {
		d, err := m.gql(`mutation($p:ID!,$n:String!,$c:String!){ createModellingTable(input:{projectId:$p, name:$n, source:{importCode:$c}}) { id } }`,
			map[string]any{"p": pid, "n": t.name, "c": t.code})
		if err != nil {
			return "", err
		}
		tid := d["createModellingTable"].(map[string]any)["id"].(string)
		for _, a := range [][2]string{{"id", "ID"}, {"name", "STRING"}, {"price", "FLOAT"}, {"category", "STRING"}, {"inStock", "BOOLEAN"}, {"sku", "STRING"}} {
			if _, err := m.gql(`mutation($t:ID!,$n:String!,$ty:ScalarType!){ createModellingAttribute(input:{tableId:$t, name:$n, type:$ty, mappingType: SOURCE, sourceMapping:{path:$n}}) { id } }`,
				map[string]any{"t": tid, "n": a[0], "ty": a[1]}); err != nil {
				return "", err
			}
		}
		if _, err := m.gql(`mutation($t:ID!,$n:String!){ createOperation(input:{tableId:$t, name:$n, kind: LIST, parameters:[{name:"minPrice", attribute:"price", operator: gte}]}) { id } }`,
			map[string]any{"t": tid, "n": "search" + t.name}); err != nil {
			return "", err
		}
		if err := mixOperation(m, tid, "mix"+t.name); err != nil {
			return "", err
		}
		if err := powerOperations(m, tid, t.name); err != nil {
			return "", err
		}
	}
	return finishProject(m, pid)
}

// finishProject generates a project's default operations and returns a
// FULL key of it.
func finishProject(m *mockgql, pid string) (string, error) {
	if _, err := m.gql(`mutation($p:ID!){ generateDefaultGqlOperations(projectId:$p) { id } }`, map[string]any{"p": pid}); err != nil {
		return "", err
	}
	d, err := m.gql(`mutation($p:ID!){ createApiKey(projectId:$p, name:"bench", scope: FULL) { value } }`, map[string]any{"p": pid})
	if err != nil {
		return "", err
	}
	return d["createApiKey"].(map[string]any)["value"].(string), nil
}

// model builds a project with a table per dataset, a filtered list
// operation on each, a FULL key, and the scenarios.
func model(m *mockgql, fx *fixture, withLarge bool) error {
	key, err := project(m, "Bench", "bench", withLarge)
	if err != nil {
		return err
	}
	fx.key = key
	fx.runtimePath = "/mock/bench/graphql"
	list := `{ search%s(minPrice: 500, pageSize: 20, sortField: "price", sortDirection: DESC) { total items { id name price category inStock sku } } }`
	fx.scenarios = []scenario{
		{"list 10k (filter+sort+page)", fmt.Sprintf(list, "Small")},
		{"list 1M (filter+sort+page)", fmt.Sprintf(list, "Large")},
		{"single by id (1M)", `{ large(id: "654321") { id name price category inStock sku } }`},
	}
	if !withLarge {
		fx.scenarios = fx.scenarios[:1]
		return nil
	}
	t0 := time.Now()
	if _, err := collectMix(m, fx.runtimePath, fx.key, []string{fx.scenarios[1].query}); err != nil {
		return err
	}
	fx.firstLarge = time.Since(t0)
	fx.rssIndexed = m.rss()
	fx.scenarios = append(fx.scenarios, powerScenarios()...)
	return warmPower(m, fx, powerScenarios())
}

// mixOperation adds the varied scenario's list operation to a table:
// price gte and lte, category eq, name like.
func mixOperation(m *mockgql, tableID, name string) error {
	_, err := m.gql(`mutation($t:ID!,$n:String!){ createOperation(input:{tableId:$t, name:$n, kind: LIST, parameters:[
		{name:"minPrice", attribute:"price", operator: gte}, {name:"maxPrice", attribute:"price", operator: lte},
		{name:"category", attribute:"category", operator: eq}, {name:"q", attribute:"name", operator: like}]}) { id } }`,
		map[string]any{"t": tableID, "n": name})
	return err
}
