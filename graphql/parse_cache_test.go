package graphql

import (
	"fmt"
	"runtime"
	"testing"
)

// TestDocCacheBytes: a client cycling through 3,000 distinct query texts
// keeps far more than the 256 documents the cache used to hold, within
// its byte bound, and the estimate of a document's bytes is not below
// what parsing and validating really allocate and keep.
func TestDocCacheBytes(t *testing.T) {
	h := newRTHarness(t)
	ex := h.rt.exec
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	const n = 3000
	var est int64
	for i := 0; i < n; i++ {
		q := fmt.Sprintf(`{ searchProducts(minPrice: %d, nameLike: "g", sortField: "price", page: %d) { total items { id name price category } } }`, i, i%50)
		if _, refused := h.rt.Prepare(Request{Query: q}); refused != nil {
			t.Fatal(refused.Errors)
		}
		est += docCost(q)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	c := ex.cache
	if c.bytes > c.maxBytes || len(c.items) < 1000 {
		t.Fatalf("cache holds %d documents, %d estimated bytes (bound %d)", len(c.items), c.bytes, c.maxBytes)
	}
	kept := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	perDoc := kept / int64(len(c.items))
	if estDoc := est / n; perDoc > estDoc {
		t.Errorf("a cached document holds %d bytes, estimated %d", perDoc, estDoc)
	}
	t.Logf("%d documents cached, %d bytes each (estimate %d)", len(c.items), perDoc, est/n)
}

// TestDocSharedAcrossVariables: requests with one text and different
// variables are parsed and validated once.
func TestDocSharedAcrossVariables(t *testing.T) {
	h := newRTHarness(t)
	q := `query($p: FilterValue) { searchProducts(minPrice: $p) { total items { id } } }`
	first := h.rt.exec.document(q)
	for _, p := range []any{1.0, 20.0, "x", nil} {
		if _, refused := h.rt.Prepare(Request{Query: q, Variables: map[string]any{"p": p}}); refused != nil {
			t.Fatal(refused.Errors)
		}
		if d := h.rt.exec.document(q); d != first {
			t.Fatalf("variables %v: parsed again", p)
		}
	}
}
