package model

import (
	"encoding/json"
	"time"
)

// Bounds of one request log entry: what a project's log holds is at most
// RequestLogSize entries of these, about 11.5 KiB each (2.3 MB).
const (
	// RequestLogSize is the number of runtime requests a project's log keeps.
	RequestLogSize = 200
	// MaxLoggedQuery and MaxLoggedVariables clip the query text and the
	// variables' JSON (model.Clip: cut and marked with the full length).
	MaxLoggedQuery     = 4 << 10
	MaxLoggedVariables = 4 << 10
	// MaxLoggedName clips the operation name; MaxLoggedRootFields the
	// root fields listed.
	MaxLoggedName       = 256
	MaxLoggedRootFields = 32
)

// RequestLogEntry is one runtime request of a project as its request log
// keeps it (issue 14): in memory on the node of the project's grain, lost
// when the grain re-activates.
type RequestLogEntry struct {
	ID            string          `json:"id"`
	At            time.Time       `json:"at"`
	OperationName string          `json:"operationName,omitempty"`
	RootFields    []string        `json:"rootFields,omitempty"`
	Query         string          `json:"query,omitempty"`
	Variables     json.RawMessage `json:"variables,omitempty"`
	// Status is the HTTP status answered when the runtime chose it (200,
	// a 400 for a refused document, a fault's status); 0 for a refusal,
	// whose status follows from Code where errors become HTTP.
	Status     int     `json:"status,omitempty"`
	DurationMs float64 `json:"durationMs"`
	// Code is errors[0].extensions.code of a 200, or the refusal's code;
	// "" on success.
	Code Code `json:"code,omitempty"`
	// Fault is what was injected (FaultDecision.String); "" for nothing.
	Fault string `json:"fault,omitempty"`
	// Subscription is SubscriptionStart or SubscriptionEnd for the start
	// and end of a subscription (docs/using/realtime.md), "" otherwise; an
	// end's DurationMs is the subscription's life and Events how many
	// events it sent.
	Subscription string `json:"subscription,omitempty"`
	Events       int    `json:"events,omitempty"`
	// Sandbox is the sandbox the request ran in (X-Mock-Sandbox); "" for
	// the project's own data.
	Sandbox string `json:"sandbox,omitempty"`
}

// The values of RequestLogEntry.Subscription.
const (
	SubscriptionStart = "START"
	SubscriptionEnd   = "END"
)
