package engine

import (
	"math/bits"
	"slices"
	"sort"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/mockgql/mockgql/dataset"
)

// This file selects pages of rows: from row bitsets (words of 64 rows,
// nil meaning every row), from dataset orders (positions, ranks, ties) and
// from sorted row lists, the primitives under graphql's indexed list pages,
// power walks and the overlay's rank lists.

// diffSorted returns the values only in a and those only in b, both
// ascending and without repeats.
func diffSorted(a, b []int32) (onlyA, onlyB []int32) {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i] < b[j]):
			onlyA = append(onlyA, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			onlyB = append(onlyB, b[j])
			j++
		default:
			i, j = i+1, j+1
		}
	}
	return onlyA, onlyB
}

// rankList returns the ranks of rows in ord, ascending.
func rankList(ord *dataset.Order, rows []int32) []int32 {
	out := make([]int32, len(rows))
	for i, r := range rows {
		out[i] = ord.Rank(r)
	}
	slices.Sort(out)
	return out
}

// patchSorted returns the ascending multiset sorted less one copy of each
// of remove (all in sorted) plus add, both ascending.
func patchSorted(sorted, remove, add []int32) []int32 {
	out := make([]int32, 0, len(sorted)-len(remove)+len(add))
	k := 0
	for _, v := range sorted {
		if len(remove) > 0 && remove[0] == v {
			remove = remove[1:]
			continue
		}
		for k < len(add) && add[k] < v {
			out = append(out, add[k])
			k++
		}
		out = append(out, v)
	}
	return append(out, add[k:]...)
}

// andWords intersects dst with a (at least as long).
func andWords(dst, a []uint64) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] &= a[i]
	}
}

// andNotWords removes a's rows from dst (a at least as long).
func andNotWords(dst, a []uint64) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] &^= a[i]
	}
}

// selectBits returns the set bits number skip..limit-1 of acc, ascending.
func selectBits(acc []uint64, skip, limit int) []int32 {
	out := make([]int32, 0, limit-skip)
	seen := 0
	for w, word := range acc {
		c := bits.OnesCount64(word)
		if seen+c <= skip {
			seen += c
			continue
		}
		for word != 0 {
			if seen >= skip {
				out = append(out, int32(w<<6+bits.TrailingZeros64(word)))
				if len(out) == limit-skip {
					return out
				}
			}
			seen++
			word &= word - 1
		}
	}
	return out
}

// hasBit reports whether r is in acc, where a nil acc holds every row.
func hasBit(acc []uint64, r int32) bool {
	return acc == nil || acc[r>>6]&(1<<(uint(r)&63)) != 0
}

// walkOrder walks ord's positions [lo, hi) ascending, or descending by
// tie groups each visited forwards (a stable descending sort), keeping
// the members of acc (nil: all rows) not in excl (nil: none) at member
// positions skip..limit-1. It gives up (ok false) after budget positions.
func walkOrder(acc []uint64, excl *ChunkedBits, ord *dataset.Order, desc bool, lo, hi, skip, limit int, budget int64) (out []int32, ok bool) {
	out = make([]int32, 0, limit-skip)
	seen := 0
	rows := ord.Rows()[:hi]
	if !desc {
		for i := lo; i < hi; i++ {
			if int64(i-lo) > budget {
				return nil, false
			}
			if r := rows[i]; hasBit(acc, r) && !excl.Has(r) {
				if seen >= skip {
					out = append(out, r)
				}
				if seen++; seen == limit {
					break
				}
			}
		}
		return out, true
	}
	for i := hi - 1; i >= lo; {
		if int64(hi-1-i) > budget {
			return nil, false
		}
		g := max(lo, int(ord.Rank(rows[i])))
		for _, r := range rows[g : i+1] {
			if hasBit(acc, r) && !excl.Has(r) {
				if seen >= skip {
					out = append(out, r)
				}
				if seen++; seen == limit {
					return out, true
				}
			}
		}
		i = g - 1
	}
	return out, true
}

