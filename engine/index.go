package engine

import (
	"context"
	"math/bits"
	"sync"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/model"
)

// This file answers list queries from the dataset's column indexes
// (dataset.Order) instead of a scan: each predicate is one or more ranges
// of positions in its column's sorted order, turned into a row bitset from
// prefix bitsets; the predicates, the variant and the overlay's changed
// rows combine word by word; total is a popcount; the page is the sort
// order walked until page × pageSize members are found, or, when the
// members are few next to the walk, the members selected by rank. The
// overlay's live rows are matched on their own and merged in order.
// Nothing here depends on the query cache.

// bitsPool recycles row bitsets (a million rows: 125 KB each) as
// *rowBits, so that putting one back allocates nothing.
var bitsPool sync.Pool

type rowBits struct {
	w     []uint64
	keep  []int32 // scratch of Order.AndRange
	count int     // the rows of w when known (baseBits), else -1
}

// getBits returns a zeroed bitset of words words; put it back with putBits.
func getBits(words int) *rowBits {
	b := getDirtyBits(words)
	clear(b.w)
	return b
}

// getDirtyBits is getBits without zeroing, for a caller that overwrites
// every word.
func getDirtyBits(words int) *rowBits {
	if b, ok := bitsPool.Get().(*rowBits); ok && cap(b.w) >= words {
		b.w, b.count = b.w[:words], -1
		return b
	}
	return &rowBits{w: make([]uint64, words), count: -1}
}

func putBits(b *rowBits) {
	if b != nil {
		bitsPool.Put(b)
	}
}

// indexedPage returns the page lo..hi of the query's rows as a window of a
// list of total rows; ok is false when some part of the query has no
// index (the caller scans instead).
func (tv *TableView) indexedPage(ctx context.Context, q *ListQuery, pg, size int) (RowList, bool, error) {
	if tv.NoRows || !tv.indexable(q) {
		return RowList{}, false, nil
	}
	if l, ok := tv.sortRangePage(q, pg, size); ok {
		return l, true, nil
	}
	if l, ok := tv.sparsePage(q, pg, size); ok {
		return l, true, nil
	}
	bs, empty := tv.baseBits(q)
	var acc []uint64
	count := -1
	if bs != nil {
		acc, count = bs.w, bs.count
	}
	l, err := tv.pageOf(ctx, q, acc, count, empty, pg, size)
	putBits(bs)
	return l, true, err
}

// pageOf returns the page of the rows acc holds (nil: every row; empty:
// none; count of them when known, else -1) merged with the overlay's
// matching rows.
func (tv *TableView) pageOf(ctx context.Context, q *ListQuery, acc []uint64, count int, empty bool, pg, size int) (RowList, error) {
	if err := ctx.Err(); err != nil {
		return RowList{}, err
	}
	var sortOrd *dataset.Order
	if q.Sort != nil {
		sortOrd = tv.ds.Order(q.Sort.Path)
	}
	baseTotal := int(tv.N)
	switch {
	case empty:
		baseTotal = 0
	case count >= 0:
		baseTotal = count
	case acc != nil:
		baseTotal = dataset.Count(acc)
	}
	var live liveMatch
	if tv.ov != nil && !empty {
		live = tv.overlayMatch(q)
	}
	total := baseTotal + live.count
	if acc == nil && !empty && live.count == 0 && !q.Desc {
		if sortOrd == nil {
			return RowList{n: total, identity: true}, nil
		}
		return RowList{Rows: sortOrd.Rows()}, nil
	}
	return tv.window(q, sortOrd, baseTotal, live, pg, size, func(skip, limit int) []int32 {
		return tv.firstMembers(acc, q, sortOrd, baseTotal, skip, limit)
	}), nil
}

// window returns page pg of a query whose baseTotal base members, in the
// query's order, pick gives at places skip..limit-1 (it is called only
// when there are some), merged with the overlay's matching live rows.
func (tv *TableView) window(q *ListQuery, sortOrd *dataset.Order, baseTotal int, live liveMatch, pg, size int, pick func(skip, limit int) []int32) RowList {
	total := baseTotal + live.count
	lo, hi := PageBounds(total, pg, size)
	if lo >= hi { // past the end: nothing to select or merge
		return RowList{n: total, off: lo, window: true}
	}
	skip := 0
	if live.count == 0 {
		skip = lo
	}
	var members []int32
	if baseTotal > 0 && skip < min(hi, baseTotal) {
		members = pick(skip, min(hi, baseTotal))
	}
	if live.count > 0 {
		members = live.merge(tv, q, sortOrd, members, hi)
		members = members[min(lo, len(members)):]
	}
	return RowList{Rows: members, n: total, off: lo, window: true}
}

