// Package codegen generates a production backend from a project's model
// (docs/using/import-export.md, "The Go code package").
//
// GoPackage writes a Go module as a zip: a net/http server with one handler
// set per table (list, get, create, update, delete), a generic storage
// interface with an in-memory implementation, tests that exercise every
// handler through httptest, a README and a go.mod. The module needs only
// the standard library, so `go build` works offline. As the docs say,
// every field is optional (Required is not applied) and relations are not
// generated; COMPUTED attributes are left out, as in the runtime schema.
// The opt-in query power of issue 14 is served in the paths of the OpenAPI
// export (openapi) over the same storage interface: a table's list
// takes ?where= (a JSON filter tree) and ?orderBy=a,-b when its first LIST
// operation opts in, its relay option adds a connection with opaque
// cursors at <path>/-/<name>Connection, and each AGGREGATE operation is
// served at <path>/-/<name> with where and groupBy. Lists also take
// sortField and sortDirection. Further LIST operations and operation
// parameters are not generated.
//
//	zip, err := codegen.GoPackage(project, "example.com/shop")
//
// The output is deterministic: the same model gives the same bytes, so a
// package committed to version control shows only real changes.
package codegen
