package engine

import (
	"context"

	"github.com/mockgql/mockgql/dataset"
)

const maxGroups = 10000

// stats accumulates the statistics of one set of rows.
type stats struct {
	count int
	n     []int
	sum   []float64
	min   []float64
	max   []float64
}

func newStats(k int) *stats {
	f := make([]float64, 3*k) // one allocation for the three float columns
	return &stats{n: make([]int, k), sum: f[:k:k], min: f[k : 2*k : 2*k], max: f[2*k:]}
}

func (s *stats) add(vals []dataset.Value) {
	s.count++
	for i, v := range vals {
		if v.Kind == dataset.Number {
			s.addNum(i, v.Num)
		}
	}
}

// addNum counts the number x of numeric attribute i.
func (s *stats) addNum(i int, x float64) {
	if s.n[i] == 0 || x < s.min[i] {
		s.min[i] = x
	}
	if s.n[i] == 0 || x > s.max[i] {
		s.max[i] = x
	}
	s.n[i]++
	s.sum[i] += x
}

// merge adds the statistics x of numeric attribute i.
func (s *stats) merge(i int, x dataset.NumberStats) {
	st := dataset.NumberStats{N: s.n[i], Sum: s.sum[i], Min: s.min[i], Max: s.max[i]}
	st.Merge(x)
	s.n[i], s.sum[i], s.min[i], s.max[i] = st.N, st.Sum, st.Min, st.Max
}

// StatNames are the statistics of a TAggregate or TGroup, in the order of
// a statSet.
func StatNames() [4]string { return [4]string{"sum", "avg", "min", "max"} }

// StatSet tells which statistics a query selects.
type StatSet [4]bool

// AllStats selects every statistic.
func AllStats() StatSet { return StatSet{true, true, true, true} }

// value is the map of a TAggregate or TGroup (without groups and key),
// with the statistics of want: the others are not selected, and building
// their maps for every group cost more than computing them.
func (s *stats) value(nums []*Attr, want StatSet) map[string]any {
	m := map[string]any{"count": s.count}
	if len(nums) == 0 {
		return m
	}
	for k, name := range StatNames() {
		if !want[k] {
			continue
		}
		vals := make(map[string]any, len(nums))
		for i, a := range nums {
			vals[a.Name] = s.stat(k, i)
		}
		m[name] = vals
	}
	return m
}

// stat is statistic k (of statNames) of numeric attribute i, nil when no
// row has a number there.
func (s *stats) stat(k, i int) any {
	if s.n[i] == 0 {
		return nil
	}
	return [4]float64{s.sum[i], s.sum[i] / float64(s.n[i]), s.min[i], s.max[i]}[k]
}

// MaxGroupBy bounds the attributes of a groupBy.
const MaxGroupBy = 4

// groupKeyer finds the group of a row. With built indexes, a value is the
// position of its tie group in its column's Order (Rank for unchanged
// dataset rows, Equal for live values), so grouping costs no text; values
// the dataset lacks, and columns without an index, fall back to the
// canonical text of the values.
type groupKeyer struct {
	tv     *TableView
	by     []*Attr
	ords   []*dataset.Order // nil: by text
	byRank map[[MaxGroupBy]int32]int
	byText map[string]int
	extra  map[string]int32 // live values missing from an Order
	spec   []byte
}

func newGroupKeyer(tv *TableView, by []*Attr) *groupKeyer {
	g := &groupKeyer{tv: tv, by: by, byRank: map[[MaxGroupBy]int32]int{}, byText: map[string]int{}, extra: map[string]int32{}}
	if len(by) == 0 || tv.NoRows || tv.N == 0 {
		return g
	}
	ords := make([]*dataset.Order, len(by))
	for i, a := range by {
		if !tv.hasOrder(a) {
			return g
		}
		ords[i] = tv.ds.Order(a.Path)
	}
	g.ords = ords
	return g
}

// group returns the group of row r, or next and false when r starts a new
// group (which then has the index next).
func (g *groupKeyer) group(r int32, next int) (int, bool) {
	if g.ords == nil {
		g.spec = g.spec[:0]
		for _, a := range g.by {
			g.spec = appendValueSpec(g.spec, g.tv.Value(a, r))
		}
		if i, ok := g.byText[string(g.spec)]; ok {
			return i, true
		}
		g.byText[string(g.spec)] = next
		return next, false
	}
	var k [MaxGroupBy]int32
	live := r >= g.tv.N || g.tv.ov.isChanged(r)
	for i, ord := range g.ords {
		k[i] = g.rank(ord, g.by[i], r, live)
	}
	if i, ok := g.byRank[k]; ok {
		return i, true
	}
	g.byRank[k] = next
	return next, false
}

func (g *groupKeyer) rank(ord *dataset.Order, a *Attr, r int32, live bool) int32 {
	if !live {
		return ord.Rank(r)
	}
	v := g.tv.Value(a, r)
	if isScalarArg(v) {
		if lo, hi := ord.Equal(v); lo < hi {
			return int32(lo)
		}
	}
	s := string(appendValueSpec(nil, v))
	id, ok := g.extra[s]
	if !ok {
		id = -1 - int32(len(g.extra))
		g.extra[s] = id
	}
	return id
}

// Aggregate computes the TAggregate value of rows.
func Aggregate(ctx context.Context, tv *TableView, rows RowList, nums, by []*Attr, want StatSet) (map[string]any, error) {
	all := newStats(len(nums))
	vals := make([]dataset.Value, len(nums))
	var groups []*stats
	var keys []map[string]any
	gk := newGroupKeyer(tv, by)
	for i := 0; i < rows.Len(); i++ {
		r := rows.At(i)
		for k, a := range nums {
			vals[k] = tv.Value(a, r)
		}
		all.add(vals)
		if len(by) > 0 {
			g, ok := gk.group(r, len(groups))
			if !ok {
				if len(groups) == maxGroups {
					return nil, tooManyGroups()
				}
				groups = append(groups, newStats(len(nums)))
				keys = append(keys, groupKey(tv, by, r))
			}
			groups[g].add(vals)
		}
		if i%scanCheck == scanCheck-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
	}
	out := all.value(nums, want)
	list := make([]any, len(groups))
	for i, g := range groups {
		m := g.value(nums, want)
		m["key"] = keys[i]
		list[i] = m
	}
	out["groups"] = list
	return out, nil
}

func groupKey(tv *TableView, by []*Attr, r int32) map[string]any {
	key := make(map[string]any, len(by))
	for _, a := range by {
		if v := tv.Value(a, r); v.Kind != dataset.Null {
			key[a.Name] = JSONOf(v)
		} else {
			key[a.Name] = nil
		}
	}
	return key
}

// EmptyAggregate is the aggregate value of no rows (count 0, every
// statistic null, no groups): what a table not ready answers.
func EmptyAggregate(nums []*Attr) map[string]any {
	v := newStats(len(nums)).value(nums, AllStats())
	v["groups"] = []any{}
	return v
}
