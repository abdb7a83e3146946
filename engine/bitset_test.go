package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mockgql/mockgql/dataset"
)

// TestChunkedBitsEdits applies random sets and clears to chains of
// ChunkedBits versions and requires each to equal a plain Bitset edited
// alike, the versions before it unchanged, the chunks it did not touch
// shared with its parent, and andNotInto and andNotCount to remove exactly its rows.
func TestChunkedBitsEdits(t *testing.T) {
	for _, tc := range []struct {
		name       string
		n, edits   int
		rowsSpread int // rows edited lie in [0, rowsSpread)
	}{
		{"empty", 0, 0, 1},
		{"one partial chunk", 100, 30, 100},
		{"chunk boundary", chunkWords*64 + 1, 40, chunkWords*64 + 1},
		{"many chunks, few edits", 50_000, 5, 50_000},
		{"many chunks, clustered", 50_000, 200, 3_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(uint64(tc.n), 1))
			var prev *ChunkedBits
			var prevDense []uint64
			want := newBitset(tc.n)
			for version := 0; version < 8; version++ {
				e := editChunks(prev, tc.n)
				touched := map[int]bool{}
				for i := 0; i < tc.edits; i++ {
					r := int32(rnd.IntN(tc.rowsSpread))
					touched[int(r>>6)/chunkWords] = true
					if rnd.IntN(3) == 0 {
						e.Clear(r)
						want.Words[r>>6] &^= 1 << (uint(r) & 63)
					} else {
						e.Set(r)
						want.Set(r)
					}
				}
				got := e.Done()
				requireBitsEqual(t, got, want)
				if prev != nil {
					if !slices.Equal(prev.dense(), prevDense) {
						t.Fatalf("version %d changed its parent", version)
					}
					for ci := range got.chunks {
						if !touched[ci] && got.chunks[ci] != prev.chunks[ci] {
							t.Fatalf("version %d copied untouched chunk %d", version, ci)
						}
					}
				}
				prev, prevDense = got, got.dense()
			}
		})
	}
}

func requireBitsEqual(tb testing.TB, got *ChunkedBits, want *Bitset) {
	tb.Helper()
	if !slices.Equal(got.dense(), want.Words) {
		tb.Fatal("chunked bits differ from the plain bitset")
	}
	all := make([]uint64, len(want.Words))
	for i := range all {
		all[i] = ^uint64(0)
	}
	left := slices.Clone(all)
	got.andNotInto(all)
	if n := got.andNotCount(left); n != dataset.Count(all) || !slices.Equal(left, all) {
		tb.Fatalf("andNotCount left %d rows, want %d", n, dataset.Count(all))
	}
	for w := range all {
		for bit := 0; bit < 64; bit++ {
			r := int32(w*64 + bit)
			in := want.Has(r)
			if got.Has(r) != in || (all[w]&(1<<bit) == 0) != in {
				tb.Fatalf("row %d: has %v, andNot %v, want %v", r, got.Has(r), all[w]&(1<<bit) == 0, in)
			}
		}
	}
}
