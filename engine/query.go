package engine

import (
	"context"
	"slices"

	"github.com/mockgql/mockgql/dataset"
)

// Query is a list query with the opt-in where and orderBy arguments.
// The list engine (list.go, index.go) evaluates List: the
// parameters, the where predicates that hold for every match (bitset
// algebra on its indexes) and the first sort key. Rest is checked per
// remaining row, and the remaining keys sort the list stably, so rows
// equal on every key keep storage order.
type Query struct {
	List *ListQuery
	Rest *Where
	Keys []SortKey
}

// MaxOrderKeys bounds orderBy, and so the memory of a multi-key sort.
const MaxOrderKeys = 4

// SortKey is one key of an orderBy: an attribute and its direction.
type SortKey struct {
	Attr *Attr
	Desc bool
}

// QuerySpec is the canonical text of q for cache keys (as graphql's listQuery
// writes it).
func QuerySpec(q *ListQuery) string {
	var spec []byte
	if q.Sort != nil {
		spec = append(spec, q.Sort.Name...)
		if q.Desc {
			spec = append(spec, " desc"...)
		}
	}
	spec = append(spec, '|')
	for i := range q.Preds {
		spec = q.Preds[i].appendSpec(spec)
	}
	return string(spec)
}

// Simple reports whether the list engine alone answers pq.
func (pq *Query) Simple() bool { return pq.Rest == nil && len(pq.Keys) <= 1 }

// Page returns the rows of page pg of size rows: a window from the
// indexes when they cover pq, else the whole list.
func (pq *Query) Page(ctx context.Context, tv *TableView, pg, size int) (RowList, error) {
	if pq.Simple() {
		return tv.PageRows(ctx, pq.List, pg, size)
	}
	s, ok, err := pq.indexedSet(ctx, tv)
	if err != nil || !ok {
		if err == nil {
			return pq.scan(ctx, tv)
		}
		return RowList{}, err
	}
	defer s.release()
	lo, hi := PageBounds(s.total(), pg, size)
	return pq.rowsOf(tv, &s, lo, hi), nil
}

// All returns every matching row in order.
func (pq *Query) All(ctx context.Context, tv *TableView) (RowList, error) {
	s, ok, err := pq.indexedSet(ctx, tv)
	if err != nil {
		return RowList{}, err
	}
	if !ok {
		return pq.scan(ctx, tv)
	}
	defer s.release()
	return pq.rowsOf(tv, &s, 0, s.total()), nil
}

// scan returns every matching row in order without the indexes of the
// where remainder and further keys: the list engine's rows, each checked
// against the remainder on its live values, sorted by the further keys.
func (pq *Query) scan(ctx context.Context, tv *TableView) (RowList, error) {
	l, err := tv.rows(ctx, pq.List)
	if err != nil || pq.Simple() {
		return l, err
	}
	rows := make([]int32, 0, l.Len())
	for i := 0; i < l.Len(); i++ {
		if r := l.At(i); pq.Rest == nil || pq.Rest.Match(tv, r) {
			rows = append(rows, r)
		}
		if i%scanCheck == scanCheck-1 {
			if err := ctx.Err(); err != nil {
				return RowList{}, err
			}
		}
	}
	if len(pq.Keys) > 1 {
		pq.sortRows(tv, rows)
	}
	return RowList{Rows: rows}, nil
}

// sortRows sorts rows, already in order of the first key with ties in
// storage order, by every key, stably: each run of rows equal on the first
// key is sorted by the other keys, so memory is one value per row of the
// longest run and further key.
func (pq *Query) sortRows(tv *TableView, rows []int32) {
	first := pq.Keys[0].Attr
	for lo := 0; lo < len(rows); {
		v := tv.Value(first, rows[lo])
		hi := lo + 1
		for hi < len(rows) && dataset.Compare(tv.Value(first, rows[hi]), v) == 0 {
			hi++
		}
		if hi-lo > 1 {
			sortRun(tv, pq.Keys[1:], rows[lo:hi])
		}
		lo = hi
	}
}

// sortRun sorts rows stably by keys.
func sortRun(tv *TableView, keys []SortKey, rows []int32) {
	n := len(keys)
	vals := make([]dataset.Value, len(rows)*n)
	for i, r := range rows {
		for k, key := range keys {
			vals[i*n+k] = tv.Value(key.Attr, r)
		}
	}
	idx := make([]int32, len(rows))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(a, b int32) int {
		for k, key := range keys {
			c := dataset.Compare(vals[int(a)*n+k], vals[int(b)*n+k])
			if key.Desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
	sorted := make([]int32, len(rows))
	for i, j := range idx {
		sorted[i] = rows[j]
	}
	copy(rows, sorted)
}
