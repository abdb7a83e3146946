package graphql

import (
	"slices"

	"github.com/mockgql/mockgql/model"
)

// This file finds rows by key: relation fields and single-row lookups by
// id. Dataset rows come from the dataset's hash indexes (dataset.Lookup),
// overlay rows from the overlay's own index, so a lookup costs O(result),
// never a scan.

// rowsWhere returns the rows of tv (variant members and created rows, not
// deleted) whose value of a has canonical key k, in storage order; at most
// limit rows when limit > 0.
func (tv *tableView) rowsWhere(a *attribute, k string, limit int) []int32 {
	if tv.notReady != nil || a == nil {
		return nil
	}
	var out []int32
	for _, r := range tv.datasetRowsWhere(a, k) {
		if tv.inTable(r) && !tv.ov.isChanged(r) {
			out = append(out, r)
		}
	}
	for _, r := range tv.ov.keyRows(tv, a, k) {
		if r >= tv.n || tv.inTable(r) {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}

// datasetRowsWhere returns the dataset rows whose dataset value of a has
// key k, ignoring variant and overlay. Only SOURCE attributes, the id and
// constants can be looked up; GENERATED and unmapped attributes match no
// dataset row (they are not indexed).
func (tv *tableView) datasetRowsWhere(a *attribute, k string) []int32 {
	switch {
	case a.isID:
		return tv.datasetRowsByID(k)
	case a.mapping == model.MappingSource:
		var out []int32
		for _, lk := range lookupKeys(k) {
			out = append(out, tv.ds.Lookup(a.path, lk)...)
		}
		if len(out) > 1 {
			slices.Sort(out)
			out = slices.Compact(out)
		}
		return out
	case a.mapping == model.MappingConstant:
		if ck, ok := canonKey(a.constant); ok && ck == k {
			return tv.allRows()
		}
	}
	return nil
}

// allRows returns every dataset row of the variant.
func (tv *tableView) allRows() []int32 {
	if tv.member != nil {
		return tv.ds.VariantRows(*tv.t.variant)
	}
	out := make([]int32, tv.n)
	for i := range out {
		out[i] = int32(i)
	}
	return out
}

// byID returns the row with this id, or -1.
func (tv *tableView) byID(id string) int32 {
	if r, ok := tv.ov.createdRow(id); ok {
		return r
	}
	if rows := tv.rowsWhere(tv.t.idField, id, 1); len(rows) > 0 {
		return rows[0]
	}
	return -1
}

// createdRow returns the created row with this id.
func (o *tableOverlay) createdRow(id string) (int32, bool) {
	if o == nil {
		return 0, false
	}
	r, ok := o.byID[id]
	return r, ok
}

// related resolves relation field rf of row r: the view of the target
// table and the matching rows (the first only, for a to-one field).
func (tv *tableView) related(rf *relField, r int32) (*tableView, []int32) {
	target := tv.v.tableView(rf.to)
	if rf.from == nil || rf.toAttr == nil {
		return target, nil
	}
	k, ok := canonKey(tv.value(rf.from, r))
	if !ok {
		return target, nil
	}
	limit := 1
	if rf.list {
		limit = 0
	}
	return target, target.rowsWhere(rf.toAttr, k, limit)
}
