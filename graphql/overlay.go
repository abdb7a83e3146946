package graphql

import (
	"encoding/json"
	"maps"
	"sort"
	"sync"
	"sync/atomic"
)

// Overlay is a project's own copy-on-write layer of mock-data changes over
// the shared, immutable datasets: rows updated, created and deleted by
// mutations (API.md "Mutations change the project's own copy").
//
// Overlay is safe for concurrent use by many readers and one writer. Readers
// take an immutable snapshot (one atomic load) and see either all or none of
// an Apply. Apply copies the records of the tables it touches, so it costs
// O(records of those tables); mutations are rare next to queries.
type Overlay struct {
	mu    sync.Mutex // serialises writers
	state atomic.Pointer[overlayState]

	resolvedMu sync.Mutex
	resolved   map[string]*tableOverlay // by table ID: the last resolved version, for the next build
}

// lastResolved returns the table's last resolved overlay, or nil. A nil
// Overlay has none.
func (o *Overlay) lastResolved(table string) *tableOverlay {
	if o == nil {
		return nil
	}
	o.resolvedMu.Lock()
	defer o.resolvedMu.Unlock()
	return o.resolved[table]
}

// setResolved keeps t as the table's last resolved overlay.
func (o *Overlay) setResolved(table string, t *tableOverlay) {
	if o == nil {
		return
	}
	o.resolvedMu.Lock()
	defer o.resolvedMu.Unlock()
	if o.resolved == nil {
		o.resolved = map[string]*tableOverlay{}
	}
	o.resolved[table] = t
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

// overlayState is one immutable version of an overlay.
type overlayState struct {
	version int64
	tables  map[string]*tableState // by table ID
}

// tableState holds the records of one table. It is immutable once published.
type tableState struct {
	recs   map[string]*Change // by RowID
	maxSeq int64
}

var emptyState = &overlayState{}

// NewOverlay returns an empty overlay at version 0.
func NewOverlay() *Overlay { return &Overlay{} }

// snapshot returns the current state; a nil overlay is empty.
func (o *Overlay) snapshot() *overlayState {
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
	o.state.Store(o.snapshot().with(changes))
}

// Version returns a number that increases on every Apply and Reset; caches
// of query results key on it.
func (o *Overlay) Version() int64 { return o.snapshot().version }

// Changes returns all current records, one per row with its latest state,
// ordered by table ID, then Seq, then RowID: what a persistence layer needs
// to rebuild the overlay with Apply. The caller owns the result.
func (o *Overlay) Changes() []Change {
	s := o.snapshot()
	var out []Change
	for _, ts := range s.tables {
		for _, c := range ts.recs {
			cp := *c
			cp.Values = maps.Clone(c.Values)
			out = append(out, cp)
		}
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
	o.state.Store(&overlayState{version: o.snapshot().version + 1})
}

// with returns a new state: s plus changes, version s.version+1. Tables not
// touched are shared with s.
func (s *overlayState) with(changes []Change) *overlayState {
	next := &overlayState{version: s.version + 1, tables: maps.Clone(s.tables)}
	if next.tables == nil {
		next.tables = map[string]*tableState{}
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
		ts.recs[c.RowID] = &c
		ts.maxSeq = max(ts.maxSeq, c.Seq)
	}
	return next
}

func (ts *tableState) clone() *tableState {
	if ts == nil {
		return &tableState{recs: map[string]*Change{}}
	}
	return &tableState{recs: maps.Clone(ts.recs), maxSeq: ts.maxSeq}
}

// table returns the records of a table, or nil.
func (s *overlayState) table(id string) *tableState { return s.tables[id] }
