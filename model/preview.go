package model

import "encoding/json"

// Preview is what a project's read-only preview page shows (docs/using/runtime.md,
// "Preview links"): the model, its runtime schema, and the
// first page of each table's list operation as the runtime served it.
type Preview struct {
	Project *Project
	// SDL is the project's runtime schema.
	SDL string
	// Samples are keyed by table ID; a table without an enabled LIST
	// operation has none.
	Samples map[string]PreviewSample
	// Pool holds the import codes of the data pool the project reads: a
	// table bound outside it is not ready (Table.NotReadyIn).
	Pool map[string]bool
}

// PreviewSample is the first page of one table's list operation.
type PreviewSample struct {
	// Operation is the LIST operation that served the page.
	Operation string
	Total     int
	Items     []json.RawMessage
	// Errors are the GraphQL errors of this table's field (NOT_READY for a
	// table that is not bound, for example).
	Errors []json.RawMessage
}
