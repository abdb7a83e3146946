package engine

import (
	"encoding/json"
	"testing"
)

// TestResolveOverlayKeptWithoutCache checks that a mutated project's
// queries reuse the overlay's last resolved version when the query cache
// cannot hold it (a busy node evicts it), and that a new version or
// another dataset is resolved afresh and answered exactly.
func TestResolveOverlayKeptWithoutCache(t *testing.T) {
	ds := benchDataset(t, 1000)
	pool := memPool{"bench": ds}
	cache := NewCache(1).View() // nothing fits
	tab := benchTable(t)
	ov := NewOverlay()
	resolve := func(p Pool) *TableOverlay {
		return testView(cache, p, ov, ov.State(), true).TableView(tab).ov
	}
	price := func(v string) map[string]json.RawMessage {
		return map[string]json.RawMessage{"a_Product_price": json.RawMessage(v)}
	}
	ov.Apply([]Change{{TableID: tab.ID, RowID: "5", Values: price("1.5")}})
	first := resolve(pool)
	if first == nil || len(first.updated) != 1 {
		t.Fatalf("resolved overlay = %+v, want one updated row", first)
	}
	if again := resolve(pool); again != first {
		t.Fatal("the same version was resolved again although the overlay holds it")
	}
	ov.Apply([]Change{{TableID: tab.ID, RowID: "7", Values: price("2.5")}})
	next := resolve(pool)
	if next == first || len(next.updated) != 2 {
		t.Fatalf("after a new version: same overlay %v, updated %v; want a new one with 2 rows", next == first, next.updated)
	}
	other := memPool{"bench": benchDataset(t, 999)}
	if o := resolve(other); o == next || len(o.updated) != 2 {
		t.Fatalf("another dataset: reused %v, updated %v; want a new resolution with 2 rows", o == next, o.updated)
	}
}
