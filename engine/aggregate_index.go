package engine

import (
	"context"
	"math/bits"
	"slices"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/model"
)

// This file computes AGGREGATE answers from the indexes: the matching
// dataset rows are the where filter's bitset (count is its popcount), and
// one pass over its members in storage order reads each numeric
// attribute's number straight from its column (no Value, no text) and
// finds each row's group by the number of its value among the groupBy
// column's distinct values (dataset.Groups). Over every dataset row (no
// where, no variant, no overlay change to a dataset row) the statistics
// are the column's precomputed GroupSums: no row is read at all. The
// overlay's live rows are added on their live values.

// aggPass accumulates one aggregate.
type aggPass struct {
	tv     *TableView
	nums   []*Attr
	cols   []*dataset.Column // per numeric attribute; nil: read its value
	by     []*Attr
	grps   []*dataset.Groups
	all    *stats
	groups []*stats
	first  []int32 // per group: its first row in storage order
	dense  []int32 // one groupBy column: its group number → index+1
	index  map[[MaxGroupBy]int32]int
	extra  map[string]int32 // live values no dataset row holds
}

// IndexedAggregate answers an AGGREGATE from the indexes; ok is false
// when one is missing (it starts building in the background and the
// caller reads the rows meanwhile).
func IndexedAggregate(ctx context.Context, tv *TableView, pq *Query, nums, by []*Attr, want StatSet) (map[string]any, bool, error) {
	if tv.NoRows || tv.N == 0 {
		return nil, false, nil
	}
	grps := make([]*dataset.Groups, len(by))
	for i, a := range by {
		if !tv.hasOrder(a) {
			return nil, false, nil
		}
		if grps[i] = tv.ds.GroupsReady(a.Path); grps[i] == nil {
			return nil, false, nil
		}
	}
	ag := newAggPass(tv, nums, by, grps)
	var live []int32
	if done, err := ag.fromSums(pq); err != nil {
		return nil, true, err
	} else if done {
		live = pq.liveMatches(tv)
	} else {
		s, ok, err := pq.indexedSet(ctx, tv)
		if err != nil || !ok {
			return nil, false, err
		}
		defer s.release()
		if err := ag.base(ctx, s.words()); err != nil {
			return nil, true, err
		}
		live = s.Live
	}
	live = slices.Clone(live)
	slices.Sort(live)
	for _, r := range live {
		if err := ag.row(r, true); err != nil {
			return nil, true, err
		}
	}
	return ag.value(want), true, nil
}

func newAggPass(tv *TableView, nums, by []*Attr, grps []*dataset.Groups) *aggPass {
	ag := &aggPass{tv: tv, nums: nums, cols: make([]*dataset.Column, len(nums)), by: by, grps: grps, all: newStats(len(nums)),
		index: map[[MaxGroupBy]int32]int{}, extra: map[string]int32{}}
	for i, a := range nums {
		if tv.hasColumn(a) {
			ag.cols[i] = tv.cols[a.Idx]
		}
	}
	if len(grps) == 1 && grps[0].Len() <= 1<<16 {
		ag.dense = make([]int32, grps[0].Len())
	}
	return ag
}

// base adds the members of acc (nil: every dataset row), in storage
// order: their groups in one pass, then each numeric column's numbers in
// one pass of the column (dataset.SumByGroup), or, grouping by several
// columns, each member's group and numbers in turn.
func (ag *aggPass) base(ctx context.Context, acc []uint64) error {
	if len(ag.by) > 1 || (len(ag.by) == 1 && ag.dense == nil) {
		return ag.eachMember(ctx, acc, func(r int32) error { return ag.row(r, false) })
	}
	var ids, index []int32
	if len(ag.by) == 1 {
		if err := ag.countGroups(ctx, acc); err != nil {
			return err
		}
		ids, index = ag.grps[0].IDs(), make([]int32, len(ag.dense))
		for i, d := range ag.dense {
			index[i] = d - 1
		}
	} else if acc == nil {
		ag.all.count += int(ag.tv.N)
	} else {
		ag.all.count += dataset.Count(acc)
	}
	for i, a := range ag.nums {
		var all [1]dataset.NumberStats
		groups := make([]dataset.NumberStats, len(ag.groups))
		if c := ag.cols[i]; c != nil {
			if index == nil {
				c.SumByGroup(acc, int(ag.tv.N), nil, nil, all[:])
			} else { // overall: the groups' statistics combined
				c.SumByGroup(acc, int(ag.tv.N), ids, index, groups)
				for _, g := range groups {
					all[0].Merge(g)
				}
			}
		} else if err := ag.eachMember(ctx, acc, func(r int32) error {
			if v := ag.tv.base(a, r); v.Kind == dataset.Number {
				all[0].Add(v.Num)
				if index != nil {
					groups[index[ids[r]]].Add(v.Num)
				}
			}
			return nil
		}); err != nil {
			return err
		}
		ag.all.merge(i, all[0])
		for g := range groups {
			ag.groups[g].merge(i, groups[g])
		}
	}
	return nil
}

