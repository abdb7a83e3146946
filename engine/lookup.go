package engine

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/model"
)

// This file finds rows by key: relation fields and single-row lookups by
// id. Dataset rows come from the dataset's hash indexes (dataset.Lookup),
// overlay rows from the overlay's own index, so a lookup costs O(result),
// never a scan.

// RowsWhere returns the rows of tv (variant members and created rows, not
// deleted) whose value of a has canonical key k, in storage order; at most
// limit rows when limit > 0.
func (tv *TableView) RowsWhere(a *Attr, k string, limit int) []int32 {
	if tv.NotReady != nil || a == nil {
		return nil
	}
	var out []int32
	for _, r := range tv.datasetRowsWhere(a, k) {
		if tv.InTable(r) && !tv.ov.isChanged(r) {
			out = append(out, r)
		}
	}
	for _, r := range tv.ov.keyRows(tv, a, k) {
		if r >= tv.N || tv.InTable(r) {
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
func (tv *TableView) datasetRowsWhere(a *Attr, k string) []int32 {
	switch {
	case a.IsID:
		return tv.datasetRowsByID(k)
	case a.Mapping == model.MappingSource:
		var out []int32
		for _, lk := range LookupKeys(k) {
			out = append(out, tv.ds.Lookup(a.Path, lk)...)
		}
		if len(out) > 1 {
			slices.Sort(out)
			out = slices.Compact(out)
		}
		return out
	case a.Mapping == model.MappingConstant:
		if ck, ok := CanonKey(a.constant); ok && ck == k {
			return tv.allRows()
		}
	}
	return nil
}

// FirstWhere returns the first row RowsWhere(a, k, 1) gives, or -1. For the
// id and SOURCE attributes it does not allocate: the dataset's lookup rows
// are in storage order, so the first one that is in the table and has no
// overlay record is the least. It looks up k alone: LookupKeys never gives
// another key (TestLookupKeysCanonical).
func (tv *TableView) FirstWhere(a *Attr, k string) int32 {
	if tv.NotReady != nil || a == nil {
		return -1
	}
	if !a.IsID && a.Mapping != model.MappingSource {
		// The clone keeps k from escaping: callers may pass a key in a
		// stack buffer.
		if rows := tv.RowsWhere(a, strings.Clone(k), 1); len(rows) > 0 {
			return rows[0]
		}
		return -1
	}
	path := a.Path
	if a.IsID {
		path = tv.idPath
	}
	best := int32(-1)
	if path != "" {
		best = tv.firstLive(tv.ds.Lookup(path, k))
	}
	if a.IsID {
		if r := tv.positionalRow(k); r >= 0 && tv.InTable(r) && !tv.ov.isChanged(r) && (best < 0 || r < best) {
			best = r
		}
	}
	for _, r := range tv.ov.keyRows(tv, a, k) {
		if (r >= tv.N || tv.InTable(r)) && (best < 0 || r < best) {
			best = r
		}
	}
	return best
}

// firstLive returns the first of dataset rows (ascending) that is in the
// table and has no overlay record, or -1.
func (tv *TableView) firstLive(rows []int32) int32 {
	for _, r := range rows {
		if tv.InTable(r) && !tv.ov.isChanged(r) {
			return r
		}
	}
	return -1
}

// allRows returns every dataset row of the variant.
func (tv *TableView) allRows() []int32 {
	if tv.member != nil {
		return tv.ds.VariantRows(*tv.Table.Variant)
	}
	out := make([]int32, tv.N)
	for i := range out {
		out[i] = int32(i)
	}
	return out
}

// ByID returns the row with this id, or -1.
func (tv *TableView) ByID(id string) int32 {
	if r, ok := tv.ov.CreatedRow(id); ok {
		return r
	}
	if rows := tv.RowsWhere(tv.Table.IDField, id, 1); len(rows) > 0 {
		return rows[0]
	}
	return -1
}

// RowByID is byID without allocating (see firstWhere).
func (tv *TableView) RowByID(id string) int32 {
	if r, ok := tv.ov.CreatedRow(id); ok {
		return r
	}
	return tv.FirstWhere(tv.Table.IDField, id)
}

// CreatedRow returns the live created row with this id: its record's
// place in the created rows, found by (Seq, RowID).
func (o *TableOverlay) CreatedRow(id string) (int32, bool) {
	if o == nil {
		return 0, false
	}
	c := o.ts.Get(id)
	if c == nil || !c.Created || c.Deleted {
		return 0, false
	}
	i, ok := slices.BinarySearchFunc(o.created, c, func(rec *RowRec, c *Change) int {
		return cmp.Or(cmp.Compare(rec.Ch.Seq, c.Seq), compareStrings(rec.id, c.RowID))
	})
	return o.n + int32(i), ok
}

// RelatedRows is tv.related for a to-many relation. When the target rows
// are exactly a dataset lookup (a SOURCE attribute, all variants, no
// overlay) it returns the lookup's own rows, which are in storage order
// and must not be modified, instead of a copy.
func (tv *TableView) RelatedRows(rf *Rel, r int32) (*TableView, []int32) {
	target := tv.View.TableView(rf.To)
	a := rf.ToAttr
	if rf.From == nil || a == nil || a.IsID || a.Mapping != model.MappingSource ||
		target.NotReady != nil || target.NoRows || target.member != nil || target.ov != nil {
		return tv.Related(rf, r)
	}
	v := tv.Value(rf.From, r)
	if v.Kind == dataset.Number { // CanonKey, in a buffer that stays here
		var scratch [32]byte
		return target, target.ds.Lookup(a.Path, string(AppendNum(scratch[:0], v.Num)))
	}
	k, ok := CanonKey(v)
	if !ok {
		return target, nil
	}
	return target, target.ds.Lookup(a.Path, k)
}

// Related resolves relation field rf of row r: the view of the target
// table and the matching rows (the first only, for a to-one field).
func (tv *TableView) Related(rf *Rel, r int32) (*TableView, []int32) {
	target := tv.View.TableView(rf.To)
	if rf.From == nil || rf.ToAttr == nil {
		return target, nil
	}
	k, ok := CanonKey(tv.Value(rf.From, r))
	if !ok {
		return target, nil
	}
	limit := 1
	if rf.List {
		limit = 0
	}
	return target, target.RowsWhere(rf.ToAttr, k, limit)
}

// RelatedOne returns the row a to-one relation rf of row r finds in target,
// or -1: the first row of tv.related, without allocating for the common
// keys (see firstWhere).
func (tv *TableView) RelatedOne(rf *Rel, target *TableView, r int32) int32 {
	if rf.From == nil || rf.ToAttr == nil {
		return -1
	}
	v := tv.Value(rf.From, r)
	if v.Kind == dataset.Number { // CanonKey, in a buffer that stays here
		var scratch [32]byte
		return target.FirstWhere(rf.ToAttr, string(AppendNum(scratch[:0], v.Num)))
	}
	k, ok := CanonKey(v)
	if !ok {
		return -1
	}
	return target.FirstWhere(rf.ToAttr, k)
}
