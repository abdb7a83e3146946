package dataset

import "github.com/RoaringBitmap/roaring/v2"

// gramChunk is the rows buildGrams gathers before adding them to the
// bitmaps: one roaring container's span, so a gram's rows of a chunk are
// one AddMany into one container.
const gramChunk = 1 << 16

// gramPostings gathers the rows of each gram of one size, a chunk of rows
// at a time: a gram's slot is found by one map lookup per occurrence and
// its rows appended to a slice; at the end of a chunk each touched slot's
// rows go to its bitmap at once. Adding every row to its bitmap directly
// cost a container search and insert per occurrence (2.3 s of n-grams for
// 1M names, the largest share of indexing).
type gramPostings struct {
	slots   map[uint32]int32
	bitmaps []*roaring.Bitmap
	pending [][]uint32 // per slot: rows of the current chunk
	touched []int32    // slots with pending rows
}

func newGramPostings() *gramPostings {
	return &gramPostings{slots: map[uint32]int32{}}
}

// add records row under gram k (once per row: a row's repeated gram is
// kept once).
func (p *gramPostings) add(k uint32, row int) {
	s, ok := p.slots[k]
	if !ok {
		s = int32(len(p.bitmaps))
		p.slots[k] = s
		p.bitmaps = append(p.bitmaps, roaring.New())
		p.pending = append(p.pending, nil)
	}
	l := p.pending[s]
	if len(l) == 0 {
		p.touched = append(p.touched, s)
	} else if l[len(l)-1] == uint32(row) {
		return
	}
	p.pending[s] = append(l, uint32(row))
}

// flush adds the pending rows to the bitmaps.
func (p *gramPostings) flush() {
	for _, s := range p.touched {
		p.bitmaps[s].AddMany(p.pending[s])
		p.pending[s] = p.pending[s][:0]
	}
	p.touched = p.touched[:0]
}

// done flushes and returns the bitmaps by gram.
func (p *gramPostings) done() map[uint32]*roaring.Bitmap {
	p.flush()
	out := make(map[uint32]*roaring.Bitmap, len(p.slots))
	for k, s := range p.slots {
		out[k] = p.bitmaps[s]
	}
	return out
}
