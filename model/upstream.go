package model

// UpstreamCheck is the drift check's answer (checkUpstream): how the real
// API at URL differs from the project's schema, as a client written
// against the mock meets it — BREAKING changes first, as SchemaChanges.
type UpstreamCheck struct {
	URL     string
	Changes []SchemaChange
	// Breaking counts the BREAKING changes.
	Breaking int
}

// OperationCheck is one operation of checkOperations: the errors
// validating it against the project's schema and, when an upstream was
// given, against the upstream's.
type OperationCheck struct {
	// Name is the operation's name, or "document N" (1-based) and its
	// index for an anonymous operation or a document that does not parse.
	Name           string
	MockErrors     []string
	UpstreamErrors []string
	// Differs is true when an upstream was given and the operation is
	// valid on one side only.
	Differs bool
}

// UpstreamHeader is a header the drift check sends to the real API (an
// Authorization it needs); mockgql's own credentials are never sent.
type UpstreamHeader struct{ Name, Value string }
