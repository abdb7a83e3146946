package graphql

import (
	"math/bits"
	"sort"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
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
func (tv *tableView) firstMembers(acc []uint64, q *listQuery, ord *dataset.Order, total, skip, limit int) []int32 {
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
	case acc == nil && !q.desc:
		return ord.Rows()[skip:limit:limit]
	}
	lo, hi := sortBounds(q, ord)
	if acc == nil {
		return descPage(ord, lo, hi, skip, limit)
	}
	span := int64(hi - lo)
	selectCost := int64(len(acc)) + 2*int64(total)
	if int64(limit)*span/int64(total) <= selectCost {
		if out, ok := walkOrder(acc, nil, ord, q.desc, lo, hi, skip, limit, selectCost+int64(limit)); ok {
			return out
		}
	}
	return selectByRank(acc, ord, q.desc, total, skip, limit)
}

// sortBounds returns the positions of ord that the query's predicates on
// the sort attribute leave (its members all lie there).
func sortBounds(q *listQuery, ord *dataset.Order) (lo, hi int) {
	lo, hi = 0, ord.Len()
	for i := range q.preds {
		pr := &q.preds[i]
		if pr.attr != q.sort {
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
func predBounds(ord *dataset.Order, pr *predicate) (lo, hi int, ok bool) {
	k := pr.arg.Kind
	switch pr.op {
	case model.OpEq:
		lo, hi = ord.Equal(pr.arg)
		return lo, hi, isScalarArg(pr.arg)
	case model.OpGt, model.OpGte, model.OpLt, model.OpLte:
		if k != dataset.Number && k != dataset.String {
			return 0, 0, true
		}
		s, e := ord.Section(k)
		switch pr.op {
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

// has reports whether r is in acc, where a nil acc holds every row.
func has(acc []uint64, r int32) bool {
	return acc == nil || acc[r>>6]&(1<<(uint(r)&63)) != 0
}

// walkOrder walks ord's positions [lo, hi) ascending, or descending by
// tie groups each visited forwards (a stable descending sort), keeping
// the members of acc (nil: all rows) not in excl (nil: none) at member
// positions skip..limit-1. It gives up (ok false) after budget positions.
func walkOrder(acc []uint64, excl *engine.ChunkedBits, ord *dataset.Order, desc bool, lo, hi, skip, limit int, budget int64) (out []int32, ok bool) {
	out = make([]int32, 0, limit-skip)
	seen := 0
	rows := ord.Rows()[:hi]
	if !desc {
		for i := lo; i < hi; i++ {
			if int64(i-lo) > budget {
				return nil, false
			}
			if r := rows[i]; has(acc, r) && !excl.Has(r) {
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
			if has(acc, r) && !excl.Has(r) {
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

func forBits(acc []uint64, f func(int32)) {
	for w, word := range acc {
		for word != 0 {
			f(int32(w<<6 + bits.TrailingZeros64(word)))
			word &= word - 1
		}
	}
}
