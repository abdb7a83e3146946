package engine

import (
	"slices"

	"github.com/mockgql/mockgql/dataset"
)

// This file picks members of a power query's bitset in the order of its
// sort keys: a walk of the first key's Order by tie groups (ascending, or
// descending by groups each read forwards, so that ties keep storage
// order), each group's members sorted by the ranks of the further keys,
// stopping when the page is full; or, when the members are too sparse
// for a walk to pay, every member keyed by its ranks and sorted.

// rankedRow is a row and its sort key: per key its Order rank, negated
// for a descending key, so rows sort by (k, r).
type rankedRow struct {
	k [MaxOrderKeys]int32
	r int32
}

func compareRanked(a, b rankedRow) int {
	if c := slices.Compare(a.k[:], b.k[:]); c != 0 {
		return c
	}
	return int(a.r) - int(b.r)
}

// keyWalk is one walk of the first key's Order.
type keyWalk struct {
	pq          *Query
	tv          *TableView
	acc         []uint64 // nil: every row
	ords        []*dataset.Order
	skip, limit int
	seen        int
	steps       int64
	budget      int64 // positions; past them the walk gives up
	out         []int32
	grp         []rankedRow
	// after, when 0 or more, is a cursor's row: of the next group (the
	// row's own) only the members after it are taken.
	after int32
	// before, when 0 or more, is a cursor's row: of the next group
	// walked backwards (the row's own) only the members before it are
	// taken.
	before int32
}

func (pq *Query) newWalk(tv *TableView, acc []uint64, skip, limit int) *keyWalk {
	w := &keyWalk{pq: pq, tv: tv, acc: acc, skip: skip, limit: limit, budget: -1, after: -1, before: -1, out: make([]int32, 0, max(0, limit-skip))}
	for _, k := range pq.Keys {
		w.ords = append(w.ords, tv.ds.Order(k.Attr.Path))
	}
	return w
}

// key returns the ranks of r in every key's order.
func (w *keyWalk) key(r int32) rankedRow {
	x := rankedRow{r: r}
	for i, o := range w.ords {
		x.k[i] = o.Rank(r)
		if w.pq.Keys[i].Desc {
			x.k[i] = -x.k[i]
		}
	}
	return x
}

// worthWalking reports whether walking span positions for total members
// is expected to cost less than selecting them, and sets the walk's
// budget to that cost.
func (w *keyWalk) worthWalking(total, span int) bool {
	if w.acc == nil {
		return true
	}
	selectCost := int64(len(w.acc)) + 4*int64(total)
	w.budget = selectCost + int64(w.limit)
	return int64(w.limit)*int64(span)/int64(max(1, total)) <= selectCost
}

// walk visits the tie groups of positions [lo, hi) in the first key's
// direction. It returns false when it ran past its budget.
func (w *keyWalk) walk(lo, hi int) bool {
	return w.groups(lo, hi, !w.pq.Keys[0].Desc, w.group)
}

// groups visits the tie groups of positions [lo, hi), ascending (up) or
// descending, calling visit until it reports the page full (more false)
// or the budget spent (ok false, returned).
func (w *keyWalk) groups(lo, hi int, up bool, visit func(g, e int) (more, ok bool)) bool {
	ord := w.ords[0]
	rows := ord.Rows()
	if up {
		for i := lo; i < hi; {
			// Ranks do not decrease along the order: the group's end is
			// found by binary search, not by reading every row's rank.
			rank := ord.Rank(rows[i])
			e := i + 1 + sortSearch(hi-i-1, func(k int) bool { return ord.Rank(rows[i+1+k]) != rank })
			if more, ok := visit(i, e); !more || !ok {
				return ok
			}
			i = e
		}
		return true
	}
	for i := hi - 1; i >= lo; {
		g := max(lo, int(ord.Rank(rows[i])))
		if more, ok := visit(g, i+1); !more || !ok {
			return ok
		}
		i = g - 1
	}
	return true
}

// group takes the members among positions [g, e), one tie group of the
// first key. more is false when the page is full, ok false when the walk
// ran past its budget. A group of more positions than half the words of
// a bitset (at least 64) is ordered by the further keys' own indexes
// (bigGroup) rather than sorted: a few passes over the words cost less
// than sorting it.
func (w *keyWalk) group(g, e int) (more, ok bool) {
	if w.spend(g, e) {
		return false, false
	}
	if w.big(g, e) {
		return w.bigGroup(g, e), true
	}
	w.gather(g, e, w.after, 1)
	w.after = -1
	if w.seen+len(w.grp) <= w.skip {
		w.seen += len(w.grp)
		return true, true
	}
	w.sortGroup()
	for _, x := range w.grp {
		if w.seen >= w.skip {
			w.out = append(w.out, x.r)
		}
		if w.seen++; w.seen == w.limit {
			return false, true
		}
	}
	return true, true
}

// spend counts the positions [g, e) walked and reports whether the walk
// ran past its budget.
func (w *keyWalk) spend(g, e int) bool {
	w.steps += int64(e - g)
	return w.budget >= 0 && w.steps > w.budget
}

// big reports whether the group of positions [g, e) is ordered by the
// further keys' indexes rather than sorted.
func (w *keyWalk) big(g, e int) bool {
	return len(w.ords) > 1 && e-g > max(64, w.tv.words()/2)
}