// sortRangePage answers a query whose every predicate is one range of
// the sort column (none, or gte and lte on it) without a bitset: the base
// members are that range of the sort order less the rows the overlay
// changed, merged with the overlay's matching rows. Not with a variant,
// which removes rows from it.
func (tv *TableView) sortRangePage(q *ListQuery, pg, size int) (RowList, bool) {
	if q.Sort == nil || tv.member != nil {
		return RowList{}, false
	}
	ord := tv.ds.Order(q.Sort.Path)
	for i := range q.Preds {
		pr := &q.Preds[i]
		if pr.Attr != q.Sort || pr.Op == model.OpLike {
			return RowList{}, false
		}
		if _, _, single := predBounds(ord, pr); !single {
			return RowList{}, false
		}
	}
	lo, hi := sortBounds(q, ord)
	var excl *ChunkedBits
	var live liveMatch
	baseTotal := hi - lo
	if tv.ov != nil {
		excl = tv.ov.changed
		baseTotal -= tv.ov.changedIn(ord, q.Sort.Path, lo, hi)
		live = tv.overlayMatch(q)
	}
	total := baseTotal + live.count
	from, to := PageBounds(total, pg, size)
	if from >= to {
		return RowList{Rows: []int32{}, n: total, off: from, window: true}, true
	}
	skip := from
	if live.count > 0 {
		skip = 0
	}
	var members []int32
	switch limit := min(to, baseTotal); {
	case skip >= limit:
	case excl == nil && !q.Desc:
		members = ord.Rows()[lo+skip : lo+limit : lo+limit]
	case excl == nil:
		members = descPage(ord, lo, hi, skip, limit)
	default:
		members, _ = walkOrder(nil, excl, ord, q.Desc, lo, hi, skip, limit, int64(hi-lo)+1)
	}
	if live.count > 0 {
		members = live.merge(tv, q, ord, members, to)
		members = members[min(from, len(members)):]
	}
	return RowList{Rows: members, n: total, off: from, window: true}, true
}

// indexable reports whether every part of q has an index, built:
// sorting and predicates on SOURCE attributes with a leaf column (not the
// id, whose value may be a position), predicates on constants, and like.
func (tv *TableView) indexable(q *ListQuery) bool {
	if q.Sort != nil && !tv.hasOrder(q.Sort) {
		return false
	}
	for i := range q.Preds {
		a := q.Preds[i].Attr
		switch {
		case a == nil:
			return false
		case a.Mapping == model.MappingConstant:
		case q.Preds[i].Op == model.OpLike:
			if !tv.hasColumn(a) || tv.ds.GramsReady(a.Path) == nil {
				return false
			}
		case !tv.hasOrder(a):
			return false
		}
	}
	return true
}

// hasColumn reports whether a's values are those of a leaf column (base
// reads nothing else for it).
func (tv *TableView) hasColumn(a *Attr) bool {
	return !a.IsID && a.Mapping == model.MappingSource && tv.cols[a.Idx] != nil
}

// hasOrder reports whether a has a column whose Order is built (else it
// is being built in the background and the query scans meanwhile).
func (tv *TableView) hasOrder(a *Attr) bool {
	return tv.hasColumn(a) && tv.ds.OrderReady(a.Path) != nil
}

