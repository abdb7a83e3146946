package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSmallestRows checks the partial selection against a full sort, on
// keys with many ties, runs, and every skip and limit.
func TestSmallestRows(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 3))
	for _, tc := range []struct {
		name   string
		n, mod int
	}{
		{"empty", 0, 1}, {"one", 1, 5}, {"small", 12, 5}, {"ties", 500, 3},
		{"distinct", 2000, 1 << 30}, {"sorted", 300, -1}, {"reversed", 300, -2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for trial := 0; trial < 40; trial++ {
				keys := make([]uint64, tc.n)
				for i := range keys {
					switch tc.mod {
					case -1:
						keys[i] = uint64(i)
					case -2:
						keys[i] = uint64(tc.n - i)
					default:
						keys[i] = uint64(rnd.IntN(tc.mod))<<32 | uint64(rnd.IntN(4))
					}
				}
				want := slices.Clone(keys)
				slices.Sort(want)
				skip, limit := rnd.IntN(tc.n+2), rnd.IntN(tc.n+3)
				got := smallestRows(slices.Clone(keys), skip, limit)
				var exp []int32
				for _, k := range want[min(skip, min(limit, tc.n)):min(limit, tc.n)] {
					exp = append(exp, int32(uint32(k)))
				}
				if len(got) != len(exp) || (len(exp) > 0 && !slices.Equal(got, exp)) {
					t.Fatalf("skip %d limit %d of %v: %v, want %v", skip, limit, keys, got, exp)
				}
			}
		})
	}
}
