package exec

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// cacheSDL has the shape of the runtime's searchProducts operation, whose
// documents the cache tests below keep.
const cacheSDL = `
scalar FilterValue
type Query { searchProducts(minPrice: FilterValue, nameLike: String, sortField: String, page: Int): ProductPage! }
type ProductPage { items: [Product!]!  total: Int!  page: Int!  pageSize: Int! }
type Product { id: ID!  name: String  price: Float  category: String }
`

// newCacheExecutor returns an executor of cacheSDL with the default cache
// of texts, without the cache of shapes, which would serve the texts of
// the tests below with one document.
func newCacheExecutor(tb testing.TB) *Executor {
	tb.Helper()
	ex, err := NewExecutor(Executor{Schema: mustLoadSchema(tb, cacheSDL), NoShapes: true})
	if err != nil {
		tb.Fatal(err)
	}
	return ex
}

// TestDocCacheBytes: a client cycling through 3,000 distinct query texts
// keeps far more than the 256 documents the cache used to hold, within
// its byte bound, and the estimate of a document's bytes is not below
// what parsing and validating really allocate and keep.
func TestDocCacheBytes(t *testing.T) {
	ex := newCacheExecutor(t)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	const n = 3000
	var est int64
	for i := 0; i < n; i++ {
		q := fmt.Sprintf(`{ searchProducts(minPrice: %d, nameLike: "g", sortField: "price", page: %d) { total items { id name price category } } }`, i, i%50)
		if _, refused := ex.Prepare(Request{Query: q}); refused != nil {
			t.Fatal(refused.Errors)
		}
		est += docCost(q)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	c := ex.cache
	if c.bytes.Load() > c.maxBytes || len(c.items) < 1000 || docBytes.Load() > DocCacheProcessBytes {
		t.Fatalf("cache holds %d documents, %d estimated bytes (bound %d; process %d)", len(c.items), c.bytes.Load(), c.maxBytes, docBytes.Load())
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
	ex := newCacheExecutor(t)
	q := `query($p: FilterValue) { searchProducts(minPrice: $p) { total items { id } } }`
	first := ex.document(context.Background(), q)
	for _, p := range []any{1.0, 20.0, "x", nil} {
		if _, refused := ex.Prepare(Request{Query: q, Variables: map[string]any{"p": p}}); refused != nil {
			t.Fatal(refused.Errors)
		}
		if d := ex.document(context.Background(), q); d != first {
			t.Fatalf("variables %v: parsed again", p)
		}
	}
}

// TestDocCacheProcessBound: the documents of all caches together stay
// within DocCacheProcessBytes (each cache evicts its own first), and a
// cache that is collected gives its bytes back.
func TestDocCacheProcessBound(t *testing.T) {
	base := docBytes.Load()
	text := strings.Repeat("x", 60<<10) // about 1.5 MB estimated each
	var caches []*docCache
	for i := 0; i < 2*DocCacheProcessBytes/DocCacheBytes; i++ {
		c := newDocCache(DefaultCacheSize)
		for j := 0; j < 10; j++ {
			c.put(&document{query: fmt.Sprintf("%s %d %d", text, i, j)})
		}
		caches = append(caches, c)
	}
	// Each cache keeps at least its newest document.
	if got, slack := docBytes.Load(), int64(len(caches))*docCost(text+" 99 9"); got > DocCacheProcessBytes+slack {
		t.Fatalf("all caches hold %d estimated bytes, bound %d + %d", got, DocCacheProcessBytes, slack)
	}
	if len(caches[len(caches)-1].items) == 0 {
		t.Fatal("the newest cache kept nothing")
	}
	caches = nil
	deadline := time.Now().Add(10 * time.Second)
	for docBytes.Load() > base+1<<20 {
		if time.Now().After(deadline) {
			t.Fatalf("collected caches still count %d bytes (before: %d)", docBytes.Load(), base)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}
