package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/dataset"
)

// TestDescPageMatchesWalk: jumping to a descending page gives the rows
// walking the order from the top gives, for columns with many ties, few
// ties and mixed types, any range of positions and any page.
func TestDescPageMatchesWalk(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 7))
	for _, distinct := range []int{1, 3, 40, 1000} {
		var b strings.Builder
		for i := range 600 {
			switch v := rnd.IntN(distinct); {
			case i%97 == 0:
				fmt.Fprintf(&b, `{"v":null}`+"\n")
			case v%5 == 0:
				fmt.Fprintf(&b, `{"v":"t%d"}`+"\n", v)
			default:
				fmt.Fprintf(&b, `{"v":%d}`+"\n", v)
			}
		}
		d, err := dataset.Read(strings.NewReader(b.String()), dataset.Options{ImportCode: "d", Format: dataset.NDJSON})
		if err != nil {
			t.Fatal(err)
		}
		ord := d.Order("v")
		n := ord.Len()
		for range 400 {
			lo := rnd.IntN(n)
			hi := lo + rnd.IntN(n-lo+1)
			skip, limit := rnd.IntN(hi-lo+2), rnd.IntN(hi-lo+3)
			got := descPage(ord, lo, hi, skip, limit)
			if skip >= min(limit, hi-lo) {
				if got != nil {
					t.Fatalf("positions [%d,%d), places %d..%d: got %v, want none", lo, hi, skip, limit, got)
				}
				continue
			}
			want, _ := walkOrder(nil, nil, ord, true, lo, hi, skip, min(limit, hi-lo), int64(n)+1)
			if !slices.Equal(got, want) {
				t.Fatalf("distinct %d, positions [%d,%d), places %d..%d: got %v, want %v", distinct, lo, hi, skip, limit, got, want)
			}
		}
	}
}
