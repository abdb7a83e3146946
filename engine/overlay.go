package engine

import (
	"encoding/json"
	"maps"
	"sort"
	"sync"
	"sync/atomic"
)

// Overlay is a project's own copy-on-write layer of mock-data changes over
// the shared, immutable datasets: rows updated, created and deleted by
// mutations (mutations change the project's own copy: docs/using/runtime.md).
//
// Overlay is safe for concurrent use by many readers and one writer. Readers
// take an immutable snapshot (one atomic load) and see either all or none of
// an Apply. A table's records are a shared base plus a small delta
// (TableState), so an Apply copies O(√records) entries, amortised, not the
// table's records.
type Overlay struct {
	mu    sync.Mutex // serialises writers
	state atomic.Pointer[OverlayState]

	resolvedMu sync.Mutex
	resolved   map[string]*TableOverlay // by table ID: the last resolved version, for the next build (lastResolved)
}

// lastResolved returns what keepResolved last kept for a table, or nil. A
// nil Overlay has nothing. The row engine keeps its last resolved view of a
// table's records here so that the next one is built from it.
func (o *Overlay) lastResolved(table string) *TableOverlay {
	if o == nil {
		return nil
	}
	o.resolvedMu.Lock()
	defer o.resolvedMu.Unlock()
	return o.resolved[table]
}

// keepResolved keeps v as the table's last resolved records (lastResolved).
func (o *Overlay) keepResolved(table string, v *TableOverlay) {
	if o == nil {
		return
	}
	o.resolvedMu.Lock()
	defer o.resolvedMu.Unlock()
	if o.resolved == nil {
		o.resolved = map[string]*TableOverlay{}
	}
	o.resolved[table] = v
}

// Change is the new state of one row of one table, in the form the
// persistence layer stores as JSON under the key (TableID, RowID).
//
// RowID is the row's id as the runtime shows it (the `id` field). Values are
// keyed by attribute ID, so they survive renames; values of attributes that
// no longer exist are ignored. A Change replaces any earlier Change of the
// same row: it carries all overriding values, not a delta.
type Change struct {
	TableID string `json:"t"`
	RowID   string `json:"r"`
	// Created marks a row created by a mutation (not in the dataset).
	Created bool `json:"c,omitempty"`
	// Deleted marks a tombstone: the row is gone everywhere.
	Deleted bool `json:"d,omitempty"`
	// Seq orders created rows (they follow the dataset rows in Seq order).
	Seq int64 `json:"s"`
	// Values are the overriding values by attribute ID.
	Values map[string]json.RawMessage `json:"v,omitempty"`
}

// OverlayState is one immutable version of an overlay.
type OverlayState struct {
	version int64
	tables  map[string]*TableState // by table ID
}

// TableState holds the records of one table: a base shared by many
// versions and a delta of the records newer than it. It is immutable once
// published. A version costs a copy of the delta; when the delta outgrows
// compactAt of the base, it is merged into a new base (one copy of the
// records), so a change costs O(√records) amortised.
type TableState struct {
	base   *recBase
	delta  map[string]*Change // by RowID; nil when empty
	count  int                // records in all
	maxSeq int64
}

// recBase is an immutable map of records, shared by the versions built on
// it. gen identifies it; a base made by compaction names the base it
// merged into (from) and the RowIDs it took from that base's delta
// (merged), so that the records of versions on either side differ only
// under known RowIDs (Diff) without keeping the older base.
type recBase struct {
	recs   map[string]*Change
	gen    *baseID
	from   *baseID
	merged []string
}

// baseID identifies a base: a pointer to a fresh one is unique while a
// base or a later base's from refers to it (so no counter is shared by all
// overlays); nil is no base. It is not zero-sized, since Go may give every
// zero-sized allocation the same address.
type baseID struct{ _ byte }

// compactAt is the delta size past which a delta over a base of n records
// is merged into a new base: √n, at least 64.
func compactAt(n int) int {
	k := 64
	for k*k < n {
		k *= 2
	}
	return k
}

