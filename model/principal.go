package model

import (
	"encoding/json"
	"io"
	"time"
)

// Principal is who is calling: a signed-in user (JWT), an API key, or a
// browser/assistant session (the mgq_session cookie). Fields that do not
// apply are empty.
type Principal struct {
	UserID    string
	AccountID string
	// TokenVersion is the version the session token (JWT) carries; the
	// account's grain refuses a token older than the user's current one.
	TokenVersion uint64
	// Refused is why the session token the request carried is no longer
	// good (its user was removed from the account, or the token was
	// revoked); UserID and AccountID are then empty, and every operation
	// that needs a credential answers with Refused.
	Refused error
	// KeyProjectID and KeyScope are set when the caller used an API key.
	KeyProjectID string
	KeyScope     Scope
	// SessionID is the mgq_session cookie's session (public API, guests).
	SessionID string
	// BoardProjectID is set when the board session was opened by an
	// adoption link: the caller may edit that one project.
	BoardProjectID string
	// System marks the node's own calls (demo seeding); the HTTP layer never
	// sets it from a request.
	System bool
}

// Anonymous reports whether p carries no credential at all.
func (p Principal) Anonymous() bool {
	return p.UserID == "" && p.KeyProjectID == "" && p.SessionID == "" && p.BoardProjectID == ""
}

// DataSource is a dataset of the data pool as the APIs show it.
type DataSource struct {
	ImportCode  string
	Name        string
	FieldPaths  []string
	RecordCount int
	Variants    []DataSourceVariant
	// Owned is true when the dataset is the caller's account's own upload
	// (it may delete it), false for the curated pool.
	Owned bool
	// Samples reads the dataset's first documents when they are asked
	// for; nil: none to show.
	Samples DocumentSampler `json:"-"`
}

// DocumentSampler reads up to limit documents (JSON objects) of a dataset
// on demand, so that listing the pool loads no dataset (sampleDocuments,
// MCP's samples). The use cases implement it over the data pool.
type DocumentSampler interface {
	Sample(limit int) []json.RawMessage
}

// SamplerFunc adapts a function to a DocumentSampler (fixtures, tests).
type SamplerFunc func(limit int) []json.RawMessage

// Sample calls f.
func (f SamplerFunc) Sample(limit int) []json.RawMessage { return f(limit) }

// DataSourceVariant is a named subset of a dataset.
type DataSourceVariant struct {
	Name        string
	RecordCount int
}

// DatasetImport is one dataset upload.
type DatasetImport struct {
	ImportCode   string
	Name         string
	Format       string // json | ndjson | csv
	VariantField string
	Body         io.Reader
	MaxBytes     int64
	// Size is the body's length when known in advance (an upload's
	// Content-Length), else 0: an account's plan holds that much room for
	// the upload before it is read, or all the room left when unknown.
	Size int64
}

// CreatedKey is a new API key with its value, shown once.
type CreatedKey struct {
	Key   APIKey
	Value string
}

// SessionProject is a session project with a fresh one-time adoption token
// (shown once; only its hash is stored).
type SessionProject struct {
	Project           *Project
	AdoptionToken     string
	AdoptionExpiresAt time.Time
}

// RuntimeList is a runtimeList call: one page of a LIST operation.
type RuntimeList struct {
	Operation     string
	Page          *int
	PageSize      *int
	SortField     *string
	SortDirection *string
	Args          map[string]any
}

// RuntimeListResult is what runtimeList answers.
type RuntimeListResult struct {
	Items    []json.RawMessage
	Total    int
	Page     int
	PageSize int
	Errors   []json.RawMessage
}