// descPage returns the rows at places skip..limit-1 of ord's positions
// [lo, hi) read as walkOrder reads them descending (tie groups from the
// top, each forwards), every row a member, without walking the skipped
// places: the first place taken lies in the tie group holding position
// hi-1-skip, found by its rank and one binary search for its end. A deep
// page costs O(page + log n), not O(page × pageSize).
func descPage(ord *dataset.Order, lo, hi, skip, limit int) []int32 {
	limit = min(limit, hi-lo)
	if skip >= limit {
		return nil
	}
	rows := ord.Rows()
	out := make([]int32, 0, limit-skip)
	i := hi - 1 - skip
	rank := ord.Rank(rows[i])
	g := max(lo, int(rank))
	e := i + sort.Search(hi-i, func(k int) bool { return ord.Rank(rows[i+k]) != rank }) - 1
	from := g + skip - (hi - 1 - e)
	for {
		take := rows[from : e+1]
		if need := limit - skip - len(out); len(take) >= need {
			return append(out, take[:need]...)
		}
		out = append(out, take...)
		if e = g - 1; e < lo {
			return out
		}
		g = max(lo, int(ord.Rank(rows[e])))
		from = g
	}
}

// selectByRank collects the members of acc keyed by (rank, row), or
// (-rank, row) descending, keeps the keys of the rank buckets that hold
// the first limit members, and sorts only the page's among those
// (smallestRows): O(total) plus a small sort, where a walk of the order
// would step over many non-members.
func selectByRank(acc []uint64, ord *dataset.Order, desc bool, total, skip, limit int) []int32 {
	const buckets = 1024
	n := ord.Len()
	key := func(r int32) uint64 {
		rank := uint64(ord.Rank(r))
		if desc {
			rank = uint64(n-1) - rank
		}
		return rank<<32 | uint64(uint32(r))
	}
	bucketOf := func(k uint64) int { return int(k>>32) * buckets / n }
	// One pass when the members spread evenly enough: keep the buckets
	// that should hold twice the members needed.
	guess := min(buckets-1, 2*limit*buckets/total+2)
	keys := collectKeys(acc, key, func(k uint64) bool { return bucketOf(k) <= guess }, 4*limit)
	if len(keys) < limit && guess < buckets-1 { // bunched: count, then keep
		var counts [buckets]int
		forBits(acc, func(r int32) { counts[bucketOf(key(r))]++ })
		cut, sum := 0, 0
		for cut < buckets-1 && sum+counts[cut] < limit {
			sum += counts[cut]
			cut++
		}
		keys = collectKeys(acc, key, func(k uint64) bool { return bucketOf(k) <= cut }, sum+counts[cut])
	}
	return smallestRows(keys, skip, limit)
}

// collectKeys returns the keys of the members of acc that keep accepts.
func collectKeys(acc []uint64, key func(int32) uint64, keep func(uint64) bool, capacity int) []uint64 {
	keys := make([]uint64, 0, capacity)
	forBits(acc, func(r int32) {
		if k := key(r); keep(k) {
			keys = append(keys, k)
		}
	})
	return keys
}

// forBits calls f with the members of acc, ascending.
func forBits(acc []uint64, f func(int32)) {
	for w, word := range acc {
		for word != 0 {
			f(int32(w<<6 + bits.TrailingZeros64(word)))
			word &= word - 1
		}
	}
}

// bitsBefore returns, descending, the last limit members of acc (nil:
// every row) below row to.
func bitsBefore(acc []uint64, to int32, limit int) []int32 {
	out := make([]int32, 0, max(0, min(limit, int(to))))
	if acc == nil {
		for r := to - 1; r >= 0 && len(out) < limit; r-- {
			out = append(out, r)
		}
		return out
	}
	if to <= 0 {
		return out
	}
	top := int(to-1) >> 6
	for w := top; w >= 0 && len(out) < limit; w-- {
		word := acc[w]
		if n := uint(to-1)&63 + 1; w == top && n < 64 {
			word &= 1<<n - 1
		}
		for word != 0 && len(out) < limit {
			b := 63 - bits.LeadingZeros64(word)
			out = append(out, int32(w<<6+b))
			word &^= 1 << uint(b)
		}
	}
	return out
}

// mergeBack merges back (nearest first) and live (in order) and returns
// the last limit rows of the two, in order.
func mergeBack(back, live []int32, order func(a, b int32) int, limit int) []int32 {
	out := make([]int32, 0, min(limit, len(back)+len(live)))
	i, j := 0, len(live)-1
	for len(out) < limit && (i < len(back) || j >= 0) {
		if j < 0 || (i < len(back) && order(back[i], live[j]) > 0) {
			out = append(out, back[i])
			i++
		} else {
			out = append(out, live[j])
			j--
		}
	}
	slices.Reverse(out)
	return out
}

