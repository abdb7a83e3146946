package model

import "time"

// RuntimeRequest is one call of a project's mock runtime API.
type RuntimeRequest struct {
	Slug string
	// KeyValue is the API key sent (Authorization: Bearer or X-API-Key); empty if none.
	KeyValue string
	// ShareToken is the ?token= of guest and session projects.
	ShareToken string
	// ActorToken is the X-Actor-Token header; empty if none.
	ActorToken string
	// Body is the GraphQL-over-HTTP request body. When BodyFrom is set,
	// Body is read through it only after the credential and limit checks,
	// so that their refusals come first (the order of checks of docs/reference/routes.md).
	Body     []byte
	BodyFrom RuntimeBody
	// Out, when set, holds buffers the caller owns and reuses: an answer
	// made on this node is written into them, and the result's Body then
	// aliases Out.Body until the caller reuses Out. Nil: fresh buffers.
	Out *RuntimeBuffers
	// Internal marks a call the service makes for a signed-in owner
	// (runtimeList): the credential check is skipped, the quota is not.
	Internal bool
	// ProjectID, for Internal calls, is the project the caller was
	// authorized for: the slug must still name it (a slug can move).
	ProjectID string
	// QueryOnly refuses mutations: the request came as a GET (GraphQL over
	// HTTP allows only queries there).
	QueryOnly bool
	// FaultHeader is the X-Mock-Fault header (ParseFaultHeader), read in
	// its turn after the checks; "" if none.
	FaultHeader string
	// NoFaults marks a call of the public API's tools (MCP run_query) that
	// is no client's runtime request: like Internal calls, it gets no
	// faults and stays out of the request log.
	NoFaults bool
	// Subscribe marks a request of a subscription connection (WebSocket or
	// event stream; docs/using/realtime.md): a subscription's answer is its
	// target (a body {"subscription": {...}}) instead of a result; queries
	// and mutations run as usual.
	Subscribe bool
	// CheckOnly makes only the checks of the slug and credential (key,
	// scope, actor token, share token): a subscription connection's
	// opening. No quota, no body, no log; the answer is an empty 200.
	CheckOnly bool
	// Sandbox is the sandbox the request reads and writes
	// (X-Mock-Sandbox or ?sandbox=; CheckSandboxName); "" for the
	// project's own data. Field rules with a sandbox fire only in its
	// requests (FieldRule.Sandbox). It may end in @<state> (SplitSandbox)
	// until the runtime path splits it off into SandboxState.
	Sandbox string
	// SandboxState is the named state the sandbox starts from when it does
	// not exist yet (X-Mock-Sandbox: <sandbox>@<state>); ignored when it
	// does.
	SandboxState string
}

// RuntimeResult is the runtime's answer: 200 with a GraphQL response, or 400
// when the document does not parse or validate (Body then holds the GraphQL
// errors and GraphQLCode says which).
//
// A fault (fault.go) adds to it: Delay is to be waited before the answer
// is written, by the HTTP side (never in a grain), and Fault says what was
// injected. A fault that answers with an HTTP refusal sets Refusal (and
// Status to its status): the answer is then Refusal's error body.
type RuntimeResult struct {
	Status      int
	Body        []byte
	GraphQLCode Code
	Delay       time.Duration
	Fault       string
	Refusal     *Error
}

// RuntimeBody is a request body the runtime path reads when its turn in
// the order of checks (docs/reference/routes.md) comes (after the credential and quota checks);
// the HTTP side implements it over the request. ReadBody is called at most
// once; its error is a *Error (PAYLOAD_TOO_LARGE, BAD_REQUEST).
type RuntimeBody interface {
	ReadBody() ([]byte, error)
}

// RuntimeBuffers are the buffers of one runtime answer: Data the engine's
// data, Body the encoded answer. A caller pools them across requests.
type RuntimeBuffers struct {
	Data, Body []byte
	// Held is the bytes of the node's response budget (Lender) the answer
	// keeps until it has been written: the writer calls Return once the
	// answer is written or its connection is gone, never before, so that
	// answers stuck on slow readers count against the budget.
	Held   int64
	Lender Lender
}

// Lender lends the bytes answers hold (the node's response budget).
type Lender interface{ Give(n int64) }

// Return gives the bytes the answer held back to the budget; calling it
// again does nothing.
func (b *RuntimeBuffers) Return() {
	if b.Held > 0 && b.Lender != nil {
		b.Lender.Give(b.Held)
	}
	b.Held, b.Lender = 0, nil
}
