package model

// RuntimeRequest is one call of a project's mock runtime API.
type RuntimeRequest struct {
	Slug string
	// KeyValue is the API key sent (Authorization: Bearer or X-API-Key); empty if none.
	KeyValue string
	// ShareToken is the ?token= of guest and session projects.
	ShareToken string
	// ActorToken is the X-Actor-Token header; empty if none.
	ActorToken string
	// Body is the GraphQL-over-HTTP request body. When ReadBody is set,
	// Body is read through it only after the credential and limit checks,
	// so that their refusals come first (API.md's order of checks).
	Body     []byte
	ReadBody func() ([]byte, error)
	// Internal marks a call the service makes for a signed-in owner
	// (runtimeList): the credential check is skipped, the quota is not.
	Internal bool
	// ProjectID, for Internal calls, is the project the caller was
	// authorized for: the slug must still name it (a slug can move).
	ProjectID string
	// QueryOnly refuses mutations: the request came as a GET (GraphQL over
	// HTTP allows only queries there).
	QueryOnly bool
}

// RuntimeResult is the runtime's answer: 200 with a GraphQL response, or 400
// when the document does not parse or validate (Body then holds the GraphQL
// errors and GraphQLCode says which).
type RuntimeResult struct {
	Status      int
	Body        []byte
	GraphQLCode string
	// Release, when set, returns Body's buffer for reuse; the caller calls
	// it once Body is written and no longer used.
	Release func()
}