// Get returns the record of a row, or nil; a nil ts has none.
func (ts *TableState) Get(id string) *Change {
	if ts == nil {
		return nil
	}
	if c, ok := ts.delta[id]; ok {
		return c
	}
	return ts.base.recs[id]
}

// MaxSeq returns the highest Seq of the table's records; 0 for none. A
// nil ts has none.
func (ts *TableState) MaxSeq() int64 {
	if ts == nil {
		return 0
	}
	return ts.maxSeq
}

// Len returns the number of records; a nil ts has none.
func (ts *TableState) Len() int {
	if ts == nil {
		return 0
	}
	return ts.count
}

// Each calls f with every record once, in no particular order.
func (ts *TableState) Each(f func(*Change)) {
	if ts == nil {
		return
	}
	for id, c := range ts.base.recs {
		if _, newer := ts.delta[id]; !newer {
			f(c)
		}
	}
	for _, c := range ts.delta {
		f(c)
	}
}

// since returns the RowIDs whose records may differ between ts and the
// versions whose base is gen (those of ts's delta, and of the compaction
// when ts's base merged gen's), or false when ts is not that close to gen.
func (ts *TableState) since(gen *baseID, out []string) ([]string, bool) {
	switch {
	case ts.base.gen == gen:
	case ts.base.from == gen && gen != nil:
		out = append(out, ts.base.merged...)
	default:
		return out, false
	}
	for id := range ts.delta {
		out = append(out, id)
	}
	return out, true
}

// Diff returns RowIDs, possibly repeated, that hold every row whose record
// differs between a and b (more may be listed), or false when they share
// no base close enough to tell (then every record may differ).
func Diff(a, b *TableState) ([]string, bool) {
	for _, gen := range []*baseID{a.base.gen, a.base.from} {
		if ids, ok := a.since(gen, nil); ok {
			if ids, ok = b.since(gen, ids); ok {
				return ids, true
			}
		}
	}
	return nil, false
}

var emptyState = &OverlayState{}

// NewOverlay returns an empty overlay at version 0.
func NewOverlay() *Overlay { return &Overlay{} }

// State returns the current records; a nil overlay has none. Snapshot
// returns them with the overlay.
func (o *Overlay) State() *OverlayState {
	if o == nil {
		return emptyState
	}
	if s := o.state.Load(); s != nil {
		return s
	}
	return emptyState
}

// Apply records changes, in order (a later Change of the same row replaces
// an earlier one), and increases Version. It does not keep the slice; it
// copies each Change.
func (o *Overlay) Apply(changes []Change) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.state.Store(o.State().With(changes))
}

// Version returns a number that increases on every Apply and Reset; caches
// of query results key on it.
func (o *Overlay) Version() int64 { return o.State().version }

// Changes returns all current records, one per row with its latest state,
// ordered by table ID, then Seq, then RowID: what a persistence layer needs
// to rebuild the overlay with Apply. The caller owns the result.
func (o *Overlay) Changes() []Change { return o.State().Changes() }

// Changes returns s's records as Overlay.Changes does.
func (s *OverlayState) Changes() []Change {
	var out []Change
	for _, ts := range s.tables {
		ts.Each(func(c *Change) {
			cp := *c
			cp.Values = maps.Clone(c.Values)
			out = append(out, cp)
		})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.TableID != b.TableID {
			return a.TableID < b.TableID
		}
		if a.Seq != b.Seq {
			return a.Seq < b.Seq
		}
		return a.RowID < b.RowID
	})
	return out
}

// Reset drops every change (resetMockData) and increases Version.
func (o *Overlay) Reset() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.state.Store(&OverlayState{version: o.State().version + 1})
}

// Replace drops every change and records changes instead, in one version
// (a named state restored): readers see either the old records or the
// new ones, never none.
func (o *Overlay) Replace(changes []Change) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.state.Store((&OverlayState{version: o.State().version}).With(changes))
}

