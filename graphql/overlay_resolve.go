package graphql

import (
	"cmp"
	"slices"
	"strconv"
	"sync"
	"unsafe"
	"weak"

	"github.com/mockgql/mockgql/model/dataset"
)

// tableOverlay is a table's overlay records resolved against its dataset:
// which dataset rows they change and which rows they create. It is
// immutable once built (but for the lazily built key indexes) and cached
// per (table, dataset, overlay version). A nil *tableOverlay is empty.
type tableOverlay struct {
	n           int32
	rows        map[int32]*rowRec // dataset rows with a record (updated or deleted)
	changed     *bitset           // the keys of rows
	updated     []int32           // dataset rows with a live (not deleted) record, ascending
	changedRows []int32           // dataset rows with a record (the bits of changed), unordered
	created     []*rowRec         // live created rows in Seq order; row n+i is created[i]
	byID        map[string]int32  // live created rows by id

	// t, ds and decoded let the next version's build reuse the records
	// it shares with this one (Overlay.lastResolved).
	t       *table
	ds      weak.Pointer[dataset.Dataset] // weak: a replaced dataset is not kept alive
	ts      *tableState                   // the records resolved
	decoded map[*Change]decodedRec

	mu      sync.Mutex
	keys    map[int]map[string][]int32 // by attribute index (-1: id): live changed rows by key
	liveTab *liveTable                 // the live rows for list queries (overlay_live.go)
	ranks   map[string][]int32         // by sort path: the changed rows' ranks, ascending

	maxID               float64 // maxIntegerID
	hasMaxID, maxIDDone bool
}

// rowRec is one record decoded for a table.
type rowRec struct {
	id      string
	idValue dataset.Value
	ch      *Change
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
	ts := v.st.table(tv.t.id)
	if ts == nil || len(ts.recs) == 0 {
		return nil
	}
	if last := v.ov.lastResolved(tv.t.id); last.resolves(tv, ts) {
		return last
	}
	if !v.cacheable {
		return buildOverlay(tv, ts)
	}
	k := cacheKey{kind: cacheOverlay, table: tv.t.id, ds: weak.Make(tv.ds), ov: weak.Make(v.ov), version: v.st.version}
	o, _ := getOrMake(v.rt.cache, k, func() (*tableOverlay, int64, error) {
		return buildOverlay(tv, ts), overlayCost(tv, ts), nil
	})
	return o
}

// overlayCost is what a resolved overlay holds, in the cache's 4-byte
// units: per record its rowRec, values and map entries, and the changed
// bitset over the dataset. (A flat 256 bytes a record, the estimate before,
// let a project that takes many mutations keep several times its budget
// in old versions.)
func overlayCost(tv *tableView, ts *tableState) int64 {
	perRecord := int64(256 + len(tv.t.attrs)*int(unsafe.Sizeof(dataset.Value{})+1))
	return (int64(len(ts.recs))*perRecord + int64(tv.n)/8) / 4
}

// resolves reports whether o resolved the records ts for tv's table and
// dataset; a nil o resolves nothing.
func (o *tableOverlay) resolves(tv *tableView, ts *tableState) bool {
	return o != nil && o.ts == ts && o.t == tv.t && o.ds == weak.Make(tv.ds)
}

// decodedRec is a record decoded for a table and the dataset rows its id
// names (none for created rows).
type decodedRec struct {
	rec  *rowRec
	rows []int32
}

