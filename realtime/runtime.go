package realtime

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/mockgql/mockgql/model"
)

// Request is a GraphQL operation a client asks for: the payload of a
// graphql-ws subscribe message, or the body (or query string) of an SSE
// request.
type Request struct {
	Query         string          `json:"query"`
	Variables     json.RawMessage `json:"variables,omitempty"`
	OperationName string          `json:"operationName,omitempty"`
	Extensions    json.RawMessage `json:"extensions,omitempty"`
}

// Credentials are what a client presented to be let in: the upgrade or SSE
// request's headers, query string and peer, and for a WebSocket the
// connection_init payload (where browser clients put an API key, since
// they cannot set headers on a WebSocket).
type Credentials struct {
	// ClientIP is the client's address as the Server's ClientIP found it;
	// its operations count against Config.MaxPerIP.
	ClientIP    string
	Header      http.Header
	Query       url.Values
	RemoteAddr  string
	InitPayload map[string]any
}

// Value returns the credential named name: the init payload's member
// (case-insensitive: "Authorization", "authorization", "X-API-Key"), else
// the header, else "".
func (c Credentials) Value(name string) string {
	for k, v := range c.InitPayload {
		if s, ok := v.(string); ok && strings.EqualFold(k, name) {
			return s
		}
	}
	return c.Header.Get(name)
}

// Runtime authorises connections and runs their operations. Its methods
// must be safe for concurrent use.
type Runtime interface {
	// Open authorises a connection made to path with c. A refusal is an
	// error (a *model.Error names its code), which closes a WebSocket with
	// 4403 and answers an SSE request through the Server's Refuse.
	Open(ctx context.Context, path string, c Credentials) (Session, error)
}

// Session is one authorised connection; it ends with Close.
type Session interface {
	// Run starts an operation: a subscription's stream of results, or a
	// query's or mutation's one result. A *RequestError is a document that
	// cannot run (it does not parse or validate, or names no operation):
	// its errors are sent to the client and the connection stays open.
	Run(ctx context.Context, req Request) (Stream, error)
	// Close ends the session: it frees what the connection held (an actor
	// slot) and is called once.
	Close()
	// Project names the project the session serves, whose operations
	// count against Config.MaxPerProject.
	Project() string
	// Ended is closed once the session's credential no longer lets it in
	// (a key revoked, deleted or expired, a share token ended, the
	// project gone); Err then says why (a *model.Error). The Server then
	// ends every operation of the connection with that error: a
	// WebSocket's error message for each, then close 4403; an SSE
	// stream's errors, then complete.
	Ended() <-chan struct{}
	// Err is why Ended closed; nil before.
	Err() error
}

// Stream is the results of one operation.
type Stream interface {
	// Next returns the next result, a GraphQL execution result as JSON,
	// waiting for it until ctx is done; io.EOF once the operation
	// completed, ErrSlowConsumer once results came faster than they were
	// taken. An *EventError is one result that could not be made: it is
	// sent as a result with its error and Next is called again. Any other
	// error ends this operation alone (a WebSocket's error message for
	// it, an SSE stream's errors then complete); the connection's other
	// operations go on.
	Next(ctx context.Context) (json.RawMessage, error)
	// Close stops the operation; it may be called more than once.
	Close()
}

// RequestError is a document that cannot run, with its GraphQL errors
// (each a JSON object with a message).
type RequestError struct {
	Errors []json.RawMessage
}

func (e *RequestError) Error() string {
	if len(e.Errors) == 0 {
		return "realtime: the request cannot run"
	}
	return "realtime: the request cannot run: " + string(e.Errors[0])
}

// EventError is one result of a stream that failed (an event that could
// not be rendered): graphql-transport-ws sends it as a "next" whose
// payload has errors, an execution error after which the operation goes
// on, and graphql-sse as a "next" event the same way.
type EventError struct {
	Err error
}

func (e *EventError) Error() string { return "realtime: a result failed: " + e.Err.Error() }

func (e *EventError) Unwrap() error { return e.Err }

// errorsResult is the execution result of one failed result or
// operation: {"errors":[{"message":…,"extensions":{"code":…}}]}.
func errorsResult(err error) json.RawMessage {
	msg := refusalText(err)
	if codeOf(err) == model.CodeInternal {
		msg = "internal error" // what went wrong inside is for the log, not the client
	}
	b, _ := json.Marshal(map[string]any{"errors": []json.RawMessage{errorJSONOf(msg, err)}})
	return b
}
