package dataset

import "math/bits"

// Order is the index of one leaf column that answers comparisons and sorts
// without reading every row:
//
//   - Rows: the rows sorted by value ascending, ties in storage order (the
//     order Sorted gives). Values of one Kind form one contiguous section,
//     sections in Compare's kind order, so every eq, neq, gt, gte, lt, lte
//     is one or two ranges of positions, found by binary search.
//   - rank: per row, the position of the first row of its tie group, so
//     that rows sort ascending by (rank, row) and descending, ties in
//     storage order (a stable descending sort), by (-rank, row).
//   - prefix bitsets every step positions: prefix j holds the rows at
//     positions [0, j·step). The rows of positions [lo, hi) are then two
//     prefixes combined word by word plus at most 2·step single bits.
//
// Memory per row: 4 bytes (Rows, shared with Sorted) + 4 (rank; none for
// a column whose every row holds a dictionary-coded text: its rank is its
// code's) + prefixes/8 (prefixes bits: at most orderPrefixes). An Order is immutable
// and safe for concurrent use.
type Order struct {
	col      *Column
	n        int
	rows     []int32
	rank     []int32           // per row; nil when codeRank serves
	codeRank []int32           // per dictionary entry, for columns of coded texts only
	sections [numKinds + 1]int // sections[k]..sections[k+1]: positions of Kind k
	step     int               // positions between prefixes; 0: none
	words    int               // words per bitset
	prefix   []uint64          // prefix j (1..len-1) at [(j-1)·words, j·words)
}

const numKinds = int(Raw) + 1

// orderPrefixes is the most prefix bitsets an Order keeps: at a million
// rows 32 bitsets of 125 KB (4 MB, 4 bytes a row) bound the single bits a
// range sets to 2 · 31,250.
const orderPrefixes = 64

// minPrefixStep is the smallest step: below it a range is set bit by bit.
const minPrefixStep = 256

// Order returns the index of a leaf column, built on first use per path
// (concurrent first callers of one path wait for one build; other paths
// are not held up), or nil when path is not a leaf column.
func (d *Dataset) Order(path string) *Order {
	if !d.orderable(path) {
		return nil
	}
	l := lazyEntry(d, &d.orders, path)
	if o := l.ready.Load(); o != nil { // no closure: queries call this often
		return o
	}
	return l.get(d.orderBuilder(path))
}

// OrderReady returns the Order of a leaf column if it is built; else it
// starts building it in the background (once) and returns nil, so that
// the caller can answer from a scan meanwhile instead of waiting: the
// first query on a column never waits for its index.
func (d *Dataset) OrderReady(path string) *Order {
	if !d.orderable(path) {
		return nil
	}
	l := lazyEntry(d, &d.orders, path)
	if o := l.ready.Load(); o != nil {
		return o
	}
	return l.getReady(d.orderBuilder(path))
}

func (d *Dataset) orderable(path string) bool {
	return d.byPath[path] != nil && d.objects[path] == nil
}

func (d *Dataset) orderBuilder(path string) func() *Order {
	return func() *Order {
		o := newOrder(d.byPath[path], d.Sorted(path))
		d.indexes.Add(o.memoryBytes())
		return o
	}
}

func newOrder(c *Column, rows []int32) *Order {
	o := &Order{col: c, n: len(rows), rows: rows, words: (len(rows) + 63) / 64}
	for i := range o.sections {
		o.sections[i] = -1
	}
	if entries := c.codedTexts(); entries > 0 {
		o.rankCodes(entries)
	} else {
		o.rankRows()
	}
	next := o.n
	for k := numKinds; k >= 0; k-- {
		if k == numKinds || o.sections[k] < 0 {
			o.sections[k] = next
		}
		next = o.sections[k]
	}
	o.buildPrefixes()
	return o
}

// rankCodes fills the ranks of a column whose every row holds a
// dictionary-coded text: per entry, the first position of its rows (equal
// texts have one code), so the rows need no ranks of their own.
func (o *Order) rankCodes(entries int) {
	o.codeRank = make([]int32, entries)
	seen := make([]bool, entries)
	for pos, r := range o.rows {
		if k := o.col.code(int(r)); !seen[k] {
			seen[k], o.codeRank[k] = true, int32(pos)
		}
	}
	if o.n > 0 {
		o.sections[String] = 0
	}
}

// rankRows fills each row's rank and the kind sections.
func (o *Order) rankRows() {
	c, rows := o.col, o.rows
	o.rank = make([]int32, len(rows))
	start := 0
	var prev Value
	for pos, r := range rows {
		v := c.Value(int(r))
		if pos == 0 || Compare(v, prev) != 0 {
			start = pos
		}
		if o.sections[v.Kind] < 0 {
			o.sections[v.Kind] = pos
		}
		o.rank[r] = int32(start)
		prev = v
	}
}

