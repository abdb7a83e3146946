package graphql

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// mixQueries returns n distinct list queries over the bench dataset, the
// mix of make bench's varied scenario: number filters (gte, lte), text eq
// and like, sort by a number or by text in both directions, pages 1-50,
// total always selected.
func mixQueries(n int) []string {
	rnd := rand.New(rand.NewPCG(5, 5))
	cats := []string{"tools", "toys", "garden", "books", "food"}
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		args := fmt.Sprintf("page: %d, pageSize: 20", 1+rnd.IntN(50))
		if rnd.IntN(2) == 0 {
			args += fmt.Sprintf(", minPrice: %d", rnd.IntN(1000))
		}
		if rnd.IntN(2) == 0 {
			args += fmt.Sprintf(", maxPrice: %d", rnd.IntN(1000))
		}
		if rnd.IntN(3) == 0 {
			args += fmt.Sprintf(", category: %q", cats[rnd.IntN(len(cats))])
		}
		if rnd.IntN(3) == 0 {
			args += fmt.Sprintf(", q: %q", fmt.Sprint(1000 + rnd.IntN(9000))[:3+rnd.IntN(2)])
		}
		args += fmt.Sprintf(", sortField: %q", []string{"price", "name", "category"}[rnd.IntN(3)])
		if rnd.IntN(2) == 0 {
			args += ", sortDirection: DESC"
		}
		q := "{ mix(" + args + ") { total items { id name price category } } }"
		if !seen[q] {
			seen[q] = true
			out = append(out, q)
		}
	}
	return out
}

func benchMix(b *testing.B, rows int, opt Options) {
	pool := memPool{"bench": rtBenchDataset(b, rows)}
	p := rtBenchProject(b)
	rt := rtCompile(b, p, opt)
	queries := mixQueries(1000)
	preps := make([]*exec.Prepared, len(queries))
	for i, q := range queries {
		preps[i] = rtPrepare(b, rt, q)
	}
	ctx := context.Background()
	for _, prep := range preps { // build the indexes
		if _, err := rt.Query(ctx, prep, pool, nil); err != nil {
			b.Fatal(err)
		}
	}
	benchQueries(b, rt, preps, pool, nil)
}

func BenchmarkListMix10k(b *testing.B) { benchMix(b, 10_000, Options{CacheRows: 1 << 18}) }

func BenchmarkListMix1M(b *testing.B) { benchMix(b, 1_000_000, Options{}) }

// BenchmarkListMixOverlay is the 1M mix after 10,000 changes (updates,
// creates, deletes) of the table: its figure next to BenchmarkListMix1M
// shows what the overlay costs a query.
func BenchmarkListMixOverlay(b *testing.B) {
	const rows = 1_000_000
	pool := memPool{"bench": rtBenchDataset(b, rows)}
	rt := rtCompile(b, rtBenchProject(b), Options{})
	ov := engine.NewOverlay()
	changes := mixOverlayChanges(rows)
	ov.Apply(changes)
	queries := mixQueries(1000)
	ctx := context.Background()
	preps := make([]*exec.Prepared, len(queries))
	for i, q := range queries {
		preps[i] = rtPrepare(b, rt, q)
		pool["bench"].Order("price")
		pool["bench"].Order("name")
		pool["bench"].Order("category")
		pool["bench"].Grams("name")
		if _, err := rt.Query(ctx, preps[i], pool, ov); err != nil {
			b.Fatal(err)
		}
	}
	benchQueries(b, rt, preps, pool, ov)
}

// BenchmarkListShapes measures single query shapes over 1M rows, each
// uncached (distinct pages), to find the slowest.
func BenchmarkListShapes(b *testing.B) {
	pool := memPool{"bench": rtBenchDataset(b, 1_000_000)}
	p := rtBenchProject(b)
	mb := &rtModel{tb: b, p: p}
	t := p.Tables[0]
	var in []string
	for i := 0; i < 1000; i++ {
		in = append(in, fmt.Sprint(i*7))
	}
	mb.op(&model.Table{ID: t.ID, Name: t.Name}, "shapes", model.OpList, rtParam("priceIn", "price", model.OpIn), rtParam("priceNeq", "price", model.OpNeq),
		rtParam("priceGt", "price", model.OpGt), rtParam("priceLt", "price", model.OpLt), rtParam("category", "category", model.OpEq),
		rtParam("q", "name", model.OpLike), rtParam("cust", "customerId", model.OpGte))
	rt := rtCompile(b, p, Options{CacheRows: 1})
	for _, path := range []string{"price", "name", "category", "customerId"} {
		pool["bench"].Order(path)
	}
	pool["bench"].Grams("name")
	for _, sh := range []struct{ name, args string }{
		{"in 1000 values", "priceIn: [" + strings.Join(in, ", ") + "]"},
		{"neq", "priceNeq: 500"},
		{"gt sort text", `priceGt: 500, sortField: "name"`},
		{"lt desc", `priceLt: 300, sortField: "price", sortDirection: DESC`},
		{"3 params sort text desc", `priceGt: 100, category: "toys", cust: 500, sortField: "name", sortDirection: DESC`},
		{"like 2 chars", `q: "12"`},
		{"like 4 chars sort price", `q: "1234", sortField: "price"`},
		{"like 6 chars", `q: "em 123"`},
		{"sort text desc, no filter", `sortField: "name", sortDirection: DESC`},
	} {
		b.Run(sh.name, func(b *testing.B) {
			preps := make([]*exec.Prepared, 50)
			for i := range preps {
				preps[i] = rtPrepare(b, rt, fmt.Sprintf("{ shapes(%s, page: %d) { total items { id name price } } }", sh.args, i+1))
			}
			benchQueries(b, rt, preps, pool, nil)
		})
	}
}

// benchQueries runs the prepared queries in turn, b.N in all, writing
// each answer as the HTTP handler does.
func benchQueries(b *testing.B, rt *Runtime, preps []*exec.Prepared, pool engine.Pool, ov *engine.Overlay) {
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := rt.Query(ctx, preps[i%len(preps)], pool, ov)
		if err != nil || len(res.Errors) > 0 {
			b.Fatal(err, res.Errors)
		}
		_ = res.AppendJSON(nil)
	}
}
