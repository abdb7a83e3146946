package graphql

import (
	"context"
	"sync"
	"testing"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/internal/testdata"
	"github.com/mockgql/mockgql/model"
)

// Benchmarks of the hot path as the HTTP handler runs it: Prepare (cached
// document), Query and writing the JSON response. The list query filters,
// sorts and pages; after the first run it is served from the query cache,
// so the 1M-row case should cost about what the 10k one does.

var rtBenchData sync.Map // rows -> *dataset.Dataset, built once per process

// rtBenchDataset returns a generated products dataset of n rows.
func rtBenchDataset(b testing.TB, n int) *dataset.Dataset {
	if d, ok := rtBenchData.Load(n); ok {
		return d.(*dataset.Dataset)
	}
	d := rtDataset(b, "bench", dataset.NDJSON, "", string(testdata.BenchProducts(n)))
	rtBenchData.Store(n, d)
	return d
}

// rtBenchRuntime is a one-table project over the bench dataset.
func rtBenchRuntime(b testing.TB, opt Options) *Runtime {
	return rtCompile(b, rtBenchProject(b), opt)
}

// rtBenchProject is the bench table with the operations search and mix
// (the varied benchmark's parameters: price gte and lte, category eq,
// name like).
func rtBenchProject(b testing.TB) *model.Project {
	p := &model.Project{ID: "bench"}
	mb := &rtModel{tb: b, p: p}
	t := mb.table("Product", "bench", nil)
	mb.src(t, "name", model.TypeString, "name")
	mb.src(t, "price", model.TypeFloat, "price")
	mb.src(t, "category", model.TypeString, "category")
	mb.src(t, "customerId", model.TypeInt, "customerId")
	mb.defaults(t)
	mb.op(t, "search", model.OpList, rtParam("minPrice", "price", model.OpGte), rtParam("category", "category", model.OpEq))
	mb.op(t, "mix", model.OpList, rtParam("minPrice", "price", model.OpGte), rtParam("maxPrice", "price", model.OpLte),
		rtParam("category", "category", model.OpEq), rtParam("q", "name", model.OpLike))
	return p
}

func rtBench(b *testing.B, rows int, query string) {
	pool := memPool{"bench": rtBenchDataset(b, rows)}
	rt := rtBenchRuntime(b, Options{})
	ov := engine.NewOverlay()
	ctx := context.Background()
	req := exec.Request{Query: query}
	run := func() []byte {
		prep, refused := rt.Prepare(req)
		if refused != nil {
			b.Fatal(refused.Errors)
		}
		res, err := rt.Query(ctx, prep, pool, ov)
		if err != nil || len(res.Errors) > 0 {
			b.Fatal(err, res.Errors)
		}
		return res.AppendJSON(nil)
	}
	run() // the first run pays the scan and fills the cache
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		run()
	}
}

const rtBenchListQuery = `{ search(minPrice: 250, category: "tools", sortField: "price", sortDirection: DESC, page: 3, pageSize: 20) { total page pageSize items { id name price category } } }`

func BenchmarkListQuery10k(b *testing.B) { rtBench(b, 10_000, rtBenchListQuery) }

func BenchmarkListQuery1M(b *testing.B) { rtBench(b, 1_000_000, rtBenchListQuery) }

func BenchmarkSingleByID(b *testing.B) {
	rtBench(b, 1_000_000, `{ product(id: "765432") { id name price category } }`)
}

// BenchmarkListQueryColdScan10k measures the scan a cache miss pays: the
// runtime's cache is too small to keep anything.
func BenchmarkListQueryColdScan10k(b *testing.B) {
	pool := memPool{"bench": rtBenchDataset(b, 10_000)}
	rt := rtBenchRuntime(b, Options{CacheRows: 1})
	prep := rtPrepare(b, rt, rtBenchListQuery)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := rt.Query(ctx, prep, pool, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompile measures compiling the test model (schema, resolvers).
func BenchmarkCompile(b *testing.B) {
	p := rtProject(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		rtCompile(b, p, Options{})
	}
}
