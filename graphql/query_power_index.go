package graphql

import (
	"cmp"
	"context"
	"slices"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
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
	live []int32
}

func (s *powerSet) total() int { return s.base + len(s.live) }

func (s *powerSet) words() []uint64 {
	if s.acc == nil {
		return nil
	}
	return s.acc.w
}

func (s *powerSet) release() {
	putBits(s.acc)
	s.acc = nil
}

// has reports whether dataset row r (without a record) matches.
func (s *powerSet) has(r int32) bool { return engine.HasBit(s.words(), r) }

// indexedSet returns the matches of pq, or ok false when a sort key has
// no built index or the table has no dataset rows (the caller scans).
// The caller releases the set.
func (pq *powerQuery) indexedSet(ctx context.Context, tv *tableView) (s powerSet, ok bool, err error) {
	if tv.noRows || tv.n == 0 {
		return s, false, nil
	}
	for _, k := range pq.keys {
		if !tv.hasOrder(k.attr) {
			return s, false, nil
		}
	}
	empty := false
	if tv.indexable(pq.q) {
		s.acc, empty = tv.baseBits(pq.q)
	} else {
		s.acc = tv.candidates()
		err = tv.andPreds(ctx, s.acc.w, pq.q.preds, false)
	}
	if err == nil && !empty && pq.rest != nil {
		if s.acc == nil {
			s.acc = tv.candidates()
		}
		err = tv.andNode(ctx, s.acc.w, pq.rest)
	}
	switch {
	case err != nil:
		s.release()
		return s, false, err
	case empty:
		s.release()
		s.acc = getBits(tv.words())
	case s.acc == nil:
		s.base = int(tv.n)
	default:
		s.base = dataset.Count(s.acc.w)
	}
	if !empty {
		s.live = pq.liveMatches(tv)
	}
	return s, true, nil
}

// liveMatches returns the overlay's live rows of the table that match pq
// on their live values, in the query's order.
func (pq *powerQuery) liveMatches(tv *tableView) []int32 {
	var out []int32
	for _, r := range tv.ov.live() {
		if (r >= tv.n || tv.inTable(r)) && tv.matchLive(pq.q.preds, r) && (pq.rest == nil || pq.rest.match(tv, r)) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, pq.compare(tv))
	return out
}

// compare orders rows by every key (values with the overlay applied),
// then by storage order: dataset rows by number, then created rows.
func (pq *powerQuery) compare(tv *tableView) func(a, b int32) int {
	return func(a, b int32) int {
		for _, k := range pq.keys {
			c := dataset.Compare(tv.value(k.attr, a), tv.value(k.attr, b))
			if k.desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return cmp.Compare(a, b)
	}
}

// rowsOf returns the matches at positions lo..hi-1 of the query's order
// as a window of a list of every match.
func (pq *powerQuery) rowsOf(tv *tableView, s *powerSet, lo, hi int) rowList {
	total := s.total()
	lo, hi = min(lo, total), min(hi, total)
	skip := lo
	if len(s.live) > 0 {
		skip = 0 // live rows may come first
	}
	members := pq.baseMembers(tv, s, skip, hi)
	if len(s.live) > 0 {
		members = engine.MergeOrdered(members, s.live, pq.compare(tv), hi)
		members = members[min(lo, len(members)):]
	}
	return rowList{rows: members, n: total, off: lo, window: true}
}

// baseMembers returns the members of s.acc at positions skip..limit-1 of
// the query's order.
func (pq *powerQuery) baseMembers(tv *tableView, s *powerSet, skip, limit int) []int32 {
	limit = min(limit, s.base)
	if skip >= limit {
		return nil
	}
	acc := s.words()
	switch len(pq.keys) {
	case 0:
		if acc == nil {
			out := make([]int32, 0, limit-skip)
			for r := skip; r < limit; r++ {
				out = append(out, int32(r))
			}
			return out
		}
		return engine.SelectBits(acc, skip, limit)
	case 1:
		return tv.firstMembers(acc, pq.q, tv.ds.Order(pq.q.sort.path), s.base, skip, limit)
	}
	ord := tv.ds.Order(pq.keys[0].attr.path)
	lo, hi := sortBounds(pq.q, ord)
	w := pq.newWalk(tv, acc, skip, limit)
	if w.worthWalking(s.base, hi-lo) && w.walk(lo, hi) {
		return w.out
	}
	return pq.selectMembers(tv, acc, skip, limit, nil)
}
