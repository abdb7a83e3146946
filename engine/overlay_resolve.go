package engine

import (
	"cmp"
	"slices"
	"strconv"
	"sync"
	"unsafe"
	"weak"

	"github.com/mockgql/mockgql/dataset"
)

// TableOverlay is a table's overlay records resolved against its dataset:
// which dataset rows they change and which rows they create. It is
// immutable once built (but for the lazily built indexes) and cached per
// (table, dataset, overlay version). A nil *TableOverlay is empty.
//
// A version is built from the last resolved one by patching the rows whose
// records differ (Diff, overlay_patch.go): O(changed ·
// log records) decoding and lookups, plus a copy of the flat slices and
// of the changed set's chunk pointers and touched chunks.
type TableOverlay struct {
	n       int32
	rowIdx  []int32      // dataset rows with a record (updated or deleted), ascending
	rowRecs []*RowRec    // their records, by position in rowIdx
	changed *ChunkedBits // the rows of rowIdx; versions share its unchanged chunks
	updated []int32      // the rows of rowIdx whose record is live, ascending
	created []*RowRec    // live created rows in (Seq, RowID) order; row n+i is created[i]

	maxID    float64 // the largest integer RowID with a record (maxIntegerID)
	hasMaxID bool

	// t and ds let the next version's build patch this one
	// (lastResolved); ts is the records resolved.
	t  *Table
	ds weak.Pointer[dataset.Dataset] // weak: a replaced dataset is not kept alive
	ts *TableState

	mu      sync.Mutex
	keys    map[int]map[string][]int32 // by attribute index: live changed rows by key
	liveTab *liveTable                 // the live rows for list queries (overlay_live.go)
	from    *liveTable                 // an earlier version's, to patch into liveTab; nil once built
	ranks   map[string][]int32         // by sort path: the changed rows' ranks, ascending
	// ranksFrom is an earlier version's overlay whose ranks this one's are
	// patched from (overlay_ranks.go); nil once they are.
	ranksFrom *TableOverlay
}

// RowRec is one record decoded for a table.
type RowRec struct {
	id      string
	idValue dataset.Value
	Ch      *Change
	Deleted bool
	vals    []dataset.Value // by attribute index
	has     []bool
}

// resolveOverlay returns tv's resolved overlay: the overlay's last resolved
// version of the table when it resolved these very records (tableStates
// are immutable) for this table and dataset, else one cached when the view
// allows. The last resolved version is held by the overlay, so a query
// cache that evicted it (a busy node) does not make every query of a
// mutated project rebuild it, its live table and their indexes.
func (v *View) resolveOverlay(tv *TableView) *TableOverlay {
	ts := v.st.Table(tv.Table.ID)
	if ts.Len() == 0 {
		return nil
	}
	if last := v.ov.lastResolved(tv.Table.ID); last.resolves(tv, ts) {
		return last
	}
	if !v.cacheable {
		return buildOverlay(tv, ts)
	}
	k := cacheKey{Kind: cacheOverlay, Table: tv.Table.ID, Dataset: weak.Make(tv.ds), Overlay: weak.Make(v.ov), Version: v.st.Version()}
	o, _ := getOrMake(v.env.Cache, k, func() (*TableOverlay, int64, error) {
		return buildOverlay(tv, ts), overlayCost(tv, ts), nil
	})
	return o
}

// overlayCost is what a resolved overlay holds, in the cache's 4-byte
// units: per record its RowRec, values and slice entries, and the changed
// bitset over the dataset. Versions share their unchanged rowRecs, so this
// overstates all but the first: the cache keeps fewer versions rather than
// more.
func overlayCost(tv *TableView, ts *TableState) int64 {
	perRecord := int64(256 + len(tv.Table.Attrs)*int(unsafe.Sizeof(dataset.Value{})+1))
	return (int64(ts.Len())*perRecord + int64(tv.N)/8) / 4
}

// resolves reports whether o resolved the records ts for tv's table and
// dataset; a nil o resolves nothing.
func (o *TableOverlay) resolves(tv *TableView, ts *TableState) bool {
	return o != nil && o.ts == ts && o.t == tv.Table && o.ds == weak.Make(tv.ds)
}

// buildOverlay resolves a table's records: by patching the last resolved
// version of the same table and dataset when the records differ from its
// under known RowIDs, else from every record.
func buildOverlay(tv *TableView, ts *TableState) *TableOverlay {
	var o *TableOverlay
	if prev := tv.View.ov.lastResolved(tv.Table.ID); prev != nil && prev.t == tv.Table && prev.ds == weak.Make(tv.ds) {
		if ids, ok := Diff(prev.ts, ts); ok {
			o = prev.patch(tv, ts, ids)
		}
	}
	if o == nil {
		o = resolveAll(tv, ts)
	}
	tv.View.ov.keepResolved(tv.Table.ID, o) // complete: other queries may take it now
	return o
}

// resolveAll resolves every record of ts.
func resolveAll(tv *TableView, ts *TableState) *TableOverlay {
	o := &TableOverlay{n: tv.N, t: tv.Table, ds: weak.Make(tv.ds), ts: ts}
	var set []rowSet
	ts.Each(func(c *Change) {
		rec := decodeRecord(tv, c)
		o.noteID(c.RowID)
		if c.Created {
			if !c.Deleted {
				o.created = append(o.created, rec)
			}
			return
		}
		for _, r := range tv.datasetRowsByID(c.RowID) {
			set = append(set, rowSet{r, rec})
		}
	})
	slices.SortFunc(o.created, compareCreated)
	o.setRows(nil, nil, nil, set)
	return o
}