// buildPrefixes fills the prefix bitsets: each one the previous plus the
// next step rows.
func (o *Order) buildPrefixes() {
	step := max(minPrefixStep, (o.n+orderPrefixes-1)/orderPrefixes)
	if o.n <= 2*step {
		return
	}
	o.step = step
	count := (o.n - 1) / step // prefixes 1..count, all with fewer than n rows
	o.prefix = make([]uint64, count*o.words)
	for j := 1; j <= count; j++ {
		cur := o.prefix[(j-1)*o.words : j*o.words]
		if j > 1 {
			copy(cur, o.prefix[(j-2)*o.words:(j-1)*o.words])
		}
		for _, r := range o.rows[(j-1)*step : j*step] {
			cur[r>>6] |= 1 << (uint(r) & 63)
		}
	}
}

func (o *Order) memoryBytes() int64 {
	return 4*int64(len(o.rank)+len(o.codeRank)) + 8*int64(len(o.prefix)) + 128
}

// MemoryBytes returns the bytes the Order holds beyond Rows (which Sorted
// shares): the ranks and the prefix bitsets.
func (o *Order) MemoryBytes() int64 { return o.memoryBytes() }

// Len returns the number of rows.
func (o *Order) Len() int { return o.n }

// Rows returns the rows ascending by value, ties in storage order. It is
// shared: callers must not modify it.
func (o *Order) Rows() []int32 { return o.rows }

// Rank returns the position of the first row of row's tie group.
func (o *Order) Rank(row int32) int32 {
	if o.rank == nil {
		return o.codeRank[o.col.code(int(row))]
	}
	return o.rank[row]
}

// Section returns the positions [lo, hi) of the values of kind k (Null:
// null and absent).
func (o *Order) Section(k Kind) (lo, hi int) { return o.sections[k], o.sections[k+1] }

