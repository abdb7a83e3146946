package engine

import (
	"cmp"
	"context"
	"slices"
	"sort"
	"weak"

	"github.com/mockgql/mockgql/dataset"
)

// ListQuery is a list request reduced to what selects and orders rows.
type ListQuery struct {
	Sort  *Attr // nil: storage order
	Desc  bool
	Preds []Pred
	Spec  string // canonical text of the above, for cache keys
}

// RowList is an ordered list of rows: rows, or 0..n-1 when identity is set
// (all rows in storage order, without allocating them), or, when window
// is set, a list of n rows of which rows holds those from position off
// (a page). rows may be owned by the dataset or the cache: never modify it.
type RowList struct {
	Rows     []int32
	n        int
	off      int
	identity bool
	window   bool
}

// Len is the number of rows in the list (a window counts the whole list).
func (l RowList) Len() int {
	if l.identity || l.window {
		return l.n
	}
	return len(l.Rows)
}

// At returns the row at position i; a window holds only its page.
func (l RowList) At(i int) int32 {
	switch {
	case l.identity:
		return int32(i)
	case l.window:
		return l.Rows[i-l.off]
	}
	return l.Rows[i]
}

// PageRows returns the rows of a list query for page pg of size rows: a
// window from the indexes when the query has them, else the whole list
// from rows.
func (tv *TableView) PageRows(ctx context.Context, q *ListQuery, pg, size int) (RowList, error) {
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
func (tv *TableView) rows(ctx context.Context, q *ListQuery) (RowList, error) {
	base, err := tv.baseRows(ctx, q)
	if err != nil || tv.ov == nil {
		return base, err
	}
	if !tv.View.cacheable {
		return RowList{Rows: tv.mergeOverlay(base, q)}, nil
	}
	k := cacheKey{Kind: cacheList, Table: tv.Table.ID, Dataset: weak.Make(tv.ds), Overlay: weak.Make(tv.View.ov), Version: tv.View.st.Version(), Spec: q.Spec}
	rows, err := getOrMake(tv.View.env.Cache, k, func() ([]int32, int64, error) {
		r := tv.mergeOverlay(base, q)
		return r, int64(len(r)), nil
	})
	return RowList{Rows: rows}, err
}

// baseRows returns the dataset rows of the table's variant that match the
// predicates on their dataset values, in the query's order.
func (tv *TableView) baseRows(ctx context.Context, q *ListQuery) (RowList, error) {
	switch {
	case tv.NoRows:
		return RowList{Rows: []int32{}}, nil
	case q.Sort == nil && len(q.Preds) == 0 && tv.member == nil:
		return RowList{n: int(tv.N), identity: true}, nil
	case q.Sort == nil && len(q.Preds) == 0:
		return RowList{Rows: tv.ds.VariantRows(*tv.Table.Variant)}, nil
	case !q.Desc && len(q.Preds) == 0 && tv.member == nil:
		if s := tv.ds.Sorted(q.Sort.Path); len(s) == int(tv.N) {
			return RowList{Rows: s}, nil
		}
	}
	k := cacheKey{Kind: cacheBase, Table: tv.Table.ID, Dataset: weak.Make(tv.ds), Spec: q.Spec}
	rows, err := getOrMake(tv.View.env.Cache, k, func() ([]int32, int64, error) {
		r, err := tv.scanBase(ctx, q)
		return r, int64(len(r)), err
	})
	return RowList{Rows: rows}, err
}

// scanBase walks the dataset in the query's order and keeps matching rows.
func (tv *TableView) scanBase(ctx context.Context, q *ListQuery) ([]int32, error) {
	out := []int32{}
	keep := func(r int32) {
		if tv.InTable(r) && tv.matchBase(q.Preds, r) {
			out = append(out, r)
		}
	}
	var order []int32
	switch {
	case q.Sort != nil:
		order = tv.sortedRows(q.Sort)
	case tv.member != nil:
		order = tv.ds.VariantRows(*tv.Table.Variant)
	}
	if q.Sort != nil && q.Desc {
		return out, tv.walkDesc(ctx, q.Sort, order, keep)
	}
	n := len(order)
	if order == nil {
		n = int(tv.N)
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
func (tv *TableView) walkDesc(ctx context.Context, a *Attr, sorted []int32, visit func(int32)) error {
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
func (tv *TableView) sortedRows(a *Attr) []int32 {
	if s := tv.ds.Sorted(a.Path); len(s) == int(tv.N) {
		return s
	}
	s := make([]int32, tv.N)
	for i := range s {
		s[i] = int32(i)
	}
	slices.SortStableFunc(s, func(x, y int32) int { return dataset.Compare(tv.base(a, x), tv.base(a, y)) })
	return s
}

// mergeOverlay removes the rows the overlay changes from base and merges in
// the live overlay rows that match, each at its place in the query's order:
// O(len(base)) copying plus O(changes · log len(base)) comparisons.
func (tv *TableView) mergeOverlay(base RowList, q *ListQuery) []int32 {
	o := tv.ov
	kept := make([]int32, 0, base.Len())
	for i := 0; i < base.Len(); i++ {
		if r := base.At(i); !o.changed.Has(r) {
			kept = append(kept, r)
		}
	}
	var extra []int32
	for _, r := range o.live() {
		if (r >= tv.N || tv.InTable(r)) && tv.MatchLive(q.Preds, r) {
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
func (tv *TableView) order(q *ListQuery) func(a, b int32) int {
	if q.Sort == nil {
		return cmp.Compare[int32]
	}
	return tv.orderBy([]SortKey{{Attr: q.Sort, Desc: q.Desc}})
}

// orderBy compares rows by every key (values with the overlay applied),
// then by storage order.
func (tv *TableView) orderBy(keys []SortKey) func(a, b int32) int {
	return func(a, b int32) int {
		for _, k := range keys {
			c := dataset.Compare(tv.Value(k.Attr, a), tv.Value(k.Attr, b))
			if k.Desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return cmp.Compare(a, b)
	}
}

// PageBounds returns the bounds of page (1-based) of size rows within total.
func PageBounds(total, page, size int) (lo, hi int) {
	lo64 := int64(page-1) * int64(size)
	if lo64 >= int64(total) {
		return total, total
	}
	lo = int(lo64)
	return lo, min(total, lo+size)
}
