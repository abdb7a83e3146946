package graphql

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/model"
)

// TestConcurrentQueryAndApply runs queries while mutations are applied; with
// -race it checks that readers and the writer share nothing unsafely, and
// that every query sees one consistent overlay version.
func TestConcurrentQueryAndApply(t *testing.T) {
	h := newRTHarness(t)
	query := rtPrepare(t, h.rt, `{ products(sortField: "price", sortDirection: DESC) { total items { id price supplier { id products { id } } } } customer(id: "c1") { orders { id product { name } } } }`)
	create := rtPrepare(t, h.rt, `mutation { createProduct(input: {name: "n", price: 3}) { id } }`)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				res, err := h.rt.Query(context.Background(), query, h.pool, h.ov)
				if err != nil || len(res.Errors) > 0 {
					t.Errorf("query: %v %v", err, res.Errors)
					return
				}
			}
		}()
	}
	for i := 0; i < 20; i++ {
		_, changes, err := h.rt.Mutate(context.Background(), create, h.pool, h.ov)
		if err != nil {
			t.Fatal(err)
		}
		h.ov.Apply(changes)
	}
	wg.Wait()
	if got := h.do(`{ products { total } }`, nil); jsonAt(got, "data.products.total") != 25.0 {
		t.Errorf("total = %v", jsonAt(got, "data.products.total"))
	}
}

// TestCacheFollowsOverlay checks that cached lists never serve a stale
// overlay version and that a re-imported dataset is never served from the
// old one's entries.
func TestCacheFollowsOverlay(t *testing.T) {
	h := newRTHarness(t)
	q := `{ searchProducts(minPrice: 1, sortField: "price") { total items { id } } }`
	first := itemIDs(h.do(q, nil), "data.searchProducts.items")
	h.do(`mutation { updateProduct(id: "4", input: {price: 50}) { id } }`, nil)
	second := itemIDs(h.do(q, nil), "data.searchProducts.items")
	if first != "4,1,5,2" || second != "1,5,2,4" {
		t.Errorf("before %s, after %s", first, second)
	}
	pool := rtPool(t)
	pool["products"] = rtDataset(t, "products", dataset.JSON, "kind", `[{"id": 1, "price": 99}]`)
	h.pool = pool
	if got := itemIDs(h.do(q, nil), "data.searchProducts.items"); got != "1" {
		t.Errorf("after re-import: %s", got)
	}
}

// TestLargeNumericIDs checks ids and keys of numbers written differently
// by dataset keys and by the runtime (no exponent for integers).
func TestLargeNumericIDs(t *testing.T) {
	p := &model.Project{ID: "p"}
	b := &rtModel{tb: t, p: p}
	acc := b.table("Account", "accounts", nil)
	b.src(acc, "name", model.TypeString, "name")
	tx := b.table("Tx", "txs", nil)
	b.src(tx, "accountId", model.TypeString, "accountId")
	b.defaults(acc)
	b.defaults(tx)
	b.relation(model.Relation{SourceTableID: acc.ID, TargetTableID: tx.ID, Cardinality: model.OneToMany, Direction: model.Bidirectional,
		SourceAttribute: "id", TargetAttribute: "accountId", FieldName: "txs", InverseFieldName: "account"})
	h := &rtHarness{tb: t, rt: rtCompile(t, p, Options{}), ov: engine.NewOverlay(), pool: memPool{
		"accounts": rtDataset(t, "accounts", dataset.JSON, "", `[{"id": 1234567, "name": "big"}, {"id": 99999999999, "name": "bigger"}]`),
		"txs":      rtDataset(t, "txs", dataset.JSON, "", `[{"accountId": "1234567"}, {"accountId": 99999999999}]`),
	}}
	res := h.do(`{ account(id: "99999999999") { id name txs { id account { id } } } a: account(id: "1234567") { txs { id } } }`, nil)
	want := `{"data":{"account":{"id":"99999999999","name":"bigger","txs":[{"id":"2","account":{"id":"99999999999"}}]},"a":{"txs":[{"id":"1"}]}}}`
	if got := string(h.raw(`{ account(id: "99999999999") { id name txs { id account { id } } } a: account(id: "1234567") { txs { id } } }`, nil)); got != want {
		t.Errorf("got %s\nwant %s (%v)", got, want, res)
	}
	if got := h.do(`mutation { createAccount(input: {name: "n"}) { id } }`, nil); jsonAt(got, "data.createAccount.id") != "100000000000" {
		t.Errorf("fresh id = %v", got)
	}
}

