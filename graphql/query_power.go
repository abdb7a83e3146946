package graphql

import (
	"context"
	"slices"

	"github.com/mockgql/mockgql/dataset"
)

// powerQuery is a list query with the opt-in where and orderBy arguments.
// The list engine (query_list.go, query_index.go) evaluates q: the
// parameters, the where predicates that hold for every match (bitset
// algebra on its indexes) and the first sort key. rest is checked per
// remaining row, and the remaining keys sort the list stably, so rows
// equal on every key keep storage order.
type powerQuery struct {
	q    *listQuery
	rest *whereNode
	keys []sortKey
}

// maxOrderKeys bounds orderBy, and so the memory of a multi-key sort.
const maxOrderKeys = 4

type sortKey struct {
	attr *attribute
	desc bool
}

// querySpec is the canonical text of q for cache keys (as listQuery
// writes it).
func querySpec(q *listQuery) string {
	var spec []byte
	if q.sort != nil {
		spec = append(spec, q.sort.name...)
		if q.desc {
			spec = append(spec, " desc"...)
		}
	}
	spec = append(spec, '|')
	for i := range q.preds {
		spec = q.preds[i].appendSpec(spec)
	}
	return string(spec)
}

// simple reports whether the list engine alone answers pq.
func (pq *powerQuery) simple() bool { return pq.rest == nil && len(pq.keys) <= 1 }

// page returns the rows of page pg of size rows: a window from the
// indexes when they cover pq, else the whole list.
func (pq *powerQuery) page(ctx context.Context, tv *tableView, pg, size int) (rowList, error) {
	if pq.simple() {
		return tv.pageRows(ctx, pq.q, pg, size)
	}
	s, ok, err := pq.indexedSet(ctx, tv)
	if err != nil || !ok {
		if err == nil {
			return pq.scan(ctx, tv)
		}
		return rowList{}, err
	}
	defer s.release()
	lo, hi := page(s.total(), pg, size)
	return pq.rowsOf(tv, &s, lo, hi), nil
}

// all returns every matching row in order.
func (pq *powerQuery) all(ctx context.Context, tv *tableView) (rowList, error) {
	s, ok, err := pq.indexedSet(ctx, tv)
	if err != nil {
		return rowList{}, err
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
func (pq *powerQuery) scan(ctx context.Context, tv *tableView) (rowList, error) {
	l, err := tv.rows(ctx, pq.q)
	if err != nil || pq.simple() {
		return l, err
	}
	rows := make([]int32, 0, l.len())
	for i := 0; i < l.len(); i++ {
		if r := l.at(i); pq.rest == nil || pq.rest.match(tv, r) {
			rows = append(rows, r)
		}
		if i%scanCheck == scanCheck-1 {
			if err := ctx.Err(); err != nil {
				return rowList{}, err
			}
		}
	}
	if len(pq.keys) > 1 {
		pq.sortRows(tv, rows)
	}
	return rowList{rows: rows}, nil
}

// sortRows sorts rows, already in order of the first key with ties in
// storage order, by every key, stably: each run of rows equal on the first
// key is sorted by the other keys, so memory is one value per row of the
// longest run and further key.
func (pq *powerQuery) sortRows(tv *tableView, rows []int32) {
	first := pq.keys[0].attr
	for lo := 0; lo < len(rows); {
		v := tv.value(first, rows[lo])
		hi := lo + 1
		for hi < len(rows) && dataset.Compare(tv.value(first, rows[hi]), v) == 0 {
			hi++
		}
		if hi-lo > 1 {
			sortRun(tv, pq.keys[1:], rows[lo:hi])
		}
		lo = hi
	}
}

// sortRun sorts rows stably by keys.
func sortRun(tv *tableView, keys []sortKey, rows []int32) {
	n := len(keys)
	vals := make([]dataset.Value, len(rows)*n)
	for i, r := range rows {
		for k, key := range keys {
			vals[i*n+k] = tv.value(key.attr, r)
		}
	}
	idx := make([]int32, len(rows))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(a, b int32) int {
		for k, key := range keys {
			c := dataset.Compare(vals[int(a)*n+k], vals[int(b)*n+k])
			if key.desc {
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