// baseBits returns the dataset rows of the table that match q and have no
// overlay record, as a bitset (nil: every row; the caller puts it back
// with putBits; its count set when the overlay's rows were removed, in the
// same pass), or empty when none can match.
func (tv *TableView) baseBits(q *ListQuery) (acc *rowBits, empty bool) {
	words := (int(tv.N) + 63) / 64
	for i := range q.Preds {
		pr := &q.Preds[i]
		if pr.Attr.Mapping == model.MappingConstant {
			if !pr.match(pr.Attr.constant) {
				putBits(acc)
				return nil, true
			}
			continue
		}
		var ord *dataset.Order
		lo, hi, single := 0, 0, false
		if pr.Op != model.OpLike {
			ord = tv.ds.Order(pr.Attr.Path)
			lo, hi, single = predBounds(ord, pr)
		}
		switch {
		case acc == nil && single:
			acc = getDirtyBits(words)
			ord.SetRange(acc.w, lo, hi)
		case acc == nil:
			acc = getBits(words)
			tv.addPredicate(acc.w, pr)
		case single:
			acc.keep = ord.AndRange(acc.w, lo, hi, acc.keep)
		default:
			tmp := getBits(words)
			tv.addPredicate(tmp.w, pr)
			andWords(acc.w, tmp.w)
			putBits(tmp)
		}
	}
	if tv.member != nil {
		if acc == nil {
			acc = getBits(words)
			copy(acc.w, tv.member.Words)
		} else {
			andWords(acc.w, tv.member.Words)
		}
	}
	if tv.ov != nil && tv.ov.changed != nil {
		if acc == nil {
			acc = getBits(words)
			for i := range acc.w {
				acc.w[i] = ^uint64(0)
			}
			if rem := int(tv.N) & 63; rem != 0 {
				acc.w[words-1] = (1 << uint(rem)) - 1
			}
		}
		acc.count = tv.ov.changed.andNotCount(acc.w)
	}
	return acc, false
}

// addPredicate sets in dst (zeroed) the rows whose value satisfies pr (see
// predicate for the rules): like from the column's n-grams, the others as
// ranges of the positions of its Order.
func (tv *TableView) addPredicate(dst []uint64, pr *Pred) {
	if pr.Op == model.OpLike {
		tv.addLike(dst, pr)
		return
	}
	ord := tv.ds.Order(pr.Attr.Path)
	switch pr.Op {
	case model.OpEq:
		if isScalarArg(pr.arg) {
			lo, hi := ord.Equal(pr.arg)
			ord.SetRange(dst, lo, hi)
		}
	case model.OpNeq:
		if pr.arg.Kind == dataset.Null {
			_, hi := ord.Section(dataset.Null)
			ord.SetRange(dst, hi, ord.Len())
			return
		}
		s, e := ord.Section(pr.arg.Kind)
		lo, hi := ord.Equal(pr.arg)
		ord.SetRange(dst, s, e)
		ord.ClearRange(dst, lo, hi)
	case model.OpIn:
		for _, v := range pr.Args {
			if isScalarArg(v) {
				lo, hi := ord.Equal(v)
				ord.AddRange(dst, lo, hi)
			}
		}
	case model.OpGt, model.OpGte, model.OpLt, model.OpLte:
		k := pr.arg.Kind
		if k != dataset.Number && k != dataset.String {
			return
		}
		s, e := ord.Section(k)
		switch pr.Op {
		case model.OpGt:
			ord.SetRange(dst, ord.Search(pr.arg, true), e)
		case model.OpGte:
			ord.SetRange(dst, ord.Search(pr.arg, false), e)
		case model.OpLt:
			ord.SetRange(dst, s, ord.Search(pr.arg, false))
		default:
			ord.SetRange(dst, s, ord.Search(pr.arg, true))
		}
	}
}

// addLike sets in dst (zeroed) the rows whose text contains the like
// text ignoring case: the n-gram index's rows, each checked when the
// index gives only a superset.
func (tv *TableView) addLike(dst []uint64, pr *Pred) {
	if pr.arg.Kind != dataset.String {
		return
	}
	rows, exact := tv.ds.Grams(pr.Attr.Path).Like(pr.arg.Str)
	rows.WriteDenseTo(dst)
	if exact {
		return
	}
	col := tv.cols[pr.Attr.Idx]
	for w, word := range dst {
		for word != 0 {
			r := w<<6 + bits.TrailingZeros64(word)
			if !pr.match(col.Value(r)) {
				dst[w] &^= 1 << (uint(r) & 63)
			}
			word &= word - 1
		}
	}
}

// isScalarArg reports whether v can equal a stored value (arguments are
// never Raw: scalarArg refuses lists and objects).
func isScalarArg(v dataset.Value) bool { return v.Kind != dataset.Raw }
