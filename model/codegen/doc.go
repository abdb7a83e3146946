// Package codegen generates a production backend from a project's model
// (SPEC.md "Import and export": the code package).
//
// GoPackage writes a Go module as a zip: a net/http server with one handler
// set per table (list, get, create, update, delete), a generic storage
// interface with an in-memory implementation, tests that exercise every
// handler through httptest, a README and a go.mod. The module needs only
// the standard library, so `go build` works offline. As SPEC.md says,
// every field is optional (Required is not applied) and relations are not
// generated; COMPUTED attributes are left out, as in the runtime schema.
// The opt-in query power of issue 14 does not translate either: AGGREGATE
// operations get no handler, and list handlers keep page, pageSize, sort
// and parameters without where, orderBy or Relay cursors.
//
//	zip, err := codegen.GoPackage(project, "example.com/shop")
//
// The output is deterministic: the same model gives the same bytes, so a
// package committed to version control shows only real changes.
package codegen
