package dataset

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// The sorts of a column's numbers and texts for Sorted are radix sorts on
// 64-bit keys: a comparison sort of a million rows cost 0.7–0.9 s a column
// on one core (a closure call, two values read at random and a compare per
// step), these a few passes over memory. They sort in place (most
// significant byte first, the American flag sort), so their only scratch
// is the keys, 8 bytes a row: a least-significant-first sort needs keys
// and rows twice, 20 bytes a row, and index builds run while queries
// allocate, so their temporaries raise the collector's heap goal.
//
// Contract (Sorted's): rows ascending by Compare, ties in storage order.
// The rows come in ascending (sortColumn's counting sort keeps storage
// order), so ties in storage order are ties ordered by row number, which
// lets the sorts be unstable and order each run of equal values after.

// flagSort sorts keys ascending by their bytes from the one at shift down,
// moving rows along; not stable.
func flagSort(keys []uint64, rows []int32, shift uint) {
	for len(keys) >= 32 {
		var count [256]int
		for _, k := range keys {
			count[byte(k>>shift)]++
		}
		if count[byte(keys[0]>>shift)] < len(keys) {
			flagPermute(keys, rows, shift, &count)
			if shift > 0 {
				for lo, b := 0, 0; b < 256; b++ {
					if hi := lo + count[b]; hi-lo > 1 {
						flagSort(keys[lo:hi], rows[lo:hi], shift-8)
					}
					lo += count[b]
				}
			}
			return
		}
		if shift == 0 {
			return // every key has this byte, and it is the last
		}
		shift -= 8
	}
	insertionSort(keys, rows)
}

// flagPermute moves every key (and its row) into its byte's bucket, in
// place: count holds each bucket's size.
func flagPermute(keys []uint64, rows []int32, shift uint, count *[256]int) {
	var next, end [256]int
	sum := 0
	for b := range count {
		next[b] = sum
		sum += count[b]
		end[b] = sum
	}
	for b := range 256 {
		for next[b] < end[b] {
			i := next[b]
			k, r := keys[i], rows[i]
			for d := int(byte(k >> shift)); d != b; d = int(byte(k >> shift)) {
				j := next[d]
				next[d]++
				keys[j], k = k, keys[j]
				rows[j], r = r, rows[j]
			}
			keys[i], rows[i] = k, r
			next[b]++
		}
	}
}

func insertionSort(keys []uint64, rows []int32) {
	for i := 1; i < len(keys); i++ {
		k, r := keys[i], rows[i]
		j := i
		for ; j > 0 && keys[j-1] > k; j-- {
			keys[j], rows[j] = keys[j-1], rows[j-1]
		}
		keys[j], rows[j] = k, r
	}
}

// sortRuns orders by row each run of rows whose keys are equal.
func sortRuns(keys []uint64, rows []int32) {
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j] == keys[i] {
			j++
		}
		if j-i > 1 {
			slices.Sort(rows[i:j])
		}
		i = j
	}
}

// numberKey maps a number to a uint64 whose unsigned order is the
// number's (NaN aside: JSON has none); -0 and 0 compare equal, so they
// share a key.
func numberKey(f float64) uint64 {
	if f == 0 {
		f = 0
	}
	b := math.Float64bits(f)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}

// sortNumbers orders rows (ascending) holding numbers by value, ties by
// row.
func sortNumbers(c *Column, rows []int32) {
	if len(rows) < 2 {
		return
	}
	keys := make([]uint64, len(rows))
	top := uint(56)
	for i, r := range rows {
		s := c.slot(int(r))
		if c.ints != nil {
			keys[i] = uint64(uint32(c.ints[s]) ^ 1<<31) // int32 order as unsigned
		} else {
			keys[i] = numberKey(c.nums[s])
		}
	}
	if c.ints != nil {
		top = 24 // the keys' high four bytes are zero
	}
	flagSort(keys, rows, top)
	sortRuns(keys, rows)
}

// smallTextSort is the group size below which texts are compared rather
// than radix sorted.
const smallTextSort = 48

// sortTextsRadix orders rows (ascending) holding texts (of one kind) by
// text, ties by row: a most-significant-first sort by 8-byte chunks, each
// chunk's level a radix sort of the rows that share every chunk before it.
func sortTextsRadix(c *Column, rows []int32) {
	if len(rows) < 2 {
		return
	}
	s := textSorter{c: c}
	s.sort(rows, make([]uint64, len(rows)), 0)
}

// textSorter carries a text sort's column.
type textSorter struct{ c *Column }

func (s *textSorter) text(r int32) string { return s.c.textAt(int(r)) }

// sort orders rows, whose texts all share their first depth bytes and are
// all longer than depth (but at depth 0), by the rest of their text, ties
// by row. keys is scratch of len(rows).
func (s *textSorter) sort(rows []int32, keys []uint64, depth int) {
	if len(rows) < smallTextSort {
		slices.SortFunc(rows, func(a, b int32) int {
			return cmp.Or(strings.Compare(s.text(a)[depth:], s.text(b)[depth:]), cmp.Compare(a, b))
		})
		return
	}
	for i, r := range rows {
		keys[i] = chunk(s.text(r), depth)
	}
	flagSort(keys, rows, 56)
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && keys[j] == keys[i] {
			j++
		}
		if j-i > 1 {
			s.group(rows[i:j], keys[i:j], depth)
		}
		i = j
	}
}

// group orders rows of one equal chunk at depth: the texts that end
// within the chunk come first, shorter first (the chunk pads them with
// zero bytes, so equal chunks of different lengths are a text and that
// text followed by zero bytes; equal lengths are equal texts), ties by
// row, then the longer texts ordered by their next chunks.
func (s *textSorter) group(rows []int32, keys []uint64, depth int) {
	end := depth + 8
	short, long := 0, len(rows)
	for short < long { // partition: texts ending here first
		if len(s.text(rows[short])) <= end {
			short++
		} else {
			long--
			rows[short], rows[long] = rows[long], rows[short]
		}
	}
	if short > 1 {
		slices.SortFunc(rows[:short], func(a, b int32) int {
			return cmp.Or(cmp.Compare(len(s.text(a)), len(s.text(b))), cmp.Compare(a, b))
		})
	}
	if len(rows)-short > 1 {
		s.sort(rows[short:], keys[short:], end)
	}
}

// chunk returns the 8 bytes of t from depth, big-endian, padded with
// zero bytes past its end.
func chunk(t string, depth int) uint64 {
	var k uint64
	for i := range 8 {
		k <<= 8
		if depth+i < len(t) {
			k |= uint64(t[depth+i])
		}
	}
	return k
}