// eachMember calls f with each member of acc (nil: every dataset row) in
// storage order, checking the context every scanCheck rows.
func (ag *aggPass) eachMember(ctx context.Context, acc []uint64, f func(r int32) error) error {
	if acc == nil {
		for r := int32(0); r < ag.tv.N; r++ {
			if r%scanCheck == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			if err := f(r); err != nil {
				return err
			}
		}
		return nil
	}
	for w, word := range acc {
		if w%(scanCheck/64) == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		for word != 0 {
			if err := f(int32(w<<6 + bits.TrailingZeros64(word))); err != nil {
				return err
			}
			word &= word - 1
		}
	}
	return nil
}

// countGroups counts the members of acc (nil: every dataset row) per
// group of the one groupBy column, then adds the groups in order of their
// first member.
func (ag *aggPass) countGroups(ctx context.Context, acc []uint64) error {
	ids := ag.grps[0].IDs()
	counts := make([]int, len(ag.dense))
	first := make([]int32, len(ag.dense))
	count := func(r int32) {
		id := ids[r]
		if counts[id] == 0 {
			first[id] = r
		}
		counts[id]++
	}
	if err := ag.eachMember(ctx, acc, func(r int32) error { count(r); return nil }); err != nil {
		return err
	}
	var used []int32
	for id, c := range counts {
		if c > 0 {
			used = append(used, int32(id))
		}
	}
	slices.SortFunc(used, func(a, b int32) int { return int(first[a]) - int(first[b]) })
	for _, id := range used {
		idx, err := ag.newGroup([MaxGroupBy]int32{id}, first[id])
		if err != nil {
			return err
		}
		ag.groups[idx].count = counts[id]
		ag.all.count += counts[id]
	}
	return nil
}

// row adds row r: a dataset row without a record, or a live row.
func (ag *aggPass) row(r int32, live bool) error {
	var g *stats
	if len(ag.by) > 0 {
		i, err := ag.group(r, live)
		if err != nil {
			return err
		}
		g = ag.groups[i]
		g.count++
	}
	ag.all.count++
	for i, a := range ag.nums {
		var x float64
		var ok bool
		if c := ag.cols[i]; c != nil && !live {
			x, ok = c.Number(int(r))
		} else if v := ag.tv.Value(a, r); v.Kind == dataset.Number {
			x, ok = v.Num, true
		}
		if ok {
			ag.all.addNum(i, x)
			if g != nil {
				g.addNum(i, x)
			}
		}
	}
	return nil
}

// group returns the index of r's group, adding the group on its first row.
func (ag *aggPass) group(r int32, live bool) (int, error) {
	var k [MaxGroupBy]int32
	for i, g := range ag.grps {
		if !live {
			k[i] = g.ID(r)
			continue
		}
		v := ag.tv.Value(ag.by[i], r)
		if id, ok := g.Of(v); ok && isScalarArg(v) {
			k[i] = id
			continue
		}
		s := string(appendValueSpec(nil, v))
		id, ok := ag.extra[s]
		if !ok {
			id = -1 - int32(len(ag.extra))
			ag.extra[s] = id
		}
		k[i] = id
	}
	idx, ok := -1, false
	if ag.dense != nil && k[0] >= 0 {
		idx, ok = int(ag.dense[k[0]])-1, ag.dense[k[0]] > 0
	} else {
		idx, ok = ag.index[k]
	}
	if ok {
		ag.first[idx] = min(ag.first[idx], r)
		return idx, nil
	}
	return ag.newGroup(k, r)
}

