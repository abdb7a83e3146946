package graphql

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
)

// BenchmarkMutations10 is one request of 10 mutations (40% updates, 40%
// creates, 20% deletes, as make bench sends them) on the 1M-row table
// whose overlay already holds 10,000 records, followed by one list query
// of the new version: what a mutation costs as the records grow.
func BenchmarkMutations10(b *testing.B) {
	const rows = 1_000_000
	pool := memPool{"bench": rtBenchDataset(b, rows)}
	rt := rtCompile(b, rtBenchProject(b), Options{})
	ov := engine.NewOverlay()
	rnd := rand.New(rand.NewPCG(3, 3))
	ids := rnd.Perm(rows)
	ctx := context.Background()
	list := rtPrepare(b, rt, `{ mix(minPrice: 100, sortField: "price") { total items { id name price } } }`)
	done := 0
	request := func() {
		var s strings.Builder
		s.WriteString("mutation {")
		for i := 0; i < 10; i, done = i+1, done+1 {
			id, price := ids[done%rows]+1, float64(rnd.IntN(100000))/100
			switch x := rnd.IntN(10); {
			case x < 4:
				fmt.Fprintf(&s, ` m%d: updateProduct(id: "%d", input: {price: %g, name: "Changed %d"}) { id }`, i, id, price, id)
			case x < 8:
				fmt.Fprintf(&s, ` m%d: createProduct(input: {name: "New %d", price: %g, category: "cat-%d"}) { id }`, i, done, price, rnd.IntN(50))
			default:
				fmt.Fprintf(&s, ` m%d: deleteProduct(id: "%d") { id }`, i, id)
			}
		}
		s.WriteString(" }")
		_, changes, err := rt.Mutate(ctx, rtPrepare(b, rt, s.String()), pool, ov)
		if err != nil {
			b.Fatal(err)
		}
		ov.Apply(changes)
		if _, err := rt.Query(ctx, list, pool, ov); err != nil {
			b.Fatal(err)
		}
	}
	var pre []engine.Change // the 10,000 records, applied at once
	for ; done < 10_000; done++ {
		c := engine.Change{TableID: "t_Product", RowID: fmt.Sprint(ids[done] + 1), Values: map[string]json.RawMessage{"a_Product_price": json.RawMessage("1.5")}}
		switch done % 5 {
		case 1, 2:
			c = engine.Change{TableID: "t_Product", RowID: fmt.Sprintf("new%d", done), Created: true, Seq: int64(done), Values: c.Values}
		case 3:
			c.Deleted, c.Values = true, nil
		}
		pre = append(pre, c)
	}
	ov.Apply(pre)
	request()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		request()
	}
}

// mixOverlayChanges returns the 10,000 changes of the bench table that
// BenchmarkListMixOverlay applies: 40% updates of the price, 40% creates,
// 20% deletes, over random rows of rows.
func mixOverlayChanges(rows int) []engine.Change {
	rnd := rand.New(rand.NewPCG(3, 3))
	ids := rnd.Perm(rows)
	var changes []engine.Change
	for i := 0; i < 10_000; i++ {
		price := json.RawMessage(fmt.Sprint(float64(rnd.IntN(100000)) / 100))
		switch x := rnd.IntN(10); {
		case x < 4:
			changes = append(changes, engine.Change{TableID: "t_Product", RowID: fmt.Sprint(ids[i] + 1), Values: map[string]json.RawMessage{"a_Product_price": price}})
		case x < 8:
			changes = append(changes, engine.Change{TableID: "t_Product", RowID: fmt.Sprintf("new%d", i), Created: true, Seq: int64(i),
				Values: map[string]json.RawMessage{"a_Product_price": price, "a_Product_name": json.RawMessage(fmt.Sprintf(`"New %d"`, i))}})
		default:
			changes = append(changes, engine.Change{TableID: "t_Product", RowID: fmt.Sprint(ids[i] + 1), Deleted: true})
		}
	}
	return changes
}

// BenchmarkListMixOverlayRatio runs the 1M mix without and with the
// 10,000-change overlay of BenchmarkListMixOverlay in alternating slices
// of 50 queries, on one dataset and runtime, so that the machine's load
// falls on both alike; it reports each side's time a query and their
// ratio (overlay/plain: the target is at most 1.5). Each side's
// CPU profile samples carry the label side=plain or side=overlay.
func BenchmarkListMixOverlayRatio(b *testing.B) {
	const rows, slice = 1_000_000, 50
	ov := engine.NewOverlay()
	ov.Apply(mixOverlayChanges(rows))
	_, preps, _, run := mixRunner(b, rows, nil, ov)
	ctx := context.Background()
	var plain, over time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i += slice {
		for k, o := range []*engine.Overlay{nil, ov} {
			start := time.Now()
			pprof.Do(ctx, pprof.Labels("side", []string{"plain", "overlay"}[k]), func(context.Context) {
				for j := i; j < min(b.N, i+slice); j++ {
					run(preps[j%len(preps)], o)
				}
			})
			if k == 0 {
				plain += time.Since(start)
			} else {
				over += time.Since(start)
			}
		}
	}
	b.ReportMetric(float64(plain.Nanoseconds())/float64(b.N), "plain-ns/query")
	b.ReportMetric(float64(over.Nanoseconds())/float64(b.N), "overlay-ns/query")
	b.ReportMetric(float64(over)/float64(max(plain, 1)), "ratio")
}

// mixRunner prepares the mix's 1,000 queries over rows rows on one
// runtime, builds the indexes they use and runs each query once with each
// overlay of ovs (nil: none), so that the overlays' live tables are built
// too; run answers a query of rt as the HTTP handler does.
func mixRunner(b *testing.B, rows int, ovs ...*engine.Overlay) (rt *Runtime, preps []*exec.Prepared, queries []string, run func(*exec.Prepared, *engine.Overlay)) {
	pool := memPool{"bench": rtBenchDataset(b, rows)}
	rt = rtCompile(b, rtBenchProject(b), Options{})
	ctx := context.Background()
	run = func(prep *exec.Prepared, o *engine.Overlay) {
		res, err := rt.Query(ctx, prep, pool, o)
		if err != nil || len(res.Errors) > 0 {
			b.Fatal(err, res.Errors)
		}
		_ = res.AppendJSON(nil)
	}
	queries = mixQueries(1000)
	preps = make([]*exec.Prepared, len(queries))
	for i, q := range queries {
		preps[i] = rtPrepare(b, rt, q)
		for _, p := range []string{"price", "name", "category"} {
			pool["bench"].Order(p)
		}
		pool["bench"].Grams("name")
		for _, o := range ovs {
			run(preps[i], o)
		}
	}
	return rt, preps, queries, run
}
