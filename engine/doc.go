// Package engine is mockgql's row engine: it answers which rows of a table a
// query reads, and what their values are, over the immutable columns of
// package dataset and a project's copy-on-write overlay of mutations. It
// knows nothing of GraphQL: package graphql compiles a schema, reads a
// request's arguments into the queries below and writes the rows.
//
// Where does a list query get its rows? From TableView.PageRows (list.go):
// the indexed page when the query's conditions have indexes (index.go; a
// sparse row list when one condition selects few rows, sparse.go), else
// the cached, sorted, filtered list merged with the overlay's live rows
// (TableView.rows). A query with where or several sort keys goes through
// Query.Page (query.go), which walks the indexes itself (query_walk.go,
// query_back.go) and falls back to a scan.
//
// The API, by what a caller holds:
//
//   - Table, Attr, Rel (table.go): what the engine reads of a compiled
//     table — its dataset, variant and id path, per attribute its path,
//     type, mapping, constant or Generator, and its relation fields.
//     NewTables fills them from a model.Project; graphql's compiler adds
//     operations and the schema.
//   - View (view.go): one request's reading of a data Pool at one overlay
//     snapshot, on the node's query cache. View.TableView binds a Table to
//     its dataset and resolved overlay (TableView, immutable, shared by the
//     request's resolvers).
//   - TableView: Value and ID of a row; PageRows for a ListQuery;
//     RowsWhere, FirstWhere, ByID, Related, RelatedRows, RelatedOne look rows
//     up by key (lookup.go, never a scan); FreshID and IDUsed choose the id
//     of a created row (newid.go); Record, CreatedRow and Unchanged read
//     the overlay's records; End numbers dataset rows then created ones.
//   - Queries: a ListQuery (a sort attribute and Preds, each a Param's
//     argument: filter.go) is what the list engine evaluates; a Query adds
//     a Where tree (ParseWhere, where.go; bitset algebra in where_bits.go)
//     and further SortKeys, with Page, All and Seek (a Relay Window from
//     its cursors' rows, seek.go). Aggregate and
//     IndexedAggregate (aggregate.go, aggregate_index.go) count, sum and
//     group the rows of a Query; PageBounds cuts a page.
//   - Overlay, Change, Snapshot, OverlayState, TableState (overlay.go): a
//     project's mutations as records over the shared datasets, one writer
//     and many readers, each reader on one immutable version; Diff names
//     the rows two versions may differ in, so a resolved table overlay
//     (TableOverlay, overlay_resolve.go) and its live rows (overlay_live*.go)
//     are patched (overlay_patch.go, overlay_ranks.go), not rebuilt.
//   - Cache and CacheView (cache.go, with Env): the node's bounded
//     LRU of computed row lists, membership bitsets and resolved overlays,
//     shared by every Runtime, entries held by weak dataset and overlay
//     pointers.
//   - Row sets and pages underneath: Bitset and copy-on-write ChunkedBits
//     (bitset.go), pages from row bitsets and dataset.Order ranks (rank.go),
//     so that page 500 costs what page 1 does; stored values as keys, JSON
//     and numbers (value.go: CanonKey, LookupKeys, JSONOf, NumberOf,
//     FormatNum).
//
// A writer and a reader of an overlay (ExampleOverlay):
//
//	ov := engine.NewOverlay()
//	ov.Apply([]engine.Change{{TableID: "t1", RowID: "7", Values: vals}})
//	snap := ov.Snapshot()          // immutable; readers share it
//	rec := snap.State().Table("t1").Get("7")
//
// A page of a table's rows, sorted (ExampleTableView_PageRows):
//
//	env := &engine.Env{Cache: cache.View(), Sparse: engine.SparseReach{Div: engine.DefaultSparseDiv}}
//	tv := engine.NewView(env, pool, ov, ov.State(), true).TableView(table) // tv.NotReady: not bound to data
//	q := &engine.ListQuery{Sort: table.Field("price")}
//	q.Spec = engine.QuerySpec(q) // the query cache's key
//	rows, err := tv.PageRows(ctx, q, 1, 20)
//	lo, hi := engine.PageBounds(rows.Len(), 1, 20)
//	for i := lo; i < hi; i++ {
//		name := tv.Value(table.Field("name"), rows.At(i))
//	}
//
// The package is pure: no I/O and no clock. Its only package-level
// variables are the immutable empty overlay version and two sync.Pools of
// scratch buffers (TestNoPackageState); it imports the standard library,
// dataset, roaring and model only (TestKnowsNoGraphQL).
package engine
