package dataset

import mbits "math/bits"

// Groups numbers the distinct values of one leaf column, for group-by:
// group i is the i-th tie group of the column's Order (so groups ascend
// by value), and every row knows its group. Memory: 4 bytes a row plus 4
// a group. Immutable and safe for concurrent use.
type Groups struct {
	ord   *Order
	id    []int32 // per row
	first []int32 // per group: its first position in the Order
}

// GroupSums are, per group of a column (or for the whole dataset), the
// row count and the statistics of the numbers of another column, summed
// in storage order: an aggregate over every row reads them instead of the
// rows.
type GroupSums struct {
	Rows  []int         // rows per group
	Stats []NumberStats // numbers per group
}

// NumberStats are the count, sum (in the order added), min and max of
// some numbers; Min and Max are meaningful when N > 0.
type NumberStats struct {
	N             int
	Sum, Min, Max float64
}

// Add counts x.
func (s *NumberStats) Add(x float64) {
	if s.N == 0 || x < s.Min {
		s.Min = x
	}
	if s.N == 0 || x > s.Max {
		s.Max = x
	}
	s.N++
	s.Sum += x
}

// GroupsReady returns the Groups of a leaf column if they are built; else
// it starts building them (and the column's Order) in the background and
// returns nil, like OrderReady.
func (d *Dataset) GroupsReady(path string) *Groups {
	if !d.orderable(path) {
		return nil
	}
	l := lazyEntry(d, &d.groups, path)
	if g := l.ready.Load(); g != nil {
		return g
	}
	return l.getReady(d.groupsBuilder(path))
}

func (d *Dataset) groupsBuilder(path string) func() *Groups {
	return func() *Groups {
		g := newGroups(d.Order(path))
		d.indexes.Add(4*int64(len(g.id)+len(g.first)) + 64)
		return g
	}
}

func newGroups(o *Order) *Groups {
	g := &Groups{ord: o, id: make([]int32, o.n)}
	for pos, r := range o.rows {
		if pos == 0 || o.Rank(r) == int32(pos) {
			g.first = append(g.first, int32(pos))
		}
		g.id[r] = int32(len(g.first) - 1)
	}
	return g
}

// Len returns the number of groups (distinct values).
func (g *Groups) Len() int { return len(g.first) }

// ID returns the group of row.
func (g *Groups) ID(row int32) int32 { return g.id[row] }

// Size returns the number of rows of group i.
func (g *Groups) Size(i int32) int {
	if int(i)+1 < len(g.first) {
		return int(g.first[i+1] - g.first[i])
	}
	return g.ord.n - int(g.first[i])
}

// FirstRow returns the first row of group i in storage order.
func (g *Groups) FirstRow(i int32) int32 { return g.ord.rows[g.first[i]] }

// Of returns the group whose value equals v, or false when no row holds v.
func (g *Groups) Of(v Value) (int32, bool) {
	lo, hi := g.ord.Equal(v)
	if lo >= hi {
		return 0, false
	}
	return g.id[g.ord.rows[lo]], true
}

// SumsReady returns the GroupSums of column num over the groups of column
// by ("" for the whole dataset as one group), if they are built; else it
// starts building them in the background and returns nil.
func (d *Dataset) SumsReady(by, num string) *GroupSums {
	if d.byPath[num] == nil || (by != "" && !d.orderable(by)) {
		return nil
	}
	l := lazyEntry(d, &d.sums, by+"\x00"+num)
	if s := l.ready.Load(); s != nil {
		return s
	}
	return l.getReady(func() *GroupSums {
		var g *Groups
		if by != "" {
			g = lazyEntry(d, &d.groups, by).get(d.groupsBuilder(by))
		}
		s := newGroupSums(g, d.byPath[num], d.n)
		d.indexes.Add(40*int64(len(s.Rows)) + 128)
		return s
	})
}

func newGroupSums(g *Groups, c *Column, n int) *GroupSums {
	k := 1
	var ids, index []int32
	if g != nil {
		k, ids = g.Len(), g.id
		index = make([]int32, k)
		for i := range index {
			index[i] = int32(i)
		}
	}
	s := &GroupSums{Rows: make([]int, k), Stats: make([]NumberStats, k)}
	for r := 0; r < n; r++ {
		if g != nil {
			s.Rows[ids[r]]++
		}
	}
	if g == nil {
		s.Rows[0] = n
	}
	c.SumByGroup(nil, n, ids, index, s.Stats)
	return s
}

// Merge adds the numbers x counts.
func (s *NumberStats) Merge(x NumberStats) {
	switch {
	case x.N == 0:
		return
	case s.N == 0:
		s.Min, s.Max = x.Min, x.Max
	default:
		s.Min, s.Max = min(s.Min, x.Min), max(s.Max, x.Max)
	}
	s.N += x.N
	s.Sum += x.Sum
}

// IDs returns the group of every row (index: row). Do not modify it.
func (g *Groups) IDs() []int32 { return g.id }

// SumByGroup adds to out the numbers of the rows set in bits (nil: rows
// 0..n-1), in storage order: row r to out[index[ids[r]]] (ids nil: all to
// out[0]; an index below 0 skips the row).
func (c *Column) SumByGroup(bits []uint64, n int, ids, index []int32, out []NumberStats) {
	switch {
	case c == nil:
	case c.present == nil && c.tags == nil && c.tag == tagNumber && c.ints != nil:
		sumDense(c.ints, bits, n, ids, index, out)
	case c.present == nil && c.tags == nil && c.tag == tagNumber:
		sumDense(c.nums, bits, n, ids, index, out)
	default:
		forRows(bits, n, func(r int) {
			if x, ok := c.Number(r); ok {
				addNumber(out, ids, index, r, x)
			}
		})
	}
}

// sumDense is SumByGroup for a column whose every row holds a number.
func sumDense[T int32 | float64](vals []T, bits []uint64, n int, ids, index []int32, out []NumberStats) {
	if bits == nil {
		for r := 0; r < n; r++ {
			addNumber(out, ids, index, r, float64(vals[r]))
		}
		return
	}
	for w, word := range bits {
		for word != 0 {
			r := w<<6 + mbits.TrailingZeros64(word)
			addNumber(out, ids, index, r, float64(vals[r]))
			word &= word - 1
		}
	}
}

func addNumber(out []NumberStats, ids, index []int32, r int, x float64) {
	i := int32(0)
	if ids != nil {
		if i = index[ids[r]]; i < 0 {
			return
		}
	}
	out[i].Add(x)
}

// forRows calls f with each row set in bits (nil: rows 0..n-1), ascending.
func forRows(bits []uint64, n int, f func(r int)) {
	if bits == nil {
		for r := 0; r < n; r++ {
			f(r)
		}
		return
	}
	for w, word := range bits {
		for word != 0 {
			f(w<<6 + mbits.TrailingZeros64(word))
			word &= word - 1
		}
	}
}

// Number returns row's value when it is a number, without building a
// Value.
func (c *Column) Number(row int) (float64, bool) {
	if c == nil || uint(row) >= uint(c.n) {
		return 0, false
	}
	s := c.slot(row)
	if s < 0 || c.slotTag(s) != tagNumber {
		return 0, false
	}
	return c.slotNum(s), true
}
