package engine

import (
	"slices"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/model"
)

// This file answers a list query whose narrowest condition selects few
// rows without any n/64-word bitset: that condition's rows (a range of its
// column's Order, or a like's n-gram posting) are listed, each checked
// against the other conditions — a range of another Order is a test of the
// row's rank, which lies in the range exactly when the row does, since
// ranges found by value start and end at tie groups — and against the
// variant and the overlay's changed rows; total is the length of that
// list, and the page the smallest keys of it in the query's order. A
// query then costs what it selects, not n/64 words a set.

// DefaultSparseDiv is the sparse path's reach: a query takes it when its
// narrowest condition selects at most n/defaultSparseDiv rows.
const DefaultSparseDiv = 128

// SparseReach tunes the sparse path of one Runtime. Compile sets div to
// defaultSparseDiv; tests and benchmarks change a Runtime's between
// queries (never during one) to run both paths on the same queries.
type SparseReach struct {
	// Div: the sparse path answers when the narrowest condition selects at
	// most n/div rows; 0 never, -1 always (whatever the size).
	Div int
	// Taken, when set, is called for each query the sparse path answers.
	Taken func()
}

// limit returns the most rows a sparse query's driving condition may
// select over n rows.
func (s *SparseReach) limit(n int) int {
	switch {
	case s.Div < 0:
		return n
	case s.Div == 0:
		return -1
	}
	return n / s.Div
}

// rankRange is the positions [lo, hi) of ord that one attribute's
// single-range predicates leave (their intersection).
type rankRange struct {
	attr   *Attr
	ord    *dataset.Order
	lo, hi int
}

// sparsePlan is a query split for the sparse path: the driving condition,
// whose rows are listed, and the checks each of them must pass.
type sparsePlan struct {
	ranges []rankRange
	likes  []likeCheck
	others []*Pred    // predicates of several ranges: checked on the value
	driver *rankRange // the driving range; nil: likes[like] drives
	like   int        // -1: a range drives
	size   int        // rows the driver selects
	// driverAttr is the driving range's attribute (nil: a like drives):
	// members sorts ranges, which driver points into.
	driverAttr *Attr
	// Backing arrays for the usual few predicates: planning a query that
	// then goes dense allocates nothing.
	rangeBuf [4]rankRange
	likeBuf  [2]likeCheck
	otherBuf [2]*Pred
	posting  [256]uint32 // a posting's rows as they are read
}

// likeCheck is a like predicate and, for a needle of 3 bytes or more, its
// n-gram posting: a row outside it fails, a row in an exact one passes,
// and the others are checked on their text.
type likeCheck struct {
	pr    *Pred
	rows  *roaring.Bitmap // nil: no posting (a shorter needle)
	exact bool
}

func (lc *likeCheck) has(tv *TableView, r int32) bool {
	if lc.rows != nil {
		if !lc.rows.Contains(uint32(r)) {
			return false
		}
		if lc.exact {
			return true
		}
	}
	return lc.pr.match(tv.base(lc.pr.Attr, r))
}

// sparseScratch recycles the plans, member lists and keys of sparse
// queries.
var sparseScratch sync.Pool

type sparseBuf struct {
	plan sparsePlan
	rows []int32
	keys []uint64
}

// planSparse fills p, zero, with q's plan for the sparse path; it returns
// false when q's narrowest condition selects more than limit rows (or a
// constant predicate fails: baseBits answers that without a bitset).
func (tv *TableView) planSparse(q *ListQuery, limit int, p *sparsePlan) bool {
	p.ranges, p.likes, p.others = p.rangeBuf[:0], p.likeBuf[:0], p.otherBuf[:0]
	for i := range q.Preds {
		pr := &q.Preds[i]
		switch {
		case pr.Attr.Mapping == model.MappingConstant:
			if !pr.match(pr.Attr.constant) {
				return false
			}
		case pr.Op == model.OpLike:
			p.likes = append(p.likes, tv.likeCheck(pr))
		default:
			ord := tv.ds.Order(pr.Attr.Path)
			lo, hi, single := predBounds(ord, pr)
			if !single {
				p.others = append(p.others, pr)
				continue
			}
			p.addRange(pr.Attr, ord, lo, hi)
		}
	}
	p.like, p.size = -1, limit+1
	for i := range p.ranges {
		if s := p.ranges[i].hi - p.ranges[i].lo; s < p.size {
			p.driver, p.size = &p.ranges[i], s
		}
	}
	for i := range p.likes {
		if rows := p.likes[i].rows; rows != nil {
			if s := int(rows.GetCardinality()); s < p.size {
				p.driver, p.like, p.size = nil, i, s
			}
		}
	}
	if p.driver != nil {
		p.driverAttr = p.driver.attr
	}
	return p.size <= limit
}