func (ag *aggPass) newGroup(k [MaxGroupBy]int32, r int32) (int, error) {
	if len(ag.groups) == maxGroups {
		return 0, tooManyGroups()
	}
	idx := len(ag.groups)
	ag.groups = append(ag.groups, newStats(len(ag.nums)))
	ag.first = append(ag.first, r)
	if ag.dense != nil && k[0] >= 0 {
		ag.dense[k[0]] = int32(idx + 1)
	} else {
		ag.index[k] = idx
	}
	return idx, nil
}

func tooManyGroups() error {
	return model.Errorf(model.CodeBadUserInput, "groupBy makes more than %d groups; filter with where or group by fewer attributes", maxGroups)
}

// fromSums fills the statistics of the matching dataset rows from the
// precomputed GroupSums when those rows are whole groups of them: every
// row (no where), grouped by at most one column; or, without groupBy, the
// rows equal to one value (a where of a single eq): that value's group.
// It needs no variant, no updated or deleted dataset row, and a column
// for every numeric attribute whose sums are built. done is false when
// it does not apply.
func (ag *aggPass) fromSums(pq *Query) (done bool, err error) {
	tv := ag.tv
	if pq.Rest != nil || tv.member != nil || (tv.ov != nil && len(tv.ov.rowIdx) > 0) || len(ag.by) > 1 {
		return false, nil
	}
	switch preds := pq.List.Preds; {
	case len(preds) == 0:
		return ag.everyRow()
	case len(preds) == 1 && len(ag.by) == 0:
		return ag.oneValue(&preds[0])
	}
	return false, nil
}

// sums returns the GroupSums of every numeric attribute over the groups
// of column by ("": every row), or nil when one is not built.
func (ag *aggPass) sums(by string) []*dataset.GroupSums {
	out := make([]*dataset.GroupSums, len(ag.nums))
	for i, c := range ag.cols {
		if c == nil {
			return nil
		}
		if out[i] = ag.tv.ds.SumsReady(by, c.Path()); out[i] == nil {
			return nil
		}
	}
	return out
}

func (ag *aggPass) everyRow() (bool, error) {
	by := ""
	if len(ag.by) == 1 {
		by = ag.by[0].Path
	}
	all, sums := ag.sums(""), ag.sums(by)
	if all == nil || sums == nil {
		return false, nil
	}
	ag.all.count = int(ag.tv.N)
	fillStats(ag.all, all, 0)
	if by == "" {
		return true, nil
	}
	g := ag.grps[0]
	if g.Len() > maxGroups {
		return true, tooManyGroups()
	}
	for id := range g.Len() {
		idx, _ := ag.newGroup([MaxGroupBy]int32{int32(id)}, g.FirstRow(int32(id)))
		st := ag.groups[idx]
		st.count = g.Size(int32(id))
		fillStats(st, sums, id)
	}
	return true, nil
}

// oneValue fills the statistics of the rows pr (an eq) matches: one
// group of pr's column.
func (ag *aggPass) oneValue(pr *Pred) (bool, error) {
	if pr.Op != model.OpEq || !isScalarArg(pr.arg) || !ag.tv.hasOrder(pr.Attr) {
		return false, nil
	}
	g := ag.tv.ds.GroupsReady(pr.Attr.Path)
	sums := ag.sums(pr.Attr.Path)
	if g == nil || sums == nil {
		return false, nil
	}
	if id, ok := g.Of(pr.arg); ok {
		ag.all.count = g.Size(id)
		fillStats(ag.all, sums, int(id))
	}
	return true, nil
}

// fillStats adds to st group id of sums (one per numeric attribute).
func fillStats(st *stats, sums []*dataset.GroupSums, id int) {
	for i, gs := range sums {
		st.merge(i, gs.Stats[id])
	}
}

// value is the TAggregate value, groups in order of their first row.
func (ag *aggPass) value(want StatSet) map[string]any {
	out := ag.all.value(ag.nums, want)
	order := make([]int, len(ag.groups))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return int(ag.first[a]) - int(ag.first[b]) })
	list := make([]any, len(order))
	for i, idx := range order {
		m := ag.groups[idx].value(ag.nums, want)
		m["key"] = groupKey(ag.tv, ag.by, ag.first[idx])
		list[i] = m
	}
	out["groups"] = list
	return out
}
