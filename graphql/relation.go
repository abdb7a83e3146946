package graphql

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
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
		for _, lk := range engine.LookupKeys(k) {
			out = append(out, tv.ds.Lookup(a.path, lk)...)
		}
		if len(out) > 1 {
			slices.Sort(out)
			out = slices.Compact(out)
		}
		return out
	case a.mapping == model.MappingConstant:
		if ck, ok := engine.CanonKey(a.constant); ok && ck == k {
			return tv.allRows()
		}
	}
	return nil
}

// firstWhere returns the first row rowsWhere(a, k, 1) gives, or -1. For the
// id and SOURCE attributes it does not allocate: the dataset's lookup rows
// are in storage order, so the first one that is in the table and has no
// overlay record is the least. It looks up k alone: engine.LookupKeys never gives
// another key (TestLookupKeysCanonical).
func (tv *tableView) firstWhere(a *attribute, k string) int32 {
	if tv.notReady != nil || a == nil {
		return -1
	}
	if !a.isID && a.mapping != model.MappingSource {
		// The clone keeps k from escaping: callers may pass a key in a
		// stack buffer.
		if rows := tv.rowsWhere(a, strings.Clone(k), 1); len(rows) > 0 {
			return rows[0]
		}
		return -1
	}
	path := a.path
	if a.isID {
		path = tv.idPath
	}
	best := int32(-1)
	if path != "" {
		best = tv.firstLive(tv.ds.Lookup(path, k))
	}
	if a.isID {
		if r := tv.positionalRow(k); r >= 0 && tv.inTable(r) && !tv.ov.isChanged(r) && (best < 0 || r < best) {
			best = r
		}
	}
	for _, r := range tv.ov.keyRows(tv, a, k) {
		if (r >= tv.n || tv.inTable(r)) && (best < 0 || r < best) {
			best = r
		}
	}
	return best
}

// firstLive returns the first of dataset rows (ascending) that is in the
// table and has no overlay record, or -1.
func (tv *tableView) firstLive(rows []int32) int32 {
	for _, r := range rows {
		if tv.inTable(r) && !tv.ov.isChanged(r) {
			return r
		}
	}
	return -1
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

// rowByID is byID without allocating (see firstWhere).
func (tv *tableView) rowByID(id string) int32 {
	if r, ok := tv.ov.createdRow(id); ok {
		return r
	}
	return tv.firstWhere(tv.t.idField, id)
}

// createdRow returns the live created row with this id: its record's
// place in the created rows, found by (Seq, RowID).
func (o *tableOverlay) createdRow(id string) (int32, bool) {
	if o == nil {
		return 0, false
	}
	c := o.ts.Get(id)
	if c == nil || !c.Created || c.Deleted {
		return 0, false
	}
	i, ok := slices.BinarySearchFunc(o.created, c, func(rec *rowRec, c *engine.Change) int {
		return cmp.Or(cmp.Compare(rec.ch.Seq, c.Seq), compareStrings(rec.id, c.RowID))
	})
	return o.n + int32(i), ok
}

// relatedRows is tv.related for a to-many relation. When the target rows
// are exactly a dataset lookup (a SOURCE attribute, all variants, no
// overlay) it returns the lookup's own rows, which are in storage order
// and must not be modified, instead of a copy.
func (tv *tableView) relatedRows(rf *relField, r int32) (*tableView, []int32) {
	target := tv.v.tableView(rf.to)
	a := rf.toAttr
	if rf.from == nil || a == nil || a.isID || a.mapping != model.MappingSource ||
		target.notReady != nil || target.noRows || target.member != nil || target.ov != nil {
		return tv.related(rf, r)
	}
	v := tv.value(rf.from, r)
	if v.Kind == dataset.Number { // engine.CanonKey, in a buffer that stays here
		var scratch [32]byte
		return target, target.ds.Lookup(a.path, string(engine.AppendNum(scratch[:0], v.Num)))
	}
	k, ok := engine.CanonKey(v)
	if !ok {
		return target, nil
	}
	return target, target.ds.Lookup(a.path, k)
}

// related resolves relation field rf of row r: the view of the target
// table and the matching rows (the first only, for a to-one field).
func (tv *tableView) related(rf *relField, r int32) (*tableView, []int32) {
	target := tv.v.tableView(rf.to)
	if rf.from == nil || rf.toAttr == nil {
		return target, nil
	}
	k, ok := engine.CanonKey(tv.value(rf.from, r))
	if !ok {
		return target, nil
	}
	limit := 1
	if rf.list {
		limit = 0
	}
	return target, target.rowsWhere(rf.toAttr, k, limit)
}
