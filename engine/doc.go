// Package engine is mockgql's row engine: it answers which rows of a table a
// query reads, over the immutable columns of package dataset and a
// project's copy-on-write overlay of mutations. It knows nothing of GraphQL.
//
// Where does a list query get its rows? Today from graphql's
// tableView.pageRows (graphql/query_list.go): the indexed page when the
// query's conditions have indexes, else the cached, sorted, filtered list.
// That code is moving here (below); what lives here already is what it
// stands on:
//
//   - Overlay, Change, Snapshot, OverlayState, TableState (overlay.go): a
//     project's mutations as records over the shared datasets, one writer
//     and many readers, each reader on one immutable version; Diff names
//     the rows two versions may differ in, so a resolved view is patched,
//     not rebuilt.
//   - Cache, CacheView, CacheKey, GetOrMake (cache.go): the node's bounded
//     LRU of computed row lists, membership bitsets and resolved overlays,
//     shared by every Runtime, entries held by weak dataset and overlay
//     pointers.
//   - Bitset, ChunkedBits, ChunkEditor (bitset.go): row sets; ChunkedBits
//     are copy-on-write in 2,048-row chunks, so an overlay version costs
//     the chunks it changes.
//   - SelectBits, WalkOrder, DescPage, SelectByRank, BitsBefore, BitsFrom,
//     MergeOrdered, SmallestRows, RankKeys, RankList, PatchSorted (rank.go):
//     pages from row bitsets (words of 64 rows) and dataset.Order positions,
//     ranks and tie groups, so that page 500 costs what page 1 does.
//   - CanonKey, LookupKeys, ValueOfJSON, ValueOfGo, JSONOf, NumberOf,
//     FormatNum (value.go): stored values as keys, JSON and numbers.
//
// A writer and a reader of an overlay (ExampleOverlay):
//
//	ov := engine.NewOverlay()
//	ov.Apply([]engine.Change{{TableID: "t1", RowID: "7", Values: vals}})
//	snap := ov.Snapshot()          // immutable; readers share it
//	rec := snap.State().Table("t1").Get("7")
//
// The API the whole engine is meant to have (issue 21; not all of it here
// yet): a Table describes what the engine reads of a compiled table (its
// dataset code, variant, id path, and per attribute its path, type,
// mapping, constant and generator), filled by graphql's compiler. A View
// binds tables to a data pool and one overlay snapshot for one request;
// its table view answers
//
//	Page(ctx, q, page, size) — rows of a list query (conditions, where
//	                           tree, order), indexed or scanned
//	Count(ctx, q)            — the total the page is of
//	Aggregate(ctx, q, spec)  — counts, sums and groups over the rows
//	Lookup(attr, key)        — the rows whose attribute holds key (ids,
//	                           relations)
//	Value(attr, row), ID(row) — what a resolver writes
//
// What still sits in package graphql and moves next, in this order: the
// table description (graphql/compile.go's table and attribute, which the
// row engine reads today), the bound table view and its resolved overlay
// (query_view.go, overlay_resolve.go, overlay_patch.go, overlay_ranks.go,
// overlay_live*.go), the list, index, sparse and page code (query_list.go,
// query_index.go, query_sparse.go, query_page.go, query_filter.go,
// query_where*.go), the power walk (query_power*.go) and the indexed
// aggregate (aggregate_index.go).
//
// The package is pure: no I/O, no clock, and no mutable package state
// (TestNoPackageState): the only package-level variable is the immutable
// empty overlay version.
package engine
