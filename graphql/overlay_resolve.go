package graphql

import (
	"cmp"
	"slices"
	"strconv"
	"sync"
	"unsafe"
	"weak"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
)

// tableOverlay is a table's overlay records resolved against its dataset:
// which dataset rows they change and which rows they create. It is
// immutable once built (but for the lazily built indexes) and cached per
// (table, dataset, overlay version). A nil *tableOverlay is empty.
//
// A version is built from the last resolved one by patching the rows whose
// records differ (engine.Diff, overlay_patch.go): O(changed ·
// log records) decoding and lookups, plus a copy of the flat slices and
// of the changed set's chunk pointers and touched chunks.
type tableOverlay struct {
	n       int32
	rowIdx  []int32             // dataset rows with a record (updated or deleted), ascending
	rowRecs []*rowRec           // their records, by position in rowIdx
	changed *engine.ChunkedBits // the rows of rowIdx; versions share its unchanged chunks
	updated []int32             // the rows of rowIdx whose record is live, ascending
	created []*rowRec           // live created rows in (Seq, RowID) order; row n+i is created[i]

	maxID    float64 // the largest integer RowID with a record (maxIntegerID)
	hasMaxID bool

	// t and ds let the next version's build patch this one
	// (lastResolved); ts is the records resolved.
	t  *table
	ds weak.Pointer[dataset.Dataset] // weak: a replaced dataset is not kept alive
	ts *engine.TableState

	mu      sync.Mutex
	keys    map[int]map[string][]int32 // by attribute index: live changed rows by key
	liveTab *liveTable                 // the live rows for list queries (overlay_live.go)
	from    *liveTable                 // an earlier version's, to patch into liveTab; nil once built
	ranks   map[string][]int32         // by sort path: the changed rows' ranks, ascending
	// ranksFrom is an earlier version's overlay whose ranks this one's are
	// patched from (overlay_ranks.go); nil once they are.
	ranksFrom *tableOverlay
}

// rowRec is one record decoded for a table.
type rowRec struct {
	id      string
	idValue dataset.Value
	ch      *engine.Change
	deleted bool
	vals    []dataset.Value // by attribute index
	has     []bool
}

// resolveOverlay returns tv's resolved overlay: the overlay's last resolved
// version of the table when it resolved these very records (tableStates
// are immutable) for this table and dataset, else one cached when the view
// allows. The last resolved version is held by the overlay, so a query
// cache that evicted it (a busy node) does not make every query of a
// mutated project rebuild it, its live table and their indexes.
func (v *view) resolveOverlay(tv *tableView) *tableOverlay {
	ts := v.st.Table(tv.t.id)
	if ts.Len() == 0 {
		return nil
	}
	if last := lastResolved(v.ov, tv.t.id); last.resolves(tv, ts) {
		return last
	}
	if !v.cacheable {
		return buildOverlay(tv, ts)
	}
	k := engine.CacheKey{Kind: engine.CacheOverlay, Table: tv.t.id, Dataset: weak.Make(tv.ds), Overlay: weak.Make(v.ov), Version: v.st.Version()}
	o, _ := engine.GetOrMake(v.cache, k, func() (*tableOverlay, int64, error) {
		return buildOverlay(tv, ts), overlayCost(tv, ts), nil
	})
	return o
}

// overlayCost is what a resolved overlay holds, in the cache's 4-byte
// units: per record its rowRec, values and slice entries, and the changed
// bitset over the dataset. Versions share their unchanged rowRecs, so this
// overstates all but the first: the cache keeps fewer versions rather than
// more.
func overlayCost(tv *tableView, ts *engine.TableState) int64 {
	perRecord := int64(256 + len(tv.t.attrs)*int(unsafe.Sizeof(dataset.Value{})+1))
	return (int64(ts.Len())*perRecord + int64(tv.n)/8) / 4
}

// resolves reports whether o resolved the records ts for tv's table and
// dataset; a nil o resolves nothing.
func (o *tableOverlay) resolves(tv *tableView, ts *engine.TableState) bool {
	return o != nil && o.ts == ts && o.t == tv.t && o.ds == weak.Make(tv.ds)
}

// buildOverlay resolves a table's records: by patching the last resolved
// version of the same table and dataset when the records differ from its
// under known RowIDs, else from every record.
func buildOverlay(tv *tableView, ts *engine.TableState) *tableOverlay {
	var o *tableOverlay
	if prev := lastResolved(tv.v.ov, tv.t.id); prev != nil && prev.t == tv.t && prev.ds == weak.Make(tv.ds) {
		if ids, ok := engine.Diff(prev.ts, ts); ok {
			o = prev.patch(tv, ts, ids)
		}
	}
	if o == nil {
		o = resolveAll(tv, ts)
	}
	tv.v.ov.SetResolved(tv.t.id, o) // complete: other queries may take it now
	return o
}

