package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBitsBefore compares bitsBefore with a naive reading of the bitset,
// for every row (nil: every row) and random bitsets, at word edges.
func TestBitsBefore(t *testing.T) {
	rnd := rand.New(rand.NewPCG(14, 1))
	for _, tc := range []struct {
		name string
		n    int32
		fill int // one bit in fill set; 0: a nil bitset (every row)
	}{
		{"every row", 200, 0},
		{"dense", 200, 1},
		{"half", 200, 2},
		{"sparse", 300, 17},
		{"one word", 64, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var acc []uint64
			if tc.fill > 0 {
				acc = make([]uint64, (tc.n+63)/64)
				for r := int32(0); r < tc.n; r++ {
					if rnd.IntN(tc.fill) == 0 {
						acc[r>>6] |= 1 << (uint(r) & 63)
					}
				}
			}
			for _, to := range []int32{0, 1, 63, 64, 65, 127, 128, tc.n - 1, tc.n} {
				for _, limit := range []int{0, 1, 5, 1000} {
					if got, want := bitsBefore(acc, min(to, tc.n), limit), naiveBefore(acc, min(to, tc.n), limit); !slices.Equal(got, want) {
						t.Fatalf("to %d limit %d: %v, want %v", to, limit, got, want)
					}
				}
			}
		})
	}
}

func naiveBefore(acc []uint64, to int32, limit int) []int32 {
	out := []int32{}
	for r := to - 1; r >= 0 && len(out) < limit; r-- {
		if hasBit(acc, r) {
			out = append(out, r)
		}
	}
	return out
}
