package dataset

import (
	"math/bits"
	"slices"
)

// presence maps the rows of a column that have a value to slots, the
// indexes of its value arrays, so that absent rows cost no storage. A
// column present in most rows uses a rank bitmap (a bit per row and a count
// per 64 rows, 0.19 bytes a row); a sparse one lists its rows (4 bytes a
// value), which is smaller below one row in 21. A column with a value in
// every row needs neither: its slots are its rows.
type presence struct {
	bits  []uint64 // bit r: row r has a value (bitmap form)
	ranks []uint32 // values before each word of bits
	rows  []int32  // ascending rows with a value (list form)
}

// newPresence returns the presence of rows (ascending) among n rows.
func newPresence(rows []int32, n int) *presence {
	if len(rows)*21 < n {
		return &presence{rows: slices.Clip(trim(rows))}
	}
	b := make([]uint64, (n+63)/64)
	for _, r := range rows {
		b[r>>6] |= 1 << (r & 63)
	}
	return &presence{bits: b, ranks: rankWords(b)}
}

// rankWords returns the number of bits set before each word.
func rankWords(b []uint64) []uint32 {
	ranks := make([]uint32, len(b))
	total := 0
	for w, word := range b {
		ranks[w] = uint32(total)
		total += bits.OnesCount64(word)
	}
	return ranks
}

// slot returns the slot of row, or -1 when the row has no value. row must
// be in range.
func (p *presence) slot(row int) int {
	if p.bits != nil {
		w, m := row>>6, uint64(1)<<(row&63)
		if p.bits[w]&m == 0 {
			return -1
		}
		return int(p.ranks[w]) + bits.OnesCount64(p.bits[w]&(m-1))
	}
	if i, ok := slices.BinarySearch(p.rows, int32(row)); ok {
		return i
	}
	return -1
}

// count returns the number of rows with a value.
func (p *presence) count() int {
	if p.bits == nil {
		return len(p.rows)
	}
	if len(p.bits) == 0 {
		return 0
	}
	last := len(p.bits) - 1
	return int(p.ranks[last]) + bits.OnesCount64(p.bits[last])
}

func (p *presence) memoryBytes() int64 {
	if p == nil {
		return 0
	}
	return 8*int64(cap(p.bits)) + 4*int64(cap(p.ranks)) + 4*int64(cap(p.rows)) + 80
}