// With returns a new state: s plus changes, version s.version+1. Tables not
// touched are shared with s; touched ones share their base.
func (s *OverlayState) With(changes []Change) *OverlayState { return s.with(changes, true) }

// with is With; compact false keeps every touched table's base shared
// however large its delta grows (Layered).
func (s *OverlayState) with(changes []Change, compact bool) *OverlayState {
	next := &OverlayState{version: s.version + 1, tables: maps.Clone(s.tables)}
	if next.tables == nil {
		next.tables = map[string]*TableState{}
	}
	copied := map[string]bool{}
	for _, c := range changes {
		ts := next.tables[c.TableID]
		if !copied[c.TableID] {
			ts = ts.clone()
			next.tables[c.TableID] = ts
			copied[c.TableID] = true
		}
		c.Values = maps.Clone(c.Values)
		if ts.Get(c.RowID) == nil {
			ts.count++
		}
		ts.delta[c.RowID] = &c
		ts.maxSeq = max(ts.maxSeq, c.Seq)
	}
	for id := range copied {
		if compact {
			next.tables[id].compact()
		}
	}
	return next
}

// clone returns a copy of ts to change: the same base, its own delta.
func (ts *TableState) clone() *TableState {
	if ts == nil { // a fresh base: nothing to share with versions before a Reset
		return &TableState{base: &recBase{gen: new(baseID)}, delta: map[string]*Change{}}
	}
	d := make(map[string]*Change, len(ts.delta)+8)
	maps.Copy(d, ts.delta)
	return &TableState{base: ts.base, delta: d, count: ts.count, maxSeq: ts.maxSeq}
}

// compact merges a delta grown past compactAt into a new base. Only a
// state not yet published may be compacted.
func (ts *TableState) compact() {
	if len(ts.delta) <= compactAt(len(ts.base.recs)) {
		return
	}
	recs := make(map[string]*Change, ts.count)
	maps.Copy(recs, ts.base.recs)
	merged := make([]string, 0, len(ts.delta))
	for id, c := range ts.delta {
		recs[id] = c
		merged = append(merged, id)
	}
	ts.base = &recBase{recs: recs, gen: new(baseID), from: ts.base.gen, merged: merged}
	ts.delta = nil
}

// Version returns the number of the Apply or Reset that made s.
func (s *OverlayState) Version() int64 { return s.version }

// Table returns the records of a table, or nil.
func (s *OverlayState) Table(id string) *TableState { return s.tables[id] }

// Snapshot is one immutable version of an Overlay (which it keeps, so that
// reading it shares the overlay's resolved rows). The zero Snapshot is the
// empty overlay.
type Snapshot struct {
	ov *Overlay
	st *OverlayState
}

// Snapshot returns the overlay's current version.
func (o *Overlay) Snapshot() Snapshot { return Snapshot{o, o.State()} }

// Overlay returns the overlay s is a version of; nil for the zero Snapshot.
func (s Snapshot) Overlay() *Overlay { return s.ov }

// State returns the records of s; the zero Snapshot's are empty.
func (s Snapshot) State() *OverlayState {
	if s.st == nil {
		return emptyState
	}
	return s.st
}

// Has reports whether s holds a record of row rowID of table tableID (a
// row created, changed or deleted by an earlier mutation).
func (s Snapshot) Has(tableID, rowID string) bool {
	ts := s.State().tables[tableID]
	return ts != nil && ts.Get(rowID) != nil
}

// Layered returns a new overlay whose first version is s plus changes:
// another overlay's records with changes of its own on top (a sandbox's,
// over its project's current state). Its tables keep s's bases, however
// many changes it adds (no compaction), so it costs the changes, not a
// copy of s's records.
func Layered(s *OverlayState, changes []Change) *Overlay {
	if s == nil {
		s = emptyState
	}
	o := &Overlay{}
	o.state.Store(s.with(changes, false))
	return o
}