// buildOverlay resolves a table's records. Records the previous resolved
// version of the same table, runtime and dataset already decoded are
// reused (versions share their unchanged *Change), so that a mutation on
// a table with many records costs map operations per record, not a
// decode and an id lookup each.
func buildOverlay(tv *tableView, ts *tableState) *tableOverlay {
	o := &tableOverlay{n: tv.n, rows: make(map[int32]*rowRec, len(ts.recs)),
		t: tv.t, ds: weak.Make(tv.ds), ts: ts, decoded: make(map[*Change]decodedRec, len(ts.recs))}
	prev := tv.v.ov.lastResolved(tv.t.id)
	if prev != nil && (prev.t != tv.t || prev.ds != weak.Make(tv.ds)) {
		prev = nil
	}
	var created []seqRec
	for _, c := range ts.recs {
		d, ok := prev.reuse(c)
		if !ok {
			d = decodedRec{rec: decodeRecord(tv, c)}
			if !c.Created {
				d.rows = tv.datasetRowsByID(c.RowID)
			}
		}
		o.decoded[c] = d
		if c.Created {
			if !c.Deleted {
				created = append(created, seqRec{d.rec.ch.Seq, d.rec})
			}
			continue
		}
		for _, r := range d.rows {
			o.rows[r] = d.rec
		}
	}
	slices.SortFunc(created, func(a, b seqRec) int { // the Seq beside each record: no pointer chase
		if a.seq != b.seq {
			return cmp.Compare(a.seq, b.seq)
		}
		return compareStrings(a.rec.id, b.rec.id)
	})
	o.created = make([]*rowRec, len(created))
	for i, c := range created {
		o.created[i] = c.rec
	}
	o.byID = make(map[string]int32, len(o.created))
	for i, rec := range o.created {
		o.byID[rec.id] = tv.n + int32(i)
	}
	o.changed = newBitset(int(tv.n))
	o.changedRows, o.updated = make([]int32, 0, len(o.rows)), make([]int32, 0, len(o.rows))
	for r, rec := range o.rows {
		o.changed.set(r)
		o.changedRows = append(o.changedRows, r)
		if !rec.deleted {
			o.updated = append(o.updated, r)
		}
	}
	slices.Sort(o.updated)
	tv.v.ov.setResolved(tv.t.id, o) // complete: other queries may take it now
	return o
}

// seqRec is a created record and its Seq, for sorting.
type seqRec struct {
	seq int64
	rec *rowRec
}

// reuse returns what o decoded for c; a nil o has nothing.
func (o *tableOverlay) reuse(c *Change) (decodedRec, bool) {
	if o == nil {
		return decodedRec{}, false
	}
	d, ok := o.decoded[c]
	return d, ok
}

func decodeRecord(tv *tableView, c *Change) *rowRec {
	t := tv.t
	rec := &rowRec{id: c.RowID, ch: c, deleted: c.Deleted, vals: make([]dataset.Value, len(t.attrs)), has: make([]bool, len(t.attrs))}
	rec.idValue = dataset.Value{Kind: dataset.String, Str: c.RowID}
	if f, err := strconv.ParseFloat(c.RowID, 64); err == nil && tv.idNumeric && formatNum(f) == c.RowID {
		rec.idValue = dataset.Value{Kind: dataset.Number, Num: f}
	}
	for attrID, raw := range c.Values {
		if a := t.byID[attrID]; a != nil && !a.isID {
			rec.vals[a.idx], rec.has[a.idx] = valueOfJSON(raw), true
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
	if o.changed.has(r) {
		return o.rows[r]
	}
	return nil
}

// hasRecord reports whether a row with id has a record, tombstones
// included; a nil o has none.
func (o *tableOverlay) hasRecord(id string) bool { return o != nil && o.ts.recs[id] != nil }

// isChanged reports whether dataset row r has a record (updated or deleted).
func (o *tableOverlay) isChanged(r int32) bool { return o != nil && o.changed.has(r) }

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
			if key, ok := canonKey(tv.value(a, r)); ok {
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
		if rec := o.rows[r]; rec != nil && !rec.deleted {
			out = append(out, r)
		}
	}
	if r, ok := o.byID[k]; ok {
		out = append(out, r)
	}
	return out
}

// maxIntegerID returns the largest integer RowID with a record (created,
// updated or deleted), and whether there is one; computed once per
// version.
func (o *tableOverlay) maxIntegerID() (float64, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.maxIDDone {
		for id := range o.ts.recs {
			if f, ok := integerID(id); ok && (!o.hasMaxID || f > o.maxID) {
				o.maxID, o.hasMaxID = f, true
			}
		}
		o.maxIDDone = true
	}
	return o.maxID, o.hasMaxID
}

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
		for _, k := range lookupKeys(id) {
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
