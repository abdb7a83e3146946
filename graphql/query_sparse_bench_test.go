package graphql

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
)

// BenchmarkListMixSparseRatio runs the 1M mix with the sparse path off
// (every query on n/64-word bitsets) and at its default reach, in
// alternating slices of 50 queries on one dataset and runtime, so that the
// machine's load falls on both alike; it reports each side's time a query
// and their ratio (sparse/dense), and logs (-v) the queries whose ratio is
// the worst and the best, each side's time summed over its runs.
// MGQ_BENCH_OVERLAY=1 runs it with BenchmarkListMixOverlay's overlay;
// MGQ_SPARSE_DIV sets the sparse side's reach (sparseReach.div).
func BenchmarkListMixSparseRatio(b *testing.B) {
	const rows, slice = 1_000_000, 50
	var ov *engine.Overlay
	if os.Getenv("MGQ_BENCH_OVERLAY") == "1" {
		ov = engine.NewOverlay()
		ov.Apply(mixOverlayChanges(rows))
	}
	rt, preps, queries, runOv := mixRunner(b, rows, ov)
	run := func(prep *exec.Prepared) { runOv(prep, ov) }
	divs := []int{0, engine.DefaultSparseDiv}
	if d, err := strconv.Atoi(os.Getenv("MGQ_SPARSE_DIV")); err == nil {
		divs[1] = d
	}
	per := [2][]time.Duration{make([]time.Duration, len(preps)), make([]time.Duration, len(preps))}
	var side [2]time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i += slice {
		for k, div := range divs {
			rt.env.Sparse.Div = div
			for j := i; j < min(b.N, i+slice); j++ {
				start := time.Now()
				run(preps[j%len(preps)])
				d := time.Since(start)
				per[k][j%len(preps)] += d
				side[k] += d
			}
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(side[0].Nanoseconds())/float64(b.N), "dense-ns/query")
	b.ReportMetric(float64(side[1].Nanoseconds())/float64(b.N), "sparse-ns/query")
	b.ReportMetric(float64(side[1])/float64(max(side[0], 1)), "ratio")
	logSparseExtremes(b, queries, per)
}

// logSparseExtremes logs the queries with the worst and best sparse/dense
// time ratio (queries run once or more on each side), and the slowest
// with the sparse path.
func logSparseExtremes(b *testing.B, queries []string, per [2][]time.Duration) {
	idx := make([]int, 0, len(queries))
	for i := range queries {
		if per[0][i] > 0 && per[1][i] > 0 {
			idx = append(idx, i)
		}
	}
	ratio := func(i int) float64 { return float64(per[1][i]) / float64(per[0][i]) }
	slices.SortFunc(idx, func(x, y int) int {
		switch rx, ry := ratio(x), ratio(y); {
		case rx < ry:
			return -1
		case rx > ry:
			return 1
		}
		return 0
	})
	for k, i := range idx {
		if k < 6 || k >= len(idx)-10 {
			b.Logf("%.2f dense %v sparse %v %s", ratio(i), per[0][i], per[1][i], queries[i])
		}
	}
	slices.SortFunc(idx, func(x, y int) int { return int(per[1][y] - per[1][x]) })
	for _, i := range idx[:min(len(idx), 15)] {
		b.Logf("slowest: sparse %v dense %v %s", per[1][i], per[0][i], queries[i])
	}
}

// BenchmarkSparseReach measures single shapes over 1M rows whose driving
// condition selects from a few hundred to tens of thousands of rows, each
// as 50 distinct pages, with the sparse path off and on in alternating
// slices: the figures that set defaultSparseDiv. A price range of width w
// selects about w/1000 of the rows; a 3-digit like about 5,000 rows, a
// 4-digit one about 500. MGQ_SPARSE_DIV sets the sparse side's reach.
func BenchmarkSparseReach(b *testing.B) {
	rt, _, _, run := mixRunner(b, 1_000_000)
	for _, sh := range []struct{ name, args string }{
		{"range 0.1% + category, sort price", `minPrice: 500, maxPrice: 501, category: "toys", sortField: "price"`},
		{"range 0.5% + category, sort price", `minPrice: 500, maxPrice: 505, category: "toys", sortField: "price"`},
		{"range 1% + category, sort price", `minPrice: 500, maxPrice: 510, category: "toys", sortField: "price"`},
		{"range 1.5% + category, sort price", `minPrice: 500, maxPrice: 515, category: "toys", sortField: "price"`},
		{"range 0.5% + category, sort name desc", `minPrice: 500, maxPrice: 505, category: "toys", sortField: "name", sortDirection: DESC`},
		{"range 1.5% + category, sort name desc", `minPrice: 500, maxPrice: 515, category: "toys", sortField: "name", sortDirection: DESC`},
		{"like 3 digits + price, sort price", `q: "123", minPrice: 300, sortField: "price"`},
		{"like 3 digits + category, sort name", `q: "123", category: "toys", sortField: "name"`},
		{"like 4 digits + price, sort name desc", `q: "1234", maxPrice: 700, sortField: "name", sortDirection: DESC`},
		{"empty range, sort name", `minPrice: 600, maxPrice: 400, sortField: "name"`},
		{"range 1% alone, sort name", `minPrice: 500, maxPrice: 510, sortField: "name"`},
		{"range 3% alone, sort name", `minPrice: 500, maxPrice: 530, sortField: "name"`},
	} {
		b.Run(sh.name, func(b *testing.B) {
			var shape []*exec.Prepared
			for i := range 50 {
				shape = append(shape, rtPrepare(b, rt, fmt.Sprintf("{ mix(%s, page: %d) { total items { id name price category } } }", sh.args, i+1)))
			}
			divs := []int{0, engine.DefaultSparseDiv}
			if d, err := strconv.Atoi(os.Getenv("MGQ_SPARSE_DIV")); err == nil {
				divs[1] = d
			}
			var side [2]time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i += 50 {
				for k, div := range divs {
					rt.env.Sparse.Div = div
					start := time.Now()
					for j := i; j < min(b.N, i+50); j++ {
						run(shape[j%len(shape)], nil)
					}
					side[k] += time.Since(start)
				}
			}
			b.ReportMetric(float64(side[0].Nanoseconds())/float64(b.N), "dense-ns/query")
			b.ReportMetric(float64(side[1].Nanoseconds())/float64(b.N), "sparse-ns/query")
			b.ReportMetric(float64(side[1])/float64(max(side[0], 1)), "ratio")
		})
	}
}