// Search returns the first position within v's kind section whose value is
// not less than v (upper false) or greater than v (upper true).
func (o *Order) Search(v Value, upper bool) int {
	lo, hi := o.Section(v.Kind)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		c := Compare(o.col.Value(int(o.rows[mid])), v)
		if c < 0 || (upper && c == 0) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// Equal returns the positions [lo, hi) of the rows whose value equals v.
func (o *Order) Equal(v Value) (lo, hi int) {
	if v.Kind == Null {
		return o.Section(Null)
	}
	return o.Search(v, false), o.Search(v, true)
}

// Words returns the number of uint64 words of a bitset over the rows.
func (o *Order) Words() int { return o.words }

// AddRange sets in dst (a bitset of Words words) the bits of the rows at
// positions [lo, hi). A long range costs two prefix bitsets combined word
// by word plus at most 2·step single bits; a short one its rows.
func (o *Order) AddRange(dst []uint64, lo, hi int) {
	if hi <= lo {
		return
	}
	a, b := 0, 0
	if o.step > 0 {
		a, b = (lo+o.step-1)/o.step, hi/o.step
	}
	if b <= a || hi-lo < 2*o.words {
		o.setRows(dst, lo, hi)
		return
	}
	pa, pb := o.prefixAt(a), o.prefixAt(b)
	switch {
	case pa == nil && pb == nil:
		orAll(dst)
	case pa == nil:
		orWords(dst, pb)
	case pb == nil:
		orNotWords(dst, pa)
	default:
		orAndNot(dst, pb, pa)
	}
	if pb == nil {
		o.clearTail(dst)
	}
	o.setRows(dst, lo, a*o.step)
	o.setRows(dst, min(b*o.step, o.n), hi)
}

// SetRange overwrites dst (a bitset of Words words) with the rows at
// positions [lo, hi). A long range is the two prefixes nearest its ends
// combined word by word, then the rows between each end and its prefix
// set or cleared: at most step/2 single bits an end.
func (o *Order) SetRange(dst []uint64, lo, hi int) {
	a, b := o.nearest(lo, hi)
	if b <= a || hi-lo < 2*o.words {
		clear(dst)
		o.setRows(dst, lo, max(lo, hi))
		return
	}
	pa, pb := o.prefixAt(a), o.prefixAt(b)
	switch {
	case pa == nil && a > 0: // both ends round to the last position
		clear(dst)
	case pb == nil && a == 0:
		orAllInto(dst)
		o.clearTail(dst)
	case pb == nil:
		for i := range dst {
			dst[i] = ^pa[i]
		}
		o.clearTail(dst)
	case a == 0:
		copy(dst, pb)
	default:
		for i := range dst {
			dst[i] = pb[i] &^ pa[i]
		}
	}
	if pa := min(a*o.step, o.n); pa < lo {
		o.clearRows(dst, pa, lo)
	} else {
		o.setRows(dst, lo, pa)
	}
	if pb := min(b*o.step, o.n); pb > hi {
		o.clearRows(dst, hi, pb)
	} else {
		o.setRows(dst, pb, hi)
	}
}

// AndRange keeps in acc (a bitset of Words words) only the rows at
// positions [lo, hi): acc &= SetRange(lo, hi) in one pass over the words
// (the two prefixes and acc) plus the single bits at the ends. keep is
// scratch space it may grow and returns.
func (o *Order) AndRange(acc []uint64, lo, hi int, keep []int32) []int32 {
	keep = keep[:0]
	has := func(r int32) bool { return acc[r>>6]&(1<<(uint(r)&63)) != 0 }
	collect := func(a, b int) {
		for _, r := range o.rows[a:b] {
			if has(r) {
				keep = append(keep, r)
			}
		}
	}
	if a, b := o.nearest(lo, hi); b <= a || hi-lo < 2*o.words {
		collect(lo, max(lo, hi))
		clear(acc)
	} else {
		pa, pb := min(a*o.step, o.n), min(b*o.step, o.n)
		collect(lo, min(max(lo, pa), hi))
		if pb < hi {
			collect(max(pb, lo), hi)
		}
		o.andPrefixes(acc, o.prefixAt(a), o.prefixAt(b), a)
		if pa < lo {
			o.clearRows(acc, pa, lo)
		}
		if pb > hi {
			o.clearRows(acc, hi, pb)
		}
	}
	for _, r := range keep {
		acc[r>>6] |= 1 << (uint(r) & 63)
	}
	return keep
}

// andPrefixes is acc &= prefix b &^ prefix a, where a nil prefix is none
// of the rows for a = 0 and all of them otherwise.
func (o *Order) andPrefixes(acc, pa, pb []uint64, a int) {
	switch {
	case pa == nil && a > 0:
		clear(acc)
	case pb == nil && a == 0:
		o.clearTail(acc)
	case pb == nil:
		pa = pa[:len(acc)]
		for i := range acc {
			acc[i] &^= pa[i]
		}
		o.clearTail(acc)
	case a == 0:
		pb = pb[:len(acc)]
		for i := range acc {
			acc[i] &= pb[i]
		}
	default:
		pa, pb = pa[:len(acc)], pb[:len(acc)]
		for i := range acc {
			acc[i] &= pb[i] &^ pa[i]
		}
	}
}

// nearest returns the prefixes nearest to positions lo and hi; 0, 0 when
// there are none.
func (o *Order) nearest(lo, hi int) (a, b int) {
	if o.step == 0 {
		return 0, 0
	}
	return (lo + o.step/2) / o.step, (hi + o.step/2) / o.step
}

// ClearRange clears in dst the bits of the rows at positions [lo, hi).
func (o *Order) ClearRange(dst []uint64, lo, hi int) { o.clearRows(dst, lo, max(lo, hi)) }

func (o *Order) clearRows(dst []uint64, lo, hi int) {
	for _, r := range o.rows[lo:hi] {
		dst[r>>6] &^= 1 << (uint(r) & 63)
	}
}

func orAllInto(dst []uint64) {
	for i := range dst {
		dst[i] = ^uint64(0)
	}
}

// prefixAt returns prefix j, nil for j = 0 (empty) and for j past the last
// kept one (all rows).
func (o *Order) prefixAt(j int) []uint64 {
	if j == 0 || j*o.step >= o.n || j > len(o.prefix)/o.words {
		return nil
	}
	return o.prefix[(j-1)*o.words : j*o.words]
}

func (o *Order) setRows(dst []uint64, lo, hi int) {
	for _, r := range o.rows[lo:hi] {
		dst[r>>6] |= 1 << (uint(r) & 63)
	}
}

// clearTail clears the bits past the last row.
func (o *Order) clearTail(dst []uint64) {
	if rem := o.n & 63; rem != 0 {
		dst[o.words-1] &= (1 << uint(rem)) - 1
	}
}

func orAll(dst []uint64) {
	for i := range dst {
		dst[i] = ^uint64(0)
	}
}

func orWords(dst, a []uint64) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] |= a[i]
	}
}

func orNotWords(dst, a []uint64) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] |= ^a[i]
	}
}

func orAndNot(dst, a, b []uint64) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] |= a[i] &^ b[i]
	}
}

// Count returns the number of bits set in b.
func Count(b []uint64) int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}