// gather sets w.grp to the members among positions [g, e), in the Order's
// (storage) order; when c is a row, only those after it in the query's
// order (side > 0) or before it (side < 0).
func (w *keyWalk) gather(g, e int, c int32, side int) {
	w.grp = w.grp[:0]
	order := w.pq.Compare(w.tv)
	for _, r := range w.ords[0].Rows()[g:e] {
		if !hasBit(w.acc, r) {
			continue
		}
		if c >= 0 {
			if x := order(r, c); x == 0 || (x > 0) != (side > 0) {
				continue
			}
		}
		w.grp = append(w.grp, rankedRow{r: r})
	}
}

// sortGroup sorts w.grp, one tie group of the first key, by the further
// keys' ranks (ties by row).
func (w *keyWalk) sortGroup() {
	if len(w.grp) > 1 && len(w.ords) > 1 {
		for i := range w.grp {
			w.grp[i] = w.key(w.grp[i].r)
		}
		slices.SortFunc(w.grp, compareRanked)
	}
}

// bigGroup takes the members among positions [g, e) as a bitset ordered
// by the further keys: the same query on keys[1:] over the group's rows,
// its first key walked on its own Order (and so on). It returns false
// when the page is full.
func (w *keyWalk) bigGroup(g, e int) bool {
	sub, s := w.groupQuery(g, e)
	defer s.release()
	var got []int32
	if w.after >= 0 {
		got = sub.afterMembers(w.tv, &s, w.after, w.limit-w.seen)
		w.after = -1
	} else {
		if w.seen+s.base <= w.skip {
			w.seen += s.base
			return true
		}
		from := max(0, w.skip-w.seen)
		got = sub.baseMembers(w.tv, &s, from, w.limit-w.seen)
		w.seen += from
	}
	w.out = append(w.out, got...)
	w.seen += len(got)
	return w.seen < w.limit
}

// groupQuery returns the query of keys[1:] under the query's predicates
// and, as its set, the members among positions [g, e). The caller
// releases the set.
func (w *keyWalk) groupQuery(g, e int) (*Query, powerSet) {
	b := getDirtyBits(w.tv.words())
	w.ords[0].SetRange(b.w, g, e)
	if w.acc != nil {
		andWords(b.w, w.acc)
	}
	keys := w.pq.Keys[1:]
	// The query's predicates bound the next key's walk (sortBounds).
	sub := &Query{List: &ListQuery{Sort: keys[0].Attr, Desc: keys[0].Desc, Preds: w.pq.List.Preds}, Keys: keys}
	return sub, powerSet{acc: b, base: dataset.Count(b.w)}
}

// selectMembers returns the members of acc (nil: every row) that keep
// accepts (nil: all), at positions skip..limit-1 of the keys' order: each
// keyed by its ranks, then sorted. It holds 20 bytes per member.
func (pq *Query) selectMembers(tv *TableView, acc []uint64, skip, limit int, keep func(int32) bool) []int32 {
	w := pq.newWalk(tv, acc, skip, limit)
	var all []rankedRow
	add := func(r int32) {
		if keep == nil || keep(r) {
			all = append(all, w.key(r))
		}
	}
	if acc == nil {
		for r := int32(0); r < tv.N; r++ {
			add(r)
		}
	} else {
		forBits(acc, add)
	}
	slices.SortFunc(all, compareRanked)
	out := make([]int32, 0, max(0, limit-skip))
	for _, x := range all[min(skip, len(all)):min(limit, len(all))] {
		out = append(out, x.r)
	}
	return out
}

// afterMembers returns the first limit matches after row c (a match) in
// the query's order: a seek to c's place, not a scan of what precedes it.
func (pq *Query) afterMembers(tv *TableView, s *powerSet, c int32, limit int) []int32 {
	order := pq.Compare(tv)
	acc := s.words()
	var base []int32
	switch {
	case len(pq.Keys) == 0 && c < tv.N:
		base = bitsFrom(acc, c+1, tv.N, limit)
	case len(pq.Keys) > 0:
		ord := tv.ds.Order(pq.Keys[0].Attr.Path)
		lo, hi := sortBounds(pq.List, ord)
		elo, ehi := ord.Equal(tv.Value(pq.Keys[0].Attr, c))
		elo, ehi = min(max(elo, lo), hi), min(max(ehi, lo), hi)
		w := pq.newWalk(tv, acc, 0, limit)
		w.worthWalking(s.base, hi-lo)
		w.after = c
		more, ok := w.group(elo, ehi)
		if more && ok {
			if pq.Keys[0].Desc {
				ok = w.walk(lo, elo)
			} else {
				ok = w.walk(ehi, hi)
			}
		}
		base = w.out
		if !ok {
			base = pq.selectMembers(tv, acc, 0, limit, func(r int32) bool { return order(c, r) < 0 })
		}
	}
	from, _ := slices.BinarySearchFunc(s.Live, c, func(x, c int32) int {
		if x == c {
			return 0
		}
		return order(x, c)
	})
	if from < len(s.Live) && s.Live[from] == c {
		from++
	}
	return mergeOrdered(base, s.Live[from:], order, limit)
}
