package engine

import (
	"slices"
)

// This file picks the members of a power query's bitset that come last
// in the order of its sort keys, or last before a cursor's row (Relay's
// last and before): the walk of query_walk.go run backwards, from
// the cursor's tie group (or the order's end) against the first key's
// direction, each group's members read from its end, until the page is
// full. Where the walk would cost more than selecting every member, every
// member before the cursor is keyed and sorted instead.

// beforeMembers returns the last limit matches before row c (a match; c
// < 0: the end) in the query's order, in that order: a seek to c's place,
// not a scan of the matches before it.
func (pq *Query) beforeMembers(tv *TableView, s *powerSet, c int32, limit int) []int32 {
	order := pq.Compare(tv)
	var back []int32 // nearest first
	if len(pq.Keys) == 0 {
		to := tv.N
		if c >= 0 {
			to = min(c, tv.N)
		}
		back = bitsBefore(s.words(), to, limit)
	} else {
		back = pq.walkBack(tv, s, c, limit)
	}
	live := s.Live
	if c >= 0 {
		i, _ := slices.BinarySearchFunc(live, c, order)
		live = live[:i]
	}
	return mergeBack(back, live, order, limit)
}

// walkBack returns, nearest first, the last limit members of s.acc
// before row c (c < 0: the end) in the keys' order.
func (pq *Query) walkBack(tv *TableView, s *powerSet, c int32, limit int) []int32 {
	ord := tv.ds.Order(pq.Keys[0].Attr.Path)
	lo, hi := sortBounds(pq.List, ord)
	w := pq.newWalk(tv, s.words(), 0, limit)
	ok := w.worthWalking(s.base, hi-lo)
	up := pq.Keys[0].Desc // backwards: against the first key's direction
	switch {
	case c < 0:
		ok = ok && w.groups(lo, hi, up, w.groupBack)
	default:
		elo, ehi := ord.Equal(tv.Value(pq.Keys[0].Attr, c))
		elo, ehi = min(max(elo, lo), hi), min(max(ehi, lo), hi)
		w.before = c
		var more bool
		more, ok = w.groupBack(elo, ehi)
		if more && ok && up {
			ok = w.groups(ehi, hi, true, w.groupBack)
		} else if more && ok {
			ok = w.groups(lo, elo, false, w.groupBack)
		}
	}
	if ok {
		return w.out
	}
	order := pq.Compare(tv)
	all := pq.selectMembers(tv, s.words(), 0, s.base, func(r int32) bool { return c < 0 || order(r, c) < 0 })
	all = all[max(0, len(all)-limit):]
	slices.Reverse(all)
	return all
}

// groupBack takes, nearest first, the members among positions [g, e) (one
// tie group of the first key) before w.before when it is set: the group's
// members in the further keys' order, read from the end. more is false
// when the page is full, ok false when the walk ran past its budget. A
// big group is ordered by the further keys' own indexes (bigGroupBack),
// as group does.
func (w *keyWalk) groupBack(g, e int) (more, ok bool) {
	if w.spend(g, e) {
		return false, false
	}
	if w.big(g, e) {
		return w.bigGroupBack(g, e), true
	}
	w.gather(g, e, w.before, -1)
	w.before = -1
	w.sortGroup()
	for i := len(w.grp) - 1; i >= 0; i-- {
		if w.out = append(w.out, w.grp[i].r); len(w.out) == w.limit {
			return false, true
		}
	}
	return true, true
}

// bigGroupBack takes, nearest first, the last members among positions
// [g, e) as a bitset ordered by the further keys (bigGroup's sub-query,
// walked backwards). It returns false when the page is full.
func (w *keyWalk) bigGroupBack(g, e int) bool {
	sub, s := w.groupQuery(g, e)
	defer s.release()
	got := sub.beforeMembers(w.tv, &s, w.before, w.limit-len(w.out))
	w.before = -1
	for i := len(got) - 1; i >= 0; i-- {
		w.out = append(w.out, got[i])
	}
	return len(w.out) < w.limit
}
