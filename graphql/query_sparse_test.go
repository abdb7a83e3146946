package graphql

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/model"
)

// randSparseQuery is a random list query that selects few rows: a narrow
// range of a sorted column, an eq on a number or a text, a like whose
// needle is 3 bytes or more (a short posting), often two of them and
// sometimes another random parameter (which may select many rows, or be a
// neq or an in: a check on the value).
func randSparseQuery(rnd *rand.Rand) diffQuery {
	q := randQuery(rnd)
	clear(q.args)
	q.page, q.size = 1+rnd.IntN(3), 1+rnd.IntN(12)
	if rnd.IntN(8) == 0 {
		q.page = 1 + rnd.IntN(40)
	}
	for n := 1 + rnd.IntN(2); n > 0; n-- {
		switch rnd.IntN(7) {
		case 0:
			x := float64(rnd.IntN(420)) / 2
			q.args["priceGte"], q.args["priceLte"] = x, x+float64(rnd.IntN(4))
		case 1:
			q.args["priceEq"] = randArg(rnd, "price", model.OpEq)
		case 2:
			q.args["nameEq"] = randArg(rnd, "name", model.OpEq)
		case 3:
			w := []rune(diffWords[rnd.IntN(len(diffWords))] + " " + diffWords[rnd.IntN(len(diffWords))] + strconv.Itoa(rnd.IntN(30)))
			i := rnd.IntN(max(1, len(w)-3))
			q.args["nameLike"] = string(w[i:min(len(w), i+3+rnd.IntN(5))])
		case 4:
			q.args["skuLike"] = fmt.Sprint(100 + rnd.IntN(900))
		case 5:
			x := rnd.IntN(1000)
			q.args["skuGte"], q.args["skuLt"] = strconv.Itoa(x), strconv.Itoa(x+1+rnd.IntN(3))
		default:
			x := float64(rnd.IntN(50))
			q.args["stockGte"], q.args["stockLte"] = x, x
		}
	}
	if rnd.IntN(3) == 0 {
		p := diffParams[rnd.IntN(len(diffParams))]
		q.args[p.name] = randArg(rnd, p.attr, p.op)
	}
	return q
}

// TestListDifferentialSparse runs queries that select few rows, and the
// usual random ones, with the sparse path always taken, never taken and at
// its default reach, between random mutations (so through the overlay's
// changed rows and live rows too) and on a variant, against the naive
// reference.
func TestListDifferentialSparse(t *testing.T) {
	for _, tc := range []struct {
		name string
		div  int
		c    listDiffCase
		gen  func(*rand.Rand) diffQuery
	}{
		{"sparse queries, always sparse", -1, listDiffCase{"", 5000, 1500, 80, 11, true, false}, randSparseQuery},
		{"sparse queries, default reach", 128, listDiffCase{"", 5000, 1500, 80, 12, true, false}, randSparseQuery},
		{"sparse queries, never sparse", 0, listDiffCase{"", 3000, 800, 40, 13, true, false}, randSparseQuery},
		{"random queries, always sparse", -1, listDiffCase{"", 3000, 1500, 80, 14, true, false}, randQuery},
		{"random queries, one runtime, always sparse", -1, listDiffCase{"", 2000, 1000, 150, 15, true, true}, randQuery},
	} {
		t.Run(tc.name, func(t *testing.T) {
			taken := 0
			runListDiff(t, tc.c, tc.gen, func(rt *Runtime) {
				rt.env.Sparse = engine.SparseReach{Div: tc.div, Taken: func() { taken++ }}
			})
			if (tc.div == 0) != (taken == 0) {
				t.Fatalf("the sparse path answered %d queries", taken)
			}
			t.Logf("the sparse path answered %d queries", taken)
		})
	}
}
