package dataset

import "github.com/RoaringBitmap/roaring/v2"

// gramChunk is the rows buildGrams gathers before adding them to the
// bitmaps: within one roaring container's span (65,536 rows), so a gram's
// rows of a chunk are one AddMany into one container; an eighth of it, so
// the gathered occurrences (12 bytes each, 23 for a name of 14 bytes)
// take about 2 MB while the index builds.
const gramChunk = 1 << 13

// gramPostings gathers the rows of each gram of one size, a chunk of rows
// at a time: a gram's slot is found in an open-addressing table (a Go map
// lookup per occurrence was half of the build), and each occurrence is
// noted in one flat list (slot, row) reused from chunk to chunk; at the
// end of a chunk the list is grouped by slot (a counting sort, rows stay
// ascending) and each touched slot's rows go to its bitmap at once. Adding
// every row to its bitmap directly cost a container search and insert per
// occurrence (2.3 s of n-grams for 1M names); a growing list per slot
// allocated about as much as the index's final size again.
type gramPostings struct {
	table   []int32 // slot+1 by hash of the gram, linear probing; 0: empty
	shift   uint    // 32 - log2(len(table))
	grams   []uint32
	bitmaps []*roaring.Bitmap
	last    []int32  // per slot: the last row noted, -1 for none
	count   []int32  // per slot: its occurrences in the chunk, then its end in rows
	occ     []uint64 // slot<<32 | row, this chunk's occurrences in row order
	rows    []uint32 // occ's rows grouped by slot
	touched []int32  // slots with occurrences in the chunk
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
	p.last = append(p.last, -1)
	p.count = append(p.count, 0)
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
// kept once). Rows come in ascending order.
func (p *gramPostings) add(k uint32, row int) {
	s := p.slot(k)
	if p.last[s] == int32(row) {
		return
	}
	p.last[s] = int32(row)
	if p.count[s] == 0 {
		p.touched = append(p.touched, s)
	}
	p.count[s]++
	p.occ = append(p.occ, uint64(s)<<32|uint64(row))
}

// flush adds the chunk's occurrences to the bitmaps.
func (p *gramPostings) flush() {
	end := int32(0)
	for _, s := range p.touched { // count becomes each slot's end in rows
		end += p.count[s]
		p.count[s] = end
	}
	if cap(p.rows) < len(p.occ) {
		p.rows = make([]uint32, len(p.occ))
	}
	rows := p.rows[:len(p.occ)]
	for i := len(p.occ) - 1; i >= 0; i-- { // backwards: rows stay ascending
		o := p.occ[i]
		s := int32(o >> 32)
		p.count[s]--
		rows[p.count[s]] = uint32(o)
	}
	for i, s := range p.touched { // count is now each slot's start
		hi := int32(len(rows))
		if i+1 < len(p.touched) {
			hi = p.count[p.touched[i+1]]
		}
		addRows(p.bitmaps[s], rows[p.count[s]:hi])
	}
	for _, s := range p.touched {
		p.count[s] = 0
	}
	p.touched, p.occ = p.touched[:0], p.occ[:0]
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

// addRows adds ascending, distinct rows to b: as one range when they are
// consecutive (a gram every text holds, like "pro" in product names: a
// run, not a bit or an array entry per row), else one by one.
func addRows(b *roaring.Bitmap, rows []uint32) {
	if n := len(rows); n > 1 && int(rows[n-1]-rows[0]) == n-1 {
		b.AddRange(uint64(rows[0]), uint64(rows[n-1])+1)
		return
	}
	b.AddMany(rows)
}
