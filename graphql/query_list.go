package graphql

import (
	"cmp"
	"context"
	"slices"
	"sort"
	"weak"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
)

// listQuery is a list request reduced to what selects and orders rows.
type listQuery struct {
	sort  *attribute // nil: storage order
	desc  bool
	preds []predicate
	spec  string // canonical text of the above, for cache keys
}

// rowList is an ordered list of rows: rows, or 0..n-1 when identity is set
// (all rows in storage order, without allocating them), or, when window
// is set, a list of n rows of which rows holds those from position off
// (a page). rows may be owned by the dataset or the cache: never modify it.
type rowList struct {
	rows     []int32
	n        int
	off      int
	identity bool
	window   bool
}

func (l rowList) len() int {
	if l.identity || l.window {
		return l.n
	}
	return len(l.rows)
}

// at returns the row at position i; a window holds only its page.
func (l rowList) at(i int) int32 {
	switch {
	case l.identity:
		return int32(i)
	case l.window:
		return l.rows[i-l.off]
	}
	return l.rows[i]
}

// pageRows returns the rows of a list query for page pg of size rows: a
// window from the indexes when the query has them, else the whole list
// from rows.
func (tv *tableView) pageRows(ctx context.Context, q *listQuery, pg, size int) (rowList, error) {
	if l, ok, err := tv.indexedPage(ctx, q, pg, size); ok {
		return l, err
	}
	return tv.rows(ctx, q)
}

// scanCheck is how many rows a scan handles between context checks.
const scanCheck = 1 << 16

// rows returns the rows of a list query in order, before paging. Results
// are cached: the dataset part by (table, dataset, query), the merge with
// the overlay by overlay version as well. The first call pays the scan.
func (tv *tableView) rows(ctx context.Context, q *listQuery) (rowList, error) {
	base, err := tv.baseRows(ctx, q)
	if err != nil || tv.ov == nil {
		return base, err
	}
	if !tv.v.cacheable {
		return rowList{rows: tv.mergeOverlay(base, q)}, nil
	}
	k := engine.CacheKey{Kind: engine.CacheList, Table: tv.t.id, Dataset: weak.Make(tv.ds), Overlay: weak.Make(tv.v.ov), Version: tv.v.st.Version(), Spec: q.spec}
	rows, err := engine.GetOrMake(tv.v.cache, k, func() ([]int32, int64, error) {
		r := tv.mergeOverlay(base, q)
		return r, int64(len(r)), nil
	})
	return rowList{rows: rows}, err
}

// baseRows returns the dataset rows of the table's variant that match the
// predicates on their dataset values, in the query's order.
func (tv *tableView) baseRows(ctx context.Context, q *listQuery) (rowList, error) {
	switch {
	case tv.noRows:
		return rowList{rows: []int32{}}, nil
	case q.sort == nil && len(q.preds) == 0 && tv.member == nil:
		return rowList{n: int(tv.n), identity: true}, nil
	case q.sort == nil && len(q.preds) == 0:
		return rowList{rows: tv.ds.VariantRows(*tv.t.variant)}, nil
	case !q.desc && len(q.preds) == 0 && tv.member == nil:
		if s := tv.ds.Sorted(q.sort.path); len(s) == int(tv.n) {
			return rowList{rows: s}, nil
		}
	}
	k := engine.CacheKey{Kind: engine.CacheBase, Table: tv.t.id, Dataset: weak.Make(tv.ds), Spec: q.spec}
	rows, err := engine.GetOrMake(tv.v.cache, k, func() ([]int32, int64, error) {
		r, err := tv.scanBase(ctx, q)
		return r, int64(len(r)), err
	})
	return rowList{rows: rows}, err
}

// scanBase walks the dataset in the query's order and keeps matching rows.
func (tv *tableView) scanBase(ctx context.Context, q *listQuery) ([]int32, error) {
	out := []int32{}
	keep := func(r int32) {
		if tv.inTable(r) && tv.matchBase(q.preds, r) {
			out = append(out, r)
		}
	}
	var order []int32
	switch {
	case q.sort != nil:
		order = tv.sortedRows(q.sort)
	case tv.member != nil:
		order = tv.ds.VariantRows(*tv.t.variant)
	}
	if q.sort != nil && q.desc {
		return out, tv.walkDesc(ctx, q.sort, order, keep)
	}
	n := len(order)
	if order == nil {
		n = int(tv.n)
	}
	for i := 0; i < n; i++ {
		if i%scanCheck == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if order == nil {
			keep(int32(i))
		} else {
			keep(order[i])
		}
	}
	return out, nil
}

// walkDesc visits ascending order sorted backwards by value, but each run
// of equal values forwards, so that ties keep storage order (a stable
// descending sort).
func (tv *tableView) walkDesc(ctx context.Context, a *attribute, sorted []int32, visit func(int32)) error {
	for i, steps := len(sorted)-1, 0; i >= 0; {
		v := tv.base(a, sorted[i])
		j := i
		for j > 0 && dataset.Compare(tv.base(a, sorted[j-1]), v) == 0 {
			j--
		}
		for _, r := range sorted[j : i+1] {
			if steps++; steps%scanCheck == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			visit(r)
		}
		i = j - 1
	}
	return nil
}

// sortedRows returns all dataset rows ascending by a's value, stable. It is
// the dataset's precomputed order; a path the dataset cannot sort (an
// object) is sorted here by its JSON text.
func (tv *tableView) sortedRows(a *attribute) []int32 {
	if s := tv.ds.Sorted(a.path); len(s) == int(tv.n) {
		return s
	}
	s := make([]int32, tv.n)
	for i := range s {
		s[i] = int32(i)
	}
	slices.SortStableFunc(s, func(x, y int32) int { return dataset.Compare(tv.base(a, x), tv.base(a, y)) })
	return s
}

// mergeOverlay removes the rows the overlay changes from base and merges in
// the live overlay rows that match, each at its place in the query's order:
// O(len(base)) copying plus O(changes · log len(base)) comparisons.
func (tv *tableView) mergeOverlay(base rowList, q *listQuery) []int32 {
	o := tv.ov
	kept := make([]int32, 0, base.len())
	for i := 0; i < base.len(); i++ {
		if r := base.at(i); !o.changed.Has(r) {
			kept = append(kept, r)
		}
	}
	var extra []int32
	for _, r := range o.live() {
		if (r >= tv.n || tv.inTable(r)) && tv.matchLive(q.preds, r) {
			extra = append(extra, r)
		}
	}
	order := tv.order(q)
	slices.SortFunc(extra, order)
	out := make([]int32, 0, len(kept)+len(extra))
	lo := 0
	for _, e := range extra {
		at := lo + sort.Search(len(kept)-lo, func(i int) bool { return order(kept[lo+i], e) > 0 })
		out = append(append(out, kept[lo:at]...), e)
		lo = at
	}
	return append(out, kept[lo:]...)
}

// order compares rows by the query's sort (values with the overlay
// applied), then by storage order: dataset rows by number, then created rows.
func (tv *tableView) order(q *listQuery) func(a, b int32) int {
	return func(a, b int32) int {
		if q.sort != nil {
			c := dataset.Compare(tv.value(q.sort, a), tv.value(q.sort, b))
			if q.desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return cmp.Compare(a, b)
	}
}

// page returns the bounds of page (1-based) of size rows within total.
func page(total, page, size int) (lo, hi int) {
	lo64 := int64(page-1) * int64(size)
	if lo64 >= int64(total) {
		return total, total
	}
	lo = int(lo64)
	return lo, min(total, lo+size)
}

