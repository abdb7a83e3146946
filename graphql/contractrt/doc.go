// Package contractrt is the runtime of a contract project: a project made
// from an imported GraphQL schema (model.Project.Contract, docs/using/
// contract.md). Package graphql compiles it (graphql.Compile calls Compile
// here for a project with a contract) and serves it through the same
// graphql.Runtime as a table project; the table runtime stays in package
// graphql, and what both write rows with (row objects, direct row plans,
// cursors, events, the mutation's stack of changes) is graphql/internal/answer.
//
// How is a root field of an imported schema served?
//
//  1. At import, package contract interprets the document (contract.Plan):
//     every root field gets a contract.Shape (LIST, LOOKUP, CONNECTION,
//     PAGE, AGGREGATE, CREATE, UPDATE, DELETE, PAYLOAD, SUBSCRIPTION,
//     GENERATED …) and the types with rows become tables.
//  2. Compile (compile.go, dataset.go) makes the generated tables' rows once per
//     model version, seeded by the project (generate.go, budget.go bounds
//     them), holds them as in-memory datasets that Runtime.Pool puts in
//     front of the caller's pool, and builds an exec.Executor over the
//     imported schema itself, unchanged (federation.go adds _service and
//     _entities to a subgraph).
//  3. A query's root field is written directly when it can be
//     (root.go and direct.go: RootPlan.WriteRoot, the rows by answer.RowPlan): its
//     arguments become the engine's where tree, order and window
//     (query.go, filter.go, rows.go), then a list, a connection, a page
//     wrapper (wrap.go) or one row. Everything else goes through the
//     resolvers of resolve.go, which answer the same from the same rows:
//     relations by their keys (links.go for lists no key holds),
//     aggregates (arith.go) and generated values for what no row holds
//     (generate.go).
//  4. A mutation's root field (mutate.go, payload.go) reads the rows its
//     arguments or input fields name, stacks its changes on an
//     answer.Mutation and answers the payload the schema declares
//     (userErrors empty on success, filled on a refusal); the caller
//     persists the changes and applies them to the overlay.
//  5. A subscription field (subscription.go) follows the events of the
//     mutations that change its rows, filtered by its arguments, or ticks
//     for a generated stream.
//
// The package is pure, as package graphql is: no I/O, no clock, no
// mutable package state.
package contractrt
