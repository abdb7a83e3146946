package dataset

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
	Rows     []int     // rows per group
	N        []int     // numbers per group
	Sum      []float64 // their sum, in storage order
	Min, Max []float64 // meaningful where N > 0
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
		if pos == 0 || o.rank[r] == int32(pos) {
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
	if g != nil {
		k = g.Len()
	}
	s := &GroupSums{Rows: make([]int, k), N: make([]int, k), Sum: make([]float64, k), Min: make([]float64, k), Max: make([]float64, k)}
	for r := 0; r < n; r++ {
		i := 0
		if g != nil {
			i = int(g.id[r])
		}
		s.Rows[i]++
		x, ok := c.Number(r)
		if !ok {
			continue
		}
		if s.N[i] == 0 || x < s.Min[i] {
			s.Min[i] = x
		}
		if s.N[i] == 0 || x > s.Max[i] {
			s.Max[i] = x
		}
		s.N[i]++
		s.Sum[i] += x
	}
	return s
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
