package engine

import (
	"cmp"
	"maps"
	"slices"
)

// rowSet is a dataset row's record in a patch; a nil rec removes the row's.
type rowSet struct {
	row int32
	rec *RowRec
}

// patch returns the overlay of ts built from o, the resolved overlay of
// other records of the same table and dataset, where ids lists (maybe
// repeated) every RowID whose record differs between o.ts and ts. Only
// those records are decoded and looked up; o's slices and bitset are
// copied and patched (shared when no dataset row changed), its unchanged
// rowRecs shared.
func (o *TableOverlay) patch(tv *TableView, ts *TableState, ids []string) *TableOverlay {
	next := &TableOverlay{n: o.n, t: o.t, ds: o.ds, ts: ts, maxID: o.maxID, hasMaxID: o.hasMaxID}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var set []rowSet
	var gone, added []*RowRec // created rows
	lostMax := false          // a record with the largest integer RowID went
	for _, id := range ids {
		old, cur := o.ts.Get(id), ts.Get(id)
		if old == cur {
			continue
		}
		if f, ok := integerID(id); ok && cur == nil && o.hasMaxID && f == o.maxID {
			lostMax = true
		}
		var rec *RowRec
		if cur != nil {
			rec = decodeRecord(tv, cur)
			next.noteID(id)
		}
		if old != nil && old.Created && !old.Deleted {
			gone = append(gone, &RowRec{id: id, Ch: old})
		}
		if cur != nil && cur.Created && !cur.Deleted {
			added = append(added, rec)
		}
		if (old != nil && !old.Created) || (cur != nil && !cur.Created) {
			if cur == nil || cur.Created {
				rec = nil
			}
			for _, r := range tv.datasetRowsByID(id) {
				set = append(set, rowSet{r, rec})
			}
		}
	}
	if lostMax { // rare (a branch of records dropped): read every RowID
		next.maxID, next.hasMaxID = 0, false
		ts.Each(func(c *Change) { next.noteID(c.RowID) })
	}
	next.created = mergeCreated(o.created, gone, added)
	if len(set) == 0 { // only created rows changed: share the rest, immutable
		next.rowIdx, next.rowRecs, next.changed, next.updated = o.rowIdx, o.rowRecs, o.changed, o.updated
	} else {
		next.setRows(o.rowIdx, o.rowRecs, o.changed, set)
	}
	o.mu.Lock()
	next.from = o.liveTab
	if next.from == nil {
		next.from = o.from
	}
	switch {
	case len(set) == 0 && len(o.ranks) > 0: // the same dataset rows: the same ranks
		next.ranks = maps.Clone(o.ranks)
	case len(o.ranks) > 0:
		next.ranksFrom = o
	default:
		next.ranksFrom = o.ranksFrom
	}
	o.mu.Unlock()
	return next
}

// setRows sets o's dataset rows to those of idx and recs (ascending rows,
// their records) with set applied (a later entry for a row wins), and
// derives the changed set (from changed, the set of idx, when given: only
// the chunks of the rows in set are copied) and the updated rows.
func (o *TableOverlay) setRows(idx []int32, recs []*RowRec, changed *ChunkedBits, set []rowSet) {
	slices.SortStableFunc(set, func(a, b rowSet) int { return cmp.Compare(a.row, b.row) })
	o.rowIdx = make([]int32, 0, len(idx)+len(set))
	o.rowRecs = make([]*RowRec, 0, len(idx)+len(set))
	bits := editChunks(changed, int(o.n))
	i := 0
	for j := 0; j < len(set); j++ {
		s := set[j]
		if j+1 < len(set) && set[j+1].row == s.row {
			continue // a later entry wins
		}
		for i < len(idx) && idx[i] < s.row {
			o.rowIdx, o.rowRecs = append(o.rowIdx, idx[i]), append(o.rowRecs, recs[i])
			i++
		}
		if i < len(idx) && idx[i] == s.row {
			i++ // replaced
		}
		if s.rec == nil {
			bits.Clear(s.row)
			continue
		}
		bits.Set(s.row)
		o.rowIdx, o.rowRecs = append(o.rowIdx, s.row), append(o.rowRecs, s.rec)
	}
	o.rowIdx, o.rowRecs = append(o.rowIdx, idx[i:]...), append(o.rowRecs, recs[i:]...)
	o.changed = bits.Done()
	o.updated = make([]int32, 0, len(o.rowIdx))
	for k, rec := range o.rowRecs {
		if !rec.Deleted {
			o.updated = append(o.updated, o.rowIdx[k])
		}
	}
}

// mergeCreated returns created (in compareCreated order) without the rows
// of gone (records with the RowID and Seq of rows to remove) and with
// added, in that order: each of those placed by binary search and the
// runs of created between them copied, so that the cost is a copy of the
// created rows, not a comparison per row.
func mergeCreated(created, gone, added []*RowRec) []*RowRec {
	if len(gone) == 0 && len(added) == 0 {
		return created // immutable: shared
	}
	type edit struct {
		at  int // position in created
		rec *RowRec
		del bool
	}
	edits := make([]edit, 0, len(gone)+len(added))
	for _, g := range gone {
		if i, ok := slices.BinarySearchFunc(created, g, compareCreated); ok {
			edits = append(edits, edit{at: i, del: true})
		}
	}
	for _, a := range added {
		i, _ := slices.BinarySearchFunc(created, a, compareCreated)
		edits = append(edits, edit{at: i, rec: a})
	}
	slices.SortFunc(edits, func(x, y edit) int {
		// at a position: inserts (in compareCreated order) before the delete of the row there
		return cmp.Or(cmp.Compare(x.at, y.at), cmp.Compare(boolToInt(x.del), boolToInt(y.del)), cmpRec(x.rec, y.rec))
	})
	out := make([]*RowRec, 0, len(created)+len(added))
	i := 0
	for _, e := range edits {
		out = append(out, created[i:e.at]...)
		i = e.at
		if e.del {
			i++
		} else {
			out = append(out, e.rec)
		}
	}
	return append(out, created[i:]...)
}

// cmpRec is compareCreated with nil (a delete's) first.
func cmpRec(a, b *RowRec) int {
	if a == nil || b == nil {
		return cmp.Compare(boolToInt(a != nil), boolToInt(b != nil))
	}
	return compareCreated(a, b)
}
