package engine

import (
	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/model"
)

// This file picks a page of an indexed list query: the members of a row
// bitset at member positions skip..limit-1 of the query's order.

// firstMembers returns the base rows at positions skip..limit-1 of the
// query order among the members of acc (nil: all rows), total of them.
// Storage order selects by popcount. A sort walks its Order, within the
// positions its own column's predicates allow, unless selecting the
// members by rank costs less; a walk that runs past that cost (members
// bunched at the far end) stops and selects instead.
func (tv *TableView) firstMembers(acc []uint64, q *ListQuery, ord *dataset.Order, total, skip, limit int) []int32 {
	limit = min(limit, total)
	if skip >= limit {
		return nil
	}
	switch {
	case ord == nil && acc == nil:
		out := make([]int32, 0, limit-skip)
		for r := skip; r < limit; r++ {
			out = append(out, int32(r))
		}
		return out
	case ord == nil:
		return selectBits(acc, skip, limit)
	case acc == nil && !q.Desc:
		return ord.Rows()[skip:limit:limit]
	}
	lo, hi := sortBounds(q, ord)
	if acc == nil {
		return descPage(ord, lo, hi, skip, limit)
	}
	span := int64(hi - lo)
	selectCost := int64(len(acc)) + 2*int64(total)
	if int64(limit)*span/int64(total) <= selectCost {
		if out, ok := walkOrder(acc, nil, ord, q.Desc, lo, hi, skip, limit, selectCost+int64(limit)); ok {
			return out
		}
	}
	return selectByRank(acc, ord, q.Desc, total, skip, limit)
}

// sortBounds returns the positions of ord that the query's predicates on
// the sort attribute leave (its members all lie there).
func sortBounds(q *ListQuery, ord *dataset.Order) (lo, hi int) {
	lo, hi = 0, ord.Len()
	for i := range q.Preds {
		pr := &q.Preds[i]
		if pr.Attr != q.Sort {
			continue
		}
		a, b, ok := predBounds(ord, pr)
		if ok {
			lo, hi = max(lo, a), min(hi, b)
		}
	}
	return lo, max(lo, hi)
}

// predBounds returns the positions holding every row pr matches, when
// they are one range.
func predBounds(ord *dataset.Order, pr *Pred) (lo, hi int, ok bool) {
	k := pr.arg.Kind
	switch pr.Op {
	case model.OpEq:
		lo, hi = ord.Equal(pr.arg)
		return lo, hi, isScalarArg(pr.arg)
	case model.OpGt, model.OpGte, model.OpLt, model.OpLte:
		if k != dataset.Number && k != dataset.String {
			return 0, 0, true
		}
		s, e := ord.Section(k)
		switch pr.Op {
		case model.OpGt:
			return ord.Search(pr.arg, true), e, true
		case model.OpGte:
			return ord.Search(pr.arg, false), e, true
		case model.OpLt:
			return s, ord.Search(pr.arg, false), true
		}
		return s, ord.Search(pr.arg, true), true
	case model.OpLike:
		if k == dataset.String {
			s, e := ord.Section(k)
			return s, e, true
		}
	}
	return 0, 0, false
}
