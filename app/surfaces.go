package app

import (
	"github.com/mockgql/mockgql/internal/upstream"

	"context"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/model"
)

// Service is the node's use cases, one service per surface of the HTTP
// layer (http.Backends) and one for the MCP server (mcp.Backend). Each
// service's exported methods are exactly its surface's interface
// (surfaces_test.go checks), so each surface's fake is the size of its
// interface. A use case two surfaces share is written once, on a small
// unexported part (modelCreation, projectFields, …) both embed, or on the
// shared core both forward to; every service holds the same core.
type Service struct {
	// Edge serves the checks in front of the routes (http.Edge).
	Edge *Edge
	// Runtime serves /mock/{slug}/graphql and /runtime/actors (http.Runtime).
	Runtime *Runtime
	// Management serves /graphql (http.Management).
	Management *Management
	// Public serves /public-graphql (http.Public).
	Public *Public
	// Preview serves /preview/{slug}/data (http.Previewer).
	Preview *Preview
	// Adoption serves /auth/adopt/{token} (http.Adopter).
	Adoption *Adoption
	// Datasets serves POST /datasets/{importCode} (http.DatasetImporter).
	Datasets *Datasets
	// MCP serves the MCP server's tools (mcp.Backend).
	MCP *MCP

	core *core
}

// NewService returns the services over env, which must be complete
// (Caller set) and not change afterwards.
func NewService(env *actors.Env) *Service {
	c := newCore(env)
	return &Service{Edge: &Edge{c}, Runtime: &Runtime{c}, Preview: &Preview{c}, Adoption: &Adoption{c}, Datasets: &Datasets{c},
		Public:     &Public{sessionProjects{c}, contracts{c}, modelCreation{c}, poolReader{c}, projectFields{c}},
		Management: &Management{c, projectReader{c}, modelCreation{c}, modelEditing{c}, poolReader{c}, projectFields{c}, Datasets{c}, contracts{c}, mockData{c}, nil},
		MCP:        &MCP{c, modelCreation{c}, mockData{c}}, core: c}
}

// Edge is the checks in front of the routes: per-IP windows, API keys and
// CORS policies (http.Edge).
type Edge struct{ *core }

// Runtime is the runtime API and its actor tokens (http.Runtime).
type Runtime struct{ *core }

// Runtime runs one runtime request (service_runtime.go).
func (s *Runtime) Runtime(ctx context.Context, r model.RuntimeRequest) (*model.RuntimeResult, error) {
	return s.serveRuntime(ctx, r)
}

// Preview is the read-only preview page (http.Previewer).
type Preview struct{ *core }

// Adoption is the use of adoption links (http.Adopter).
type Adoption struct{ *core }

// Datasets is the upload of datasets (http.DatasetImporter).
type Datasets struct{ *core }

// Management is the management API (http.Management): its own use cases
// and the parts it shares with the public API and MCP.
type Management struct {
	*core
	projectReader
	modelCreation
	modelEditing
	poolReader
	projectFields
	Datasets
	contracts
	mockData
	// Upstream makes the drift check's calls to real APIs; nil: a client
	// that reaches public addresses only (cmd/mockgql sets it from
	// --upstream-private).
	Upstream *upstream.Client
}

// Public is the public API of guest and session projects (http.Public).
type Public struct {
	sessionProjects
	contracts
	modelCreation
	poolReader
	projectFields
}

// MCP is what the MCP server's tools call (mcp.Backend): the model
// creation it shares with the other surfaces, and the few use cases of
// other parts it forwards to.
type MCP struct {
	*core
	modelCreation
	mockData
}

// The parts two surfaces share (each names its http interface).
type (
	// projectReader is http.ProjectReader.
	projectReader struct{ *core }
	// modelCreation is http.ModelCreator.
	modelCreation struct{ *core }
	// modelEditing is http.ModelEditor.
	modelEditing struct{ *core }
	// poolReader is http.PoolReader.
	poolReader struct{ *core }
	// projectFields is http.ProjectFields.
	projectFields struct{ *core }
	// sessionProjects is http.SessionProjects.
	sessionProjects struct{ *core }
	// contracts is http.Contracts (service_contract.go).
	contracts struct{ *core }
	// mockData is a project's sandboxes and named states, for the
	// management API and MCP (service_sandbox.go, service_mockstate.go).
	mockData struct{ *core }
)

