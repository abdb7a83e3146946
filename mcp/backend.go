package mcp

import (
	"context"

	"github.com/mockgql/mockgql/model"
)

// Backend is what the MCP tools ask of the use cases: the same calls the
// public session-project API (/public-graphql) makes, in model types, so a
// project built here is the same kind of project, with the same limits,
// isolation and adoption links. Every method checks the principal's rights
// and returns a *model.Error for each refusal. app.MCP implements it;
// all methods are safe for concurrent use.
type Backend interface {
	// CreateSessionProject makes a session project for the principal's
	// session, minting the session when SessionID is empty; it returns the
	// session ID in use.
	CreateSessionProject(ctx context.Context, p model.Principal, name string) (model.SessionProject, string, error)
	// CreateAdoptionLink issues a fresh one-time link to the project.
	CreateAdoptionLink(ctx context.Context, p model.Principal, projectID string) (model.SessionProject, error)
	// SessionProject is the session's live session project, or nil.
	SessionProject(ctx context.Context, p model.Principal) (*model.Project, error)
	// Project returns a project the principal may see.
	Project(ctx context.Context, p model.Principal, id, slug string) (*model.Project, error)
	DataSources(ctx context.Context) ([]model.DataSource, error)

	CreateTable(ctx context.Context, p model.Principal, projectID, name string, source *model.TableSource) (*model.Table, error)
	CreateAttribute(ctx context.Context, p model.Principal, a model.Attribute) (*model.Attribute, error)
	CreateRelation(ctx context.Context, p model.Principal, r model.Relation) (*model.Relation, error)
	GenerateDefaultOperations(ctx context.Context, p model.Principal, projectID, tableID string) ([]*model.Operation, error)
	UpdateOperation(ctx context.Context, p model.Principal, operationID string, patch model.OperationPatch) (*model.Operation, error)
	GenerateMissingViews(ctx context.Context, p model.Principal, projectID string) ([]*model.View, error)
	// ImportGraphQLSchema makes the project serve sdl (docs/using/
	// contract.md): a first import, or a new version with its changes.
	// seed, when not nil, seeds the generated rows (model.Contract.Seed).
	ImportGraphQLSchema(ctx context.Context, p model.Principal, projectID, sdl string, seed *string) (*model.ContractImport, error)
	// SDL is the project's runtime schema as GraphQL SDL.
	SDL(ctx context.Context, p model.Principal, projectID string) (string, error)

	// RuntimeList runs one page of a LIST operation, counted against the
	// project's daily runtime calls (a used-up quota is LIMIT_REACHED).
	RuntimeList(ctx context.Context, p model.Principal, projectID string, in model.RuntimeList) (model.RuntimeListResult, error)
	// Runtime runs one runtime request, as /mock/{slug}/graphql does; a
	// session project answers to its share token and counts the call.
	Runtime(ctx context.Context, r model.RuntimeRequest) (*model.RuntimeResult, error)
	// RequestLog is the project's runtime request log, newest first
	// (get_request_log).
	RequestLog(ctx context.Context, p model.Principal, projectID string, limit int) ([]model.RequestLogEntry, error)
	// Sandboxes lists the project's live sandboxes; ResetSandbox drops
	// one's changes and DeleteSandbox forgets it (NOT_FOUND for a sandbox
	// the project does not hold).
	Sandboxes(ctx context.Context, p model.Principal, projectID string) ([]model.Sandbox, error)
	ResetSandbox(ctx context.Context, p model.Principal, projectID, name string) error
	DeleteSandbox(ctx context.Context, p model.Principal, projectID, name string) error
	// SaveMockState saves the project's mock data, or a sandbox's, as a
	// named state; MockStates lists them; RestoreMockState makes the
	// project's data, or a sandbox's, what one holds; DeleteMockState
	// forgets one (NOT_FOUND for a state the project does not hold).
	SaveMockState(ctx context.Context, p model.Principal, projectID, name, sandbox string) (model.MockState, error)
	MockStates(ctx context.Context, p model.Principal, projectID string) ([]model.MockState, error)
	RestoreMockState(ctx context.Context, p model.Principal, projectID, name, sandbox string) error
	DeleteMockState(ctx context.Context, p model.Principal, projectID, name string) error
}
