package engine

import (
	"context"
	"slices"

	"github.com/mockgql/mockgql/dataset"
)

// This file answers the power queries the list engine alone does not (a
// where remainder with or, not or nin; two or more sort keys) from the
// column indexes: the matching dataset rows are one bitset (the list
// engine's bitset of the parameters and the and-ed predicates, narrowed by
// the remainder's bitset algebra), the total is its popcount plus the
// matching live rows, and a page walks the first key's Order by tie
// groups, sorting each group's members by the further keys' ranks, until
// the page is full. The overlay's live rows are matched on their live
// values and merged in.

// powerSet is the matches of a power query: the dataset rows without an
// overlay record as a bitset, and the overlay's live rows that match, in
// the query's order.
type powerSet struct {
	acc  *rowBits // nil: every dataset row
	base int      // members of acc
	Live []int32
}

// total is the number of rows in the set.
func (s *powerSet) total() int { return s.base + len(s.Live) }

func (s *powerSet) words() []uint64 {
	if s.acc == nil {
		return nil
	}
	return s.acc.w
}

// release returns the set's scratch bitsets; s is not used after.
func (s *powerSet) release() {
	putBits(s.acc)
	s.acc = nil
}

// has reports whether dataset row r (without a record) matches.
func (s *powerSet) has(r int32) bool { return hasBit(s.words(), r) }

// indexedSet returns the matches of pq, or ok false when a sort key has
// no built index or the table has no dataset rows (the caller scans).
// The caller releases the set.
func (pq *Query) indexedSet(ctx context.Context, tv *TableView) (s powerSet, ok bool, err error) {
	if tv.NoRows || tv.N == 0 {
		return s, false, nil
	}
	for _, k := range pq.Keys {
		if !tv.hasOrder(k.Attr) {
			return s, false, nil
		}
	}
	empty := false
	if tv.indexable(pq.List) {
		s.acc, empty = tv.baseBits(pq.List)
	} else {
		s.acc = tv.candidates()
		err = tv.andPreds(ctx, s.acc.w, pq.List.Preds, false)
	}
	if err == nil && !empty && pq.Rest != nil {
		if s.acc == nil {
			s.acc = tv.candidates()
		}
		err = tv.andNode(ctx, s.acc.w, pq.Rest)
	}
	switch {
	case err != nil:
		s.release()
		return s, false, err
	case empty:
		s.release()
		s.acc = getBits(tv.words())
	case s.acc == nil:
		s.base = int(tv.N)
	default:
		s.base = dataset.Count(s.acc.w)
	}
	if !empty {
		s.Live = pq.liveMatches(tv)
	}
	return s, true, nil
}

// liveMatches returns the overlay's live rows of the table that match pq
// on their live values, in the query's order.
func (pq *Query) liveMatches(tv *TableView) []int32 {
	var out []int32
	for _, r := range tv.ov.live() {
		if (r >= tv.N || tv.InTable(r)) && tv.MatchLive(pq.List.Preds, r) && (pq.Rest == nil || pq.Rest.Match(tv, r)) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, pq.Compare(tv))
	return out
}

// Compare orders rows by every key (values with the overlay applied),
// then by storage order: dataset rows by number, then created rows.
func (pq *Query) Compare(tv *TableView) func(a, b int32) int { return tv.orderBy(pq.Keys) }

// rowsOf returns the matches at positions lo..hi-1 of the query's order
// as a window of a list of every match.
func (pq *Query) rowsOf(tv *TableView, s *powerSet, lo, hi int) RowList {
	total := s.total()
	lo, hi = min(lo, total), min(hi, total)
	skip := lo
	if len(s.Live) > 0 {
		skip = 0 // live rows may come first
	}
	members := pq.baseMembers(tv, s, skip, hi)
	if len(s.Live) > 0 {
		members = mergeOrdered(members, s.Live, pq.Compare(tv), hi)
		members = members[min(lo, len(members)):]
	}
	return RowList{Rows: members, n: total, off: lo, window: true}
}

// baseMembers returns the members of s.acc at positions skip..limit-1 of
// the query's order.
func (pq *Query) baseMembers(tv *TableView, s *powerSet, skip, limit int) []int32 {
	limit = min(limit, s.base)
	if skip >= limit {
		return nil
	}
	acc := s.words()
	switch len(pq.Keys) {
	case 0:
		if acc == nil {
			out := make([]int32, 0, limit-skip)
			for r := skip; r < limit; r++ {
				out = append(out, int32(r))
			}
			return out
		}
		return selectBits(acc, skip, limit)
	case 1:
		return tv.firstMembers(acc, pq.List, tv.ds.Order(pq.List.Sort.Path), s.base, skip, limit)
	}
	ord := tv.ds.Order(pq.Keys[0].Attr.Path)
	lo, hi := sortBounds(pq.List, ord)
	w := pq.newWalk(tv, acc, skip, limit)
	if w.worthWalking(s.base, hi-lo) && w.walk(lo, hi) {
		return w.out
	}
	return pq.selectMembers(tv, acc, skip, limit, nil)
}
