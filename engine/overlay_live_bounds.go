package engine

import "github.com/mockgql/mockgql/dataset"

// liveBounds places each live row's value of one attribute in the
// dataset's Order of that attribute: the positions [lo, hi) of the dataset
// rows whose value equals it (lo == hi when none does: lo is where it
// would go). A dataset row b then sorts before live row x when Rank(b) <
// lo[x], after when Rank(b) >= hi[x], and ties otherwise, so merging a
// page with the live rows compares integers instead of reading the
// dataset's values. Built per live table on first use, patched from the
// previous live table's (only changed rows searched).
type liveBounds struct {
	ord    *dataset.Order
	lo, hi []int32 // by live index
}

// compare compares dataset row b with live row x by value: -1, 0 or 1.
func (lb *liveBounds) compare(b, x int32) int {
	switch rk := lb.ord.Rank(b); {
	case rk < lb.lo[x]:
		return -1
	case rk >= lb.hi[x]:
		return 1
	}
	return 0
}

// bounds returns the live rows' bounds in ord, the Order of a, building
// them on first use. The caller holds the overlay's lock.
func (lt *liveTable) bounds(tv *TableView, a *Attr, ord *dataset.Order) *liveBounds {
	if lb := lt.bnds[a.Idx]; lb != nil && lb.ord == ord {
		return lb
	}
	vals := lt.values(tv, a)
	lb := &liveBounds{ord: ord, lo: make([]int32, len(vals)), hi: make([]int32, len(vals))}
	for x, v := range vals {
		lb.place(int32(x), v)
	}
	lt.bnds[a.Idx] = lb
	return lb
}

// place sets the bounds of live row x, whose value is v.
func (lb *liveBounds) place(x int32, v dataset.Value) {
	lo, hi := lb.ord.Equal(v)
	lb.lo[x], lb.hi[x] = int32(lo), int32(hi)
}

// patched returns lb for the live rows vals of a newer live table: the
// bounds of kept rows (kept maps lb's live indexes to the new ones, -1 for
// gone) copied, those of fresh rows searched.
func (lb *liveBounds) patched(kept, fresh []int32, vals []dataset.Value) *liveBounds {
	next := &liveBounds{ord: lb.ord, lo: make([]int32, len(vals)), hi: make([]int32, len(vals))}
	for x, y := range kept {
		if y >= 0 {
			next.lo[y], next.hi[y] = lb.lo[x], lb.hi[x]
		}
	}
	for _, y := range fresh {
		next.place(y, vals[y])
	}
	return next
}
