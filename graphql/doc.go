// Package graphql is the mock runtime of mockgql: it compiles a project's
// model into a GraphQL schema with resolvers (Compile), and answers
// requests against a data pool's datasets and a project's overlay of
// mutations (Runtime.Query, Runtime.Mutate). Requests are prepared and
// executed by package graphql/exec; the columns come from package dataset;
// the overlay, the query cache, row sets and value keys from package engine
// (Overlay, Change, Snapshot, Cache, NewOverlay and NewCache here are its).
//
//	rt, err := graphql.Compile(project, graphql.Options{}) // once per model version
//	prep, refused := rt.Prepare(req)                     // refused: HTTP 400
//	res, err := rt.Query(ctx, prep, pool, overlay)        // concurrently
//
// Where does a list query get its rows? From tableView.pageRows
// (query_list.go): the indexed page when the query's conditions have
// indexes (query_index.go, query_sparse.go), else the cached, sorted,
// filtered list (tableView.rows). The direct writer calls it for a LIST
// operation's plain arguments (rootStep.writeList, runtime_root.go);
// listResolver (runtime_resolve.go) calls powerQuery.page (query_power.go),
// which calls it too unless where or orderBy need the power walk.
//
// Files, by seam: compile*.go, power_schema.go and schemadiff.go build the
// schema; runtime*.go, connection.go, aggregate.go and relation.go answer
// fields; query_*.go, overlay_*.go and aggregate_index.go are the part of
// the row engine still here (the bound table view, list, index, sparse,
// where and power code, the resolved overlay), on package engine's
// overlay, cache, row sets and rank-ordered page primitives, and moving
// there (engine's doc says in what order); generate*.go make GENERATED
// values.
//
// A contract project (model.Project.Contract: SDL-first, docs/using/
// contract.md) compiles differently (compile_contract.go): its schema is
// the imported document itself, its generated tables' rows are made at
// compile time from contract.Plan.Rows into in-memory datasets that
// Runtime.Pool puts in front of the caller's pool, and its resolvers
// (contract_*.go) serve each root field by its contract.Shape — reading
// arguments into the same where engine (contract_query.go,
// contract_filter.go), filling connections, pages, aggregates and
// payloads (contract_wrap.go), writing mutations as Changes
// (contract_mutate.go) and generating what no row holds
// (contract_generate.go). Rows are written directly as for table
// projects (contract_direct.go).
//
// The package is pure: no I/O, no clock, and no mutable package state —
// what a Runtime needs is a field of it; the only package-level variables
// are two sync.Pools of scratch buffers, the generator catalog's read-only
// tables and sentinel errors (TestNoPackageState).
package graphql
