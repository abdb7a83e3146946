package dataset

import "github.com/RoaringBitmap/roaring/v2"

// gramChunk is the rows buildGrams gathers before adding them to the
// bitmaps: within one roaring container's span (65,536 rows), so a gram's
// rows of a chunk are one AddMany into one container; an eighth of it, so
// the gathered rows (about 4 bytes per gram occurrence, 23 a name of 14
// bytes) take under a MB, not 9 MB, while the index builds.
const gramChunk = 1 << 13

// gramPostings gathers the rows of each gram of one size, a chunk of rows
// at a time: a gram's slot is found in an open-addressing table (a Go map
// lookup per occurrence was half of the build) and its rows appended to a
// slice; at the end of a chunk each touched slot's rows go to its bitmap
// at once. Adding every row to its bitmap directly cost a container
// search and insert per occurrence (2.3 s of n-grams for 1M names).
type gramPostings struct {
	table   []int32 // slot+1 by hash of the gram, linear probing; 0: empty
	shift   uint    // 32 - log2(len(table))
	grams   []uint32
	bitmaps []*roaring.Bitmap
	pending [][]uint32 // per slot: rows of the current chunk
	touched []int32    // slots with pending rows
}

func newGramPostings() *gramPostings {
	return &gramPostings{table: make([]int32, 1<<10), shift: 32 - 10}
}

// slot returns the slot of gram k, adding it.
func (p *gramPostings) slot(k uint32) int32 {
	mask := uint32(len(p.table) - 1)
	for i := (k * 0x9E3779B1) >> p.shift; ; i = (i + 1) & mask {
		s := p.table[i] - 1
		if s < 0 {
			break
		}
		if p.grams[s] == k {
			return s
		}
	}
	s := int32(len(p.grams))
	p.grams = append(p.grams, k)
	p.bitmaps = append(p.bitmaps, roaring.New())
	p.pending = append(p.pending, nil)
	if 2*len(p.grams) > len(p.table) {
		p.grow()
	} else {
		p.place(k, s)
	}
	return s
}

// place puts slot s of gram k in the table.
func (p *gramPostings) place(k uint32, s int32) {
	mask := uint32(len(p.table) - 1)
	i := (k * 0x9E3779B1) >> p.shift
	for p.table[i] != 0 {
		i = (i + 1) & mask
	}
	p.table[i] = s + 1
}

// grow doubles the table and places every slot again.
func (p *gramPostings) grow() {
	p.table = make([]int32, 2*len(p.table))
	p.shift--
	for s, k := range p.grams {
		p.place(k, int32(s))
	}
}

// add records row under gram k (once per row: a row's repeated gram is
// kept once).
func (p *gramPostings) add(k uint32, row int) {
	s := p.slot(k)
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
	out := make(map[uint32]*roaring.Bitmap, len(p.grams))
	for s, k := range p.grams {
		out[k] = p.bitmaps[s]
	}
	return out
}
