// Package graphql is the mock runtime of mockgql: it compiles a project's
// model into a GraphQL schema with resolvers (Compile), and answers
// requests against a data pool's datasets and a project's overlay of
// mutations (Runtime.Query, Runtime.Mutate). Requests are prepared and
// executed by package graphql/exec; rows and values come from package
// engine, the row engine over dataset's columns (Overlay, Change, Snapshot,
// Cache, Pool, NewOverlay and NewCache here are its).
//
//	rt, err := graphql.Compile(project, graphql.Options{}) // once per model version
//	prep, refused := rt.Prepare(req)                     // refused: HTTP 400
//	res, err := rt.Query(ctx, prep, pool, overlay)        // concurrently
//
// Where does a list query get its rows? From package engine:
// engine.TableView.PageRows, or engine.Query.Page when where or orderBy
// need the power walk (engine's doc follows the path). This package reads
// the arguments into those queries (runtime_resolve.go: operation.listQuery
// and powerQuery) and writes the rows: the direct writer for a LIST
// operation's root field (rootStep.writeList, runtime_root.go), or the
// listResolver (runtime_resolve.go).
//
// Files, by seam: compile*.go, power_schema.go and schemadiff.go build the
// schema (engine.NewTables describes the tables); runtime*.go,
// connection.go and aggregate.go answer fields; generate*.go make
// GENERATED values (engine.Generator).
//
// A contract project (model.Project.Contract: SDL-first, docs/using/
// contract.md) compiles differently (compile_contract.go): its schema is
// the imported document itself, its generated tables' rows are made at
// compile time from contract.Plan.Rows into in-memory datasets that
// Runtime.Pool puts in front of the caller's pool, and its resolvers
// (contract_*.go) serve each root field by its contract.Shape — reading
// arguments into the engine's where tree (contract_query.go,
// contract_filter.go), filling connections, pages, aggregates and
// payloads (contract_wrap.go), writing mutations as Changes
// (contract_mutate.go) and generating what no row holds
// (contract_generate.go). Rows are written directly as for table
// projects (contract_direct.go).
//
// The package is pure: no I/O, no clock, and no mutable package state —
// what a Runtime needs is a field of it; the only package-level variables
// are the generator catalog's read-only tables and sentinel errors
// (TestNoPackageState).
package graphql