// TestDescendingTiesWithOverlay checks that changed rows merge into a
// descending list at their storage-order place among equal values.
func TestDescendingTiesWithOverlay(t *testing.T) {
	h := newRTHarness(t)
	h.do(`mutation { updateProduct(id: "4", input: {price: 10}) { id } createProduct(input: {price: 10}) { id } }`, nil)
	runRTListCases(t, h, []rtListCase{
		{"asc", `products(sortField: "price")`, "1,4,5,6,2,3", 6, ""},
		{"desc", `products(sortField: "price", sortDirection: DESC)`, "3,2,1,4,5,6", 6, ""},
	})
}

// TestManyChanges checks the overlay path with more changes than rows of a page.
func TestManyChanges(t *testing.T) {
	h := newRTHarness(t)
	var m strings.Builder
	m.WriteString("mutation {")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&m, " c%d: createProduct(input: {name: \"n%02d\", price: %d}) { id }", i, i, 30-i)
	}
	m.WriteString(" }")
	h.do(m.String(), nil)
	res := h.do(`{ products(sortField: "price", pageSize: 3, page: 2) { total items { name } } }`, nil)
	if jsonAt(res, "data.products.total") != 35.0 || jsonAt(res, "data.products.items.0.name") != "n26" {
		t.Errorf("got %v", res)
	}
}

// TestMongoIDs checks ids read from MongoDB exports ({"_id": {"$oid": ...}}).
func TestMongoIDs(t *testing.T) {
	p := &model.Project{ID: "p"}
	b := &rtModel{tb: t, p: p}
	doc := b.table("Doc", "docs", nil)
	b.src(doc, "title", model.TypeString, "title")
	b.defaults(doc)
	h := &rtHarness{tb: t, rt: rtCompile(t, p, Options{}), ov: engine.NewOverlay(), pool: memPool{
		"docs": rtDataset(t, "docs", dataset.NDJSON, "", `{"_id": {"$oid": "65a1"}, "title": "one"}
{"_id": {"$oid": "65a2"}, "title": "two"}
`),
	}}
	got := string(h.raw(`{ docs { items { id } } doc(id: "65a2") { title } }`, nil))
	if want := `{"data":{"docs":{"items":[{"id":"65a1"},{"id":"65a2"}]},"doc":{"title":"two"}}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestSharedCacheKeepsRuntimesApart: two projects' runtimes share one
// query cache (a node's budget). The same query text over the same
// dataset means different things in each (their "rank" attributes are
// bound to different fields), so neither may be answered from the other's
// entries; and the shared cache stays within its one bound.
func TestSharedCacheKeepsRuntimesApart(t *testing.T) {
	shared, pool := engine.NewCache(1<<10), rtPool(t) // one node: one pool, one cache
	build := func(path string, c *engine.Cache) *rtHarness {
		p := &model.Project{ID: "p_" + path}
		b := &rtModel{tb: t, p: p}
		item := b.table("Item", "products", nil)
		b.src(item, "rank", model.TypeFloat, path)
		b.defaults(item)
		return &rtHarness{tb: t, rt: rtCompile(t, p, Options{Cache: c}), pool: pool, ov: engine.NewOverlay()}
	}
	q := `{ items(sortField: "rank", sortDirection: DESC) { items { id } } }`
	wantPrice := itemIDs(build("price", nil).do(q, nil), "data.items.items")
	wantID := itemIDs(build("id", nil).do(q, nil), "data.items.items")
	if wantPrice == wantID {
		t.Fatalf("the two models rank alike (%s); the test needs them apart", wantID)
	}
	byPrice, byID := build("price", shared), build("id", shared)
	for range 2 { // the second round is served from the cache
		if got := itemIDs(byPrice.do(q, nil), "data.items.items"); got != wantPrice {
			t.Errorf("ranked by price: %s, want %s", got, wantPrice)
		}
		if got := itemIDs(byID.do(q, nil), "data.items.items"); got != wantID {
			t.Errorf("ranked by id: %s, want %s", got, wantID)
		}
	}
	// Sorted pages come from the dataset's indexes, not the cache: it
	// holds entries only for queries without an index.
	if cost, bound, entries := shared.Usage(); cost > bound {
		t.Errorf("shared cache: cost %d of %d, %d entries", cost, bound, entries)
	}
}
