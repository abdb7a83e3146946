package graphql

import (
	"context"

	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/model/dataset"
)

// This file serves AGGREGATE operations: count, and sum, avg, min and max
// of each numeric (Int or Float) attribute over the rows that match where,
// overall and per groupBy key. Only stored numbers count towards the
// statistics (SPEC.md rule 6: other values are of another type); a
// statistic without numbers is null. Groups come in order of their first
// row in storage order (created rows last); at most maxGroups of them.

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
	return &stats{n: make([]int, k), sum: make([]float64, k), min: make([]float64, k), max: make([]float64, k)}
}

func (s *stats) add(vals []dataset.Value) {
	s.count++
	for i, v := range vals {
		if v.Kind != dataset.Number {
			continue
		}
		if s.n[i] == 0 || v.Num < s.min[i] {
			s.min[i] = v.Num
		}
		if s.n[i] == 0 || v.Num > s.max[i] {
			s.max[i] = v.Num
		}
		s.n[i]++
		s.sum[i] += v.Num
	}
}

// value is the map of a TAggregate or TGroup (without groups and key).
func (s *stats) value(nums []*attribute) map[string]any {
	m := map[string]any{"count": s.count}
	if len(nums) == 0 {
		return m
	}
	sum, avg, lo, hi := map[string]any{}, map[string]any{}, map[string]any{}, map[string]any{}
	for i, a := range nums {
		if s.n[i] == 0 {
			sum[a.name], avg[a.name], lo[a.name], hi[a.name] = nil, nil, nil, nil
			continue
		}
		sum[a.name], avg[a.name] = s.sum[i], s.sum[i]/float64(s.n[i])
		lo[a.name], hi[a.name] = s.min[i], s.max[i]
	}
	m["sum"], m["avg"], m["min"], m["max"] = sum, avg, lo, hi
	return m
}

// aggregateResolver serves an AGGREGATE operation.
func (rt *Runtime) aggregateResolver(o *operation) Resolver {
	return func(ctx context.Context, f *Field) (any, error) {
		nums := numericAttrs(o.t)
		tv := f.Parent.(*view).tableView(o.t)
		if tv.notReady != nil {
			f.Report(tv.notReady)
			v := newStats(len(nums)).value(nums)
			v["groups"] = []any{}
			return v, nil
		}
		pq, err := o.powerQuery(map[string]any{"where": f.Args["where"]})
		if err != nil {
			return nil, err
		}
		rows, err := pq.all(ctx, tv)
		if err != nil {
			return nil, err
		}
		return aggregate(ctx, tv, rows, nums, groupKeys(o.t, f.Args["groupBy"]))
	}
}

func groupKeys(t *table, raw any) []*attribute {
	list, _ := raw.([]any)
	var out []*attribute
	for _, x := range list {
		name, _ := x.(string)
		if a := t.field(name); a != nil {
			out = append(out, a)
		}
	}
	return out
}

// aggregate computes the TAggregate value of rows.
func aggregate(ctx context.Context, tv *tableView, rows rowList, nums, by []*attribute) (map[string]any, error) {
	all := newStats(len(nums))
	vals := make([]dataset.Value, len(nums))
	var groups []*stats
	var keys []map[string]any
	index := map[string]int{}
	var spec []byte
	for i := 0; i < rows.len(); i++ {
		r := rows.at(i)
		for k, a := range nums {
			vals[k] = tv.value(a, r)
		}
		all.add(vals)
		if len(by) > 0 {
			spec = spec[:0]
			for _, a := range by {
				spec = appendValueSpec(spec, tv.value(a, r))
			}
			g, ok := index[string(spec)]
			if !ok {
				if len(groups) == maxGroups {
					return nil, model.Errorf(model.ErrBadUserInput, "groupBy makes more than %d groups; filter with where or group by fewer attributes", maxGroups)
				}
				g = len(groups)
				index[string(spec)] = g
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
	out := all.value(nums)
	list := make([]any, len(groups))
	for i, g := range groups {
		m := g.value(nums)
		m["key"] = keys[i]
		list[i] = m
	}
	out["groups"] = list
	return out, nil
}

func groupKey(tv *tableView, by []*attribute, r int32) map[string]any {
	key := make(map[string]any, len(by))
	for _, a := range by {
		key[a.name] = output(model.TypeJSON, tv.value(a, r))
	}
	return key
}
