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
// connection.go and aggregate.go answer fields; package gen's
// generators make GENERATED values (engine.Generator); contract.go names
// the API of the parts (events, compiles, generators).
//
// A contract project (model.Project.Contract: SDL-first, docs/using/
// contract.md) is served by package graphql/contractrt: Compile hands it
// the project and the tables compiled here, and the Runtime answers with
// its executor; contractrt's doc answers "how is a root field of an
// imported schema served?". What both runtimes write rows with — row
// objects, direct row plans, output values, cursors, events and the
// mutation's stack of changes — is package graphql/internal/answer; the
// generators of fake values are package graphql/internal/gen.
//
// The package is pure: no I/O, no clock, and no mutable package state —
// what a Runtime needs is a field of it; the only package-level variables
// are sentinel errors here and the generator catalog's read-only tables in
// package gen (TestNoPackageState, in each package).
package graphql