// noteID keeps the largest integer RowID.
func (o *TableOverlay) noteID(id string) {
	if f, ok := integerID(id); ok && (!o.hasMaxID || f > o.maxID) {
		o.maxID, o.hasMaxID = f, true
	}
}

// compareCreated orders created rows: by Seq, then RowID.
func compareCreated(a, b *RowRec) int {
	return cmp.Or(cmp.Compare(a.Ch.Seq, b.Ch.Seq), compareStrings(a.id, b.id))
}

func decodeRecord(tv *TableView, c *Change) *RowRec {
	t := tv.Table
	rec := &RowRec{id: c.RowID, Ch: c, Deleted: c.Deleted, vals: make([]dataset.Value, len(t.Attrs)), has: make([]bool, len(t.Attrs))}
	rec.idValue = dataset.Value{Kind: dataset.String, Str: c.RowID}
	if f, err := strconv.ParseFloat(c.RowID, 64); err == nil && tv.idNumeric && FormatNum(f) == c.RowID {
		rec.idValue = dataset.Value{Kind: dataset.Number, Num: f}
	}
	for attrID, raw := range c.Values {
		if a := t.byID[attrID]; a != nil && !a.IsID {
			rec.vals[a.Idx], rec.has[a.Idx] = valueOfJSON(raw), true
		}
	}
	return rec
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Record returns the record of row r (dataset or created), or nil.
func (o *TableOverlay) Record(r int32) *RowRec {
	if o == nil {
		return nil
	}
	if r >= o.n {
		return o.created[r-o.n]
	}
	if o.changed.Has(r) {
		return o.rowRecord(r)
	}
	return nil
}

// rowRecord returns the record of dataset row r, or nil.
func (o *TableOverlay) rowRecord(r int32) *RowRec {
	if i, ok := slices.BinarySearch(o.rowIdx, r); ok {
		return o.rowRecs[i]
	}
	return nil
}

// hasRecord reports whether a row with id has a record, tombstones
// included; a nil o has none.
func (o *TableOverlay) hasRecord(id string) bool { return o != nil && o.ts.Get(id) != nil }

// isChanged reports whether dataset row r has a record (updated or deleted).
func (o *TableOverlay) isChanged(r int32) bool { return o != nil && o.changed.Has(r) }

// live returns the rows the overlay holds that exist: updated dataset rows
// (ascending) then created rows, in storage order.
func (o *TableOverlay) live() []int32 {
	if o == nil {
		return nil
	}
	out := make([]int32, 0, len(o.updated)+len(o.created))
	out = append(out, o.updated...)
	for i := range o.created {
		out = append(out, o.n+int32(i))
	}
	return out
}

// keyRows returns the live overlay rows whose value of a has key k, in
// storage order, from an index built on first use.
func (o *TableOverlay) keyRows(tv *TableView, a *Attr, k string) []int32 {
	if o == nil {
		return nil
	}
	if a.IsID {
		return o.idRows(tv, k)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.keys == nil {
		o.keys = map[int]map[string][]int32{}
	}
	idx, ok := o.keys[a.Idx]
	if !ok {
		idx = map[string][]int32{}
		for _, r := range o.live() {
			if key, ok := CanonKey(tv.Value(a, r)); ok {
				idx[key] = append(idx[key], r)
			}
		}
		o.keys[a.Idx] = idx
	}
	return idx[k]
}

// idRows is keyRows for the id: the updated dataset rows the dataset's id
// lookup finds (an update never changes a row's id), then the created row
// with this id (its RowID is its canonical key), without an index of the
// live rows built per version (a mutation's id lookups each had one).
func (o *TableOverlay) idRows(tv *TableView, k string) []int32 {
	var out []int32
	for _, r := range tv.datasetRowsByID(k) {
		if rec := o.rowRecord(r); rec != nil && !rec.Deleted {
			out = append(out, r)
		}
	}
	if r, ok := o.CreatedRow(k); ok {
		out = append(out, r)
	}
	return out
}

// maxIntegerID returns the largest integer RowID with a record (created,
// updated or deleted), and whether there is one.
func (o *TableOverlay) maxIntegerID() (float64, bool) { return o.maxID, o.hasMaxID }

// positionalRow returns the dataset row whose id is its 1-based position
// id, or -1: a row that has no id of its own.
func (tv *TableView) positionalRow(id string) int32 {
	pos, ok := position(id, int(tv.N))
	if !ok {
		return -1
	}
	if r := int32(pos - 1); tv.datasetID(r).Kind == dataset.Null {
		return r
	}
	return -1
}

// position reads id as a position from 1 to n written as strconv.Itoa
// writes it (no sign, no leading zero), without allocating.
func position(id string, n int) (int, bool) {
	if id == "" || id[0] == '0' || len(id) > 10 {
		return 0, false
	}
	pos := 0
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		pos = pos*10 + int(c-'0')
	}
	return pos, pos <= n
}

// datasetRowsByID returns the dataset rows whose id is id, ascending,
// whatever the variant and the overlay say.
func (tv *TableView) datasetRowsByID(id string) []int32 {
	var out []int32
	if tv.idPath != "" {
		for _, k := range LookupKeys(id) {
			out = append(out, tv.ds.Lookup(tv.idPath, k)...)
		}
	}
	if r := tv.positionalRow(id); r >= 0 {
		out = append(out, r)
	}
	if len(out) > 1 {
		slices.Sort(out)
		out = slices.Compact(out)
	}
	return out
}

// integerID parses an id that is a canonical integer ("7", not "07" or "7.5").
func integerID(id string) (float64, bool) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || strconv.FormatInt(n, 10) != id {
		return 0, false
	}
	return float64(n), true
}