// likeCheck returns pr's check, with the posting of a needle of 3 bytes
// or more: one list (or an intersection of them), where a shorter
// needle's is a union of many, which the dense path would compute again.
func (tv *TableView) likeCheck(pr *Pred) likeCheck {
	lc := likeCheck{pr: pr}
	if pr.arg.Kind == dataset.String && len(pr.like) >= 3 {
		lc.rows, lc.exact = tv.ds.Grams(pr.Attr.Path).Like(pr.arg.Str)
	}
	return lc
}

// addRange narrows attr's range to [lo, hi), adding it when it is the
// attribute's first.
func (p *sparsePlan) addRange(a *Attr, ord *dataset.Order, lo, hi int) {
	for i := range p.ranges {
		if rr := &p.ranges[i]; rr.attr == a {
			rr.lo = max(rr.lo, lo)
			rr.hi = max(rr.lo, min(rr.hi, hi))
			return
		}
	}
	p.ranges = append(p.ranges, rankRange{attr: a, ord: ord, lo: lo, hi: max(lo, hi)})
}

// members appends to dst the base members of the plan, in the driver's
// order (positions of its Order, or rows ascending for a like): the
// driver's rows, then one pass a check, each keeping the rows that pass
// it. The range checks go first and branch-free, so that the loads of
// consecutive rows' ranks overlap (they miss the cache: the rows are
// scattered); the narrowest other range first.
func (tv *TableView) members(p *sparsePlan, dst []int32) []int32 {
	if rr := p.driver; rr != nil {
		dst = append(dst, rr.ord.Rows()[rr.lo:rr.hi]...)
	} else {
		lc := &p.likes[p.like]
		dst = appendPosting(dst, lc.rows, p.posting[:])
		if !lc.exact {
			dst = filterRows(dst, func(r int32) bool { return lc.pr.match(tv.base(lc.pr.Attr, r)) })
		}
	}
	slices.SortFunc(p.ranges, func(a, b rankRange) int { return (a.hi - a.lo) - (b.hi - b.lo) })
	for i := range p.ranges {
		if rr := &p.ranges[i]; rr.attr != p.driverAttr && (rr.lo > 0 || rr.hi < rr.ord.Len()) {
			dst = rr.filter(dst)
		}
	}
	if tv.member != nil {
		dst = filterRows(dst, tv.member.Has)
	}
	if tv.ov != nil && tv.ov.changed != nil {
		dst = filterRows(dst, func(r int32) bool { return !tv.ov.changed.Has(r) })
	}
	for i := range p.likes {
		if lc := &p.likes[i]; i != p.like {
			dst = filterRows(dst, func(r int32) bool { return lc.has(tv, r) })
		}
	}
	for _, pr := range p.others {
		dst = filterRows(dst, func(r int32) bool { return pr.match(tv.base(pr.Attr, r)) })
	}
	return dst
}

// filter keeps the rows of the range, in place, without branching on
// each row's result.
func (rr *rankRange) filter(rows []int32) []int32 {
	lo, span := uint32(rr.lo), uint32(rr.hi-rr.lo)
	n := 0
	for _, r := range rows {
		rows[n] = r
		n += boolToInt(uint32(rr.ord.Rank(r))-lo < span)
	}
	return rows[:n]
}

// putSparse recycles buf, dropping what its plan points to.
func putSparse(buf *sparseBuf) {
	buf.plan = sparsePlan{}
	sparseScratch.Put(buf)
}

// sparsePage answers q on the sparse path when its narrowest condition
// selects at most sparseReach.limit rows; ok is false otherwise.
func (tv *TableView) sparsePage(q *ListQuery, pg, size int) (RowList, bool) {
	buf, _ := sparseScratch.Get().(*sparseBuf)
	if buf == nil {
		buf = &sparseBuf{}
	}
	defer putSparse(buf)
	p := &buf.plan
	reach := &tv.View.env.Sparse
	if !tv.planSparse(q, reach.limit(int(tv.N)), p) {
		return RowList{}, false
	}
	if reach.Taken != nil {
		reach.Taken()
	}
	buf.rows = tv.members(p, buf.rows[:0])
	var ord *dataset.Order
	if q.Sort != nil {
		ord = tv.ds.Order(q.Sort.Path)
	}
	var live liveMatch
	if tv.ov != nil {
		live = tv.overlayMatch(q)
	}
	sorted := ord == nil && p.like >= 0 || // rows ascending: storage order
		ord != nil && !q.Desc && p.driverAttr == q.Sort
	return tv.window(q, ord, len(buf.rows), live, pg, size, func(skip, limit int) []int32 {
		if sorted {
			return slices.Clone(buf.rows[skip:limit])
		}
		buf.keys = rankKeys(buf.rows, ord, q.Desc, buf.keys[:0])
		return smallestRows(buf.keys, skip, limit)
	}), true
}