// Project returns one project by ID or slug (service_project.go).
func (s projectReader) Project(ctx context.Context, p model.Principal, id, slug string) (*model.Project, error) {
	return s.readProject(ctx, p, id, slug)
}

// SDL returns the project's runtime schema (service_project.go).
func (s projectFields) SDL(ctx context.Context, p model.Principal, projectID string) (string, error) {
	return s.schemaSDL(ctx, p, projectID)
}

// DataSourcesFor lists the datasets the principal may bind (service_data.go).
func (s poolReader) DataSourcesFor(ctx context.Context, p model.Principal) ([]model.DataSource, error) {
	return s.dataSourcesFor(ctx, p)
}

// ImportGraphQLSchema makes the project serve sdl (service_contract.go).
func (s *MCP) ImportGraphQLSchema(ctx context.Context, p model.Principal, projectID, sdl string, seed *string) (*model.ContractImport, error) {
	return contracts{s.core}.ImportGraphQLSchema(ctx, p, projectID, sdl, seed)
}

// KeepGuestProject exempts the guest project the slug names from
// Config.GuestTTL: the node's demo project, which nobody's session owns
// (cmd/mockgql's demo, no surface's use case).
func (s *Service) KeepGuestProject(ctx context.Context, slug string) error {
	return s.core.keepGuestProject(ctx, slug)
}

// The use cases MCP shares with a part it does not embed whole.

// Project returns a project the principal may see.
func (s *MCP) Project(ctx context.Context, p model.Principal, id, slug string) (*model.Project, error) {
	return s.readProject(ctx, p, id, slug)
}

// SDL returns the project's runtime schema.
func (s *MCP) SDL(ctx context.Context, p model.Principal, projectID string) (string, error) {
	return s.schemaSDL(ctx, p, projectID)
}

// RequestLog returns the project's runtime request log, newest first.
func (s *MCP) RequestLog(ctx context.Context, p model.Principal, projectID string, limit int) ([]model.RequestLogEntry, error) {
	return projectFields{s.core}.RequestLog(ctx, p, projectID, limit)
}

// Runtime runs one runtime request.
func (s *MCP) Runtime(ctx context.Context, r model.RuntimeRequest) (*model.RuntimeResult, error) {
	return s.serveRuntime(ctx, r)
}

// UpdateOperation changes an operation.
func (s *MCP) UpdateOperation(ctx context.Context, p model.Principal, operationID string, patch model.OperationPatch) (*model.Operation, error) {
	return modelEditing{s.core}.UpdateOperation(ctx, p, operationID, patch)
}

// CreateSessionProject makes a session project for the principal's session.
func (s *MCP) CreateSessionProject(ctx context.Context, p model.Principal, name string) (model.SessionProject, string, error) {
	return sessionProjects{s.core}.CreateSessionProject(ctx, p, name)
}

// CreateAdoptionLink issues a fresh one-time link to the project.
func (s *MCP) CreateAdoptionLink(ctx context.Context, p model.Principal, projectID string) (model.SessionProject, error) {
	return sessionProjects{s.core}.CreateAdoptionLink(ctx, p, projectID)
}

// SessionProject is the session's live session project, or nil.
func (s *MCP) SessionProject(ctx context.Context, p model.Principal) (*model.Project, error) {
	return sessionProjects{s.core}.SessionProject(ctx, p)
}

// RuntimeList runs one page of a LIST operation.
func (s *MCP) RuntimeList(ctx context.Context, p model.Principal, projectID string, in model.RuntimeList) (model.RuntimeListResult, error) {
	return sessionProjects{s.core}.RuntimeList(ctx, p, projectID, in)
}