// mergeOrdered merges base and live, each in order, and returns the first
// limit rows.
func mergeOrdered(base, live []int32, order func(a, b int32) int, limit int) []int32 {
	out := make([]int32, 0, min(limit, len(base)+len(live)))
	i, j := 0, 0
	for len(out) < limit && (i < len(base) || j < len(live)) {
		if j == len(live) || (i < len(base) && order(base[i], live[j]) < 0) {
			out = append(out, base[i])
			i++
		} else {
			out = append(out, live[j])
			j++
		}
	}
	return out
}

// bitsFrom returns the first limit members of acc (nil: rows 0..n-1)
// from row from on, ascending.
func bitsFrom(acc []uint64, from, n int32, limit int) []int32 {
	out := make([]int32, 0, limit)
	if acc == nil {
		for r := from; r < n && len(out) < limit; r++ {
			out = append(out, r)
		}
		return out
	}
	for w := int(from >> 6); w < len(acc) && len(out) < limit; w++ {
		word := acc[w]
		if w == int(from>>6) {
			word &^= (1 << (uint(from) & 63)) - 1
		}
		for word != 0 && len(out) < limit {
			out = append(out, int32(w<<6+bits.TrailingZeros64(word)))
			word &= word - 1
		}
	}
	return out
}

// appendPosting appends the rows of b (fewer than 2^31) ascending, read
// len(buf) at a time.
func appendPosting(dst []int32, b *roaring.Bitmap, buf []uint32) []int32 {
	it := b.ManyIterator()
	for n := it.NextMany(buf[:]); n > 0; n = it.NextMany(buf[:]) {
		for _, r := range buf[:n] {
			dst = append(dst, int32(r))
		}
	}
	return dst
}

// boolToInt is 1 for true, 0 for false.
func boolToInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// filterRows keeps the rows that pass keep, in place.
func filterRows(rows []int32, keep func(int32) bool) []int32 {
	n := 0
	for _, r := range rows {
		if keep(r) {
			rows[n] = r
			n++
		}
	}
	return rows[:n]
}

// rankKeys appends the sort keys of rows: (rank, row), or (-rank, row)
// descending, or the row alone in storage order (ord nil); ascending keys
// are the query's order.
func rankKeys(rows []int32, ord *dataset.Order, desc bool, keys []uint64) []uint64 {
	if ord == nil {
		for _, r := range rows {
			keys = append(keys, uint64(uint32(r)))
		}
		return keys
	}
	top := uint64(ord.Len() - 1)
	for _, r := range rows {
		rank := uint64(ord.Rank(r))
		if desc {
			rank = top - rank
		}
		keys = append(keys, rank<<32|uint64(uint32(r)))
	}
	return keys
}

// smallestRows returns the rows of the keys at places skip..limit-1 of
// their ascending order: the limit smallest moved to the front by
// selection, the skip smallest of those moved before them, and only the
// page between sorted (a deep page sorts its 20 keys, not the page ×
// pageSize before them). keys is reordered.
func smallestRows(keys []uint64, skip, limit int) []int32 {
	limit = min(limit, len(keys))
	skip = min(skip, limit)
	selectSmallest(keys, limit)
	selectSmallest(keys[:limit], skip)
	slices.Sort(keys[skip:limit])
	out := make([]int32, 0, limit-skip)
	for _, k := range keys[skip:limit] {
		out = append(out, int32(uint32(k)))
	}
	return out
}

// selectSmallest reorders keys so that its m smallest come first, in any
// order (quickselect: O(len) expected).
func selectSmallest(keys []uint64, m int) {
	lo, hi := 0, len(keys)
	for hi-lo > 16 && m > lo && m < hi {
		mid := lo + (hi-lo)/2
		pivot := median3(keys[lo], keys[mid], keys[hi-1])
		i, j := lo, hi-1
		for i <= j {
			for keys[i] < pivot {
				i++
			}
			for keys[j] > pivot {
				j--
			}
			if i <= j {
				keys[i], keys[j] = keys[j], keys[i]
				i++
				j--
			}
		}
		// keys[lo..j] <= pivot <= keys[i..hi-1]; between them equal to it.
		switch {
		case m <= j+1:
			hi = j + 1
		case m >= i:
			lo = i
		default:
			return
		}
	}
	if hi-lo > 1 && m > lo && m < hi {
		slices.Sort(keys[lo:hi])
	}
}

func median3(a, b, c uint64) uint64 {
	if a > b {
		a, b = b, a
	}
	if b > c {
		b = c
	}
	return max(a, b)
}
