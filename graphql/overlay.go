package graphql

import "github.com/mockgql/mockgql/engine"

// The overlay and the query cache are the row engine's (package engine);
// these names keep them where the callers of a Runtime have always found
// them.
type (
	// Overlay is engine.Overlay: a project's copy-on-write mock-data changes.
	Overlay = engine.Overlay
	// Change is engine.Change: the new state of one row.
	Change = engine.Change
	// Snapshot is engine.Snapshot: one immutable version of an Overlay.
	Snapshot = engine.Snapshot
	// Cache is engine.Cache: the node's bounded cache of query results.
	Cache = engine.Cache
)

// NewOverlay returns an empty overlay at version 0 (engine.NewOverlay).
func NewOverlay() *Overlay { return engine.NewOverlay() }

// NewCache returns a cache bounded at maxRows cached row numbers
// (engine.NewCache).
func NewCache(maxRows int) *Cache { return engine.NewCache(maxRows) }

// Pool is engine.Pool: the datasets of the data pool a Runtime reads.
type Pool = engine.Pool