// resolveAll resolves every record of ts.
func resolveAll(tv *tableView, ts *engine.TableState) *tableOverlay {
	o := &tableOverlay{n: tv.n, t: tv.t, ds: weak.Make(tv.ds), ts: ts}
	var set []rowSet
	ts.Each(func(c *engine.Change) {
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
func (o *tableOverlay) noteID(id string) {
	if f, ok := integerID(id); ok && (!o.hasMaxID || f > o.maxID) {
		o.maxID, o.hasMaxID = f, true
	}
}

// compareCreated orders created rows: by Seq, then RowID.
func compareCreated(a, b *rowRec) int {
	return cmp.Or(cmp.Compare(a.ch.Seq, b.ch.Seq), compareStrings(a.id, b.id))
}

func decodeRecord(tv *tableView, c *engine.Change) *rowRec {
	t := tv.t
	rec := &rowRec{id: c.RowID, ch: c, deleted: c.Deleted, vals: make([]dataset.Value, len(t.attrs)), has: make([]bool, len(t.attrs))}
	rec.idValue = dataset.Value{Kind: dataset.String, Str: c.RowID}
	if f, err := strconv.ParseFloat(c.RowID, 64); err == nil && tv.idNumeric && engine.FormatNum(f) == c.RowID {
		rec.idValue = dataset.Value{Kind: dataset.Number, Num: f}
	}
	for attrID, raw := range c.Values {
		if a := t.byID[attrID]; a != nil && !a.isID {
			rec.vals[a.idx], rec.has[a.idx] = engine.ValueOfJSON(raw), true
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

// record returns the record of row r (dataset or created), or nil.
func (o *tableOverlay) record(r int32) *rowRec {
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
func (o *tableOverlay) rowRecord(r int32) *rowRec {
	if i, ok := slices.BinarySearch(o.rowIdx, r); ok {
		return o.rowRecs[i]
	}
	return nil
}

// hasRecord reports whether a row with id has a record, tombstones
// included; a nil o has none.
func (o *tableOverlay) hasRecord(id string) bool { return o != nil && o.ts.Get(id) != nil }

// isChanged reports whether dataset row r has a record (updated or deleted).
func (o *tableOverlay) isChanged(r int32) bool { return o != nil && o.changed.Has(r) }

// live returns the rows the overlay holds that exist: updated dataset rows
// (ascending) then created rows, in storage order.
func (o *tableOverlay) live() []int32 {
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
func (o *tableOverlay) keyRows(tv *tableView, a *attribute, k string) []int32 {
	if o == nil {
		return nil
	}
	if a.isID {
		return o.idRows(tv, k)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.keys == nil {
		o.keys = map[int]map[string][]int32{}
	}
	idx, ok := o.keys[a.idx]
	if !ok {
		idx = map[string][]int32{}
		for _, r := range o.live() {
			if key, ok := engine.CanonKey(tv.value(a, r)); ok {
				idx[key] = append(idx[key], r)
			}
		}
		o.keys[a.idx] = idx
	}
	return idx[k]
}

// idRows is keyRows for the id: the updated dataset rows the dataset's id
// lookup finds (an update never changes a row's id), then the created row
// with this id (its RowID is its canonical key), without an index of the
// live rows built per version (a mutation's id lookups each had one).
func (o *tableOverlay) idRows(tv *tableView, k string) []int32 {
	var out []int32
	for _, r := range tv.datasetRowsByID(k) {
		if rec := o.rowRecord(r); rec != nil && !rec.deleted {
			out = append(out, r)
		}
	}
	if r, ok := o.createdRow(k); ok {
		out = append(out, r)
	}
	return out
}

// maxIntegerID returns the largest integer RowID with a record (created,
// updated or deleted), and whether there is one.
func (o *tableOverlay) maxIntegerID() (float64, bool) { return o.maxID, o.hasMaxID }

// positionalRow returns the dataset row whose id is its 1-based position
// id, or -1: a row that has no id of its own.
func (tv *tableView) positionalRow(id string) int32 {
	pos, ok := position(id, int(tv.n))
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
func (tv *tableView) datasetRowsByID(id string) []int32 {
	var out []int32
	if tv.idPath != "" {
		for _, k := range engine.LookupKeys(id) {
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

// lastResolved returns the table's last resolved overlay kept by o, or nil.
func lastResolved(o *engine.Overlay, table string) *tableOverlay {
	t, _ := o.LastResolved(table).(*tableOverlay)
	return t
}

// integerID parses an id that is a canonical integer ("7", not "07" or "7.5").
func integerID(id string) (float64, bool) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || strconv.FormatInt(n, 10) != id {
		return 0, false
	}
	return float64(n), true
}
