package http

import (
	"context"
	"time"

	"github.com/mockgql/mockgql/model"
)

// These domain types live in package model so that the actors package can
// implement Backend without importing http; the aliases keep this file's
// signatures short.
type (
	Principal     = model.Principal
	DataSource    = model.DataSource
	Variant       = model.DataSourceVariant
	DatasetImport = model.DatasetImport
	CreatedKey    = model.CreatedKey
)

// TablePatch, AttributePatch and OperationPatch are the model package's
// partial updates.
type (
	TablePatch     = model.TablePatch
	AttributePatch = model.AttributePatch
	OperationPatch = model.OperationPatch
)

// Backend is everything the HTTP layer asks of the grains. Each method
// checks the principal's rights (role, plan, scope, session) and returns a
// *model.Error for every refusal. IDs of tables, attributes, relations,
// operations and views name their project (see model.ProjectOf), so methods
// taking only such an ID find the project themselves. All methods are safe
// for concurrent use.
type Backend interface {
	// Accounts and members.
	SignUp(ctx context.Context, p Principal, email, password, name string) (model.User, *model.Account, error)
	// Login signs a user in to accountID, or to their own account when it
	// is empty.
	Login(ctx context.Context, email, password, accountID string) (model.User, *model.Account, error)
	Me(ctx context.Context, p Principal) (model.User, error)
	Account(ctx context.Context, p Principal) (*model.Account, model.Usage, error)
	SetPlan(ctx context.Context, p Principal, plan model.Plan) (*model.Account, error)
	InviteMember(ctx context.Context, p Principal, email string, role model.Role) (model.Member, error)
	SetMemberRole(ctx context.Context, p Principal, userID string, role model.Role) (model.Member, error)
	RemoveMember(ctx context.Context, p Principal, userID string) error

	// Projects. Project returns a NOT_FOUND error when there is none the
	// principal may see.
	Projects(ctx context.Context, p Principal) ([]*model.Project, error)
	Project(ctx context.Context, p Principal, id, slug string) (*model.Project, error)
	CreateProject(ctx context.Context, p Principal, name, slug string) (*model.Project, error)
	UpdateProject(ctx context.Context, p Principal, id string, name, slug *string) (*model.Project, error)
	DeleteProject(ctx context.Context, p Principal, id string) error
	// SetAllowedOrigins replaces an account project's CORS origins
	// (EDITOR and above; model.CheckAllowedOrigins validates them).
	SetAllowedOrigins(ctx context.Context, p Principal, projectID string, origins []string) (*model.Project, error)
	// SetPreviewSharing turns the project's preview link on (a fresh share
	// token) or off; guest and session projects keep theirs.
	SetPreviewSharing(ctx context.Context, p Principal, projectID string, enabled bool) (*model.Project, error)
	// PreviewQuery runs a runtime request body against the project without
	// an API key, counted against its quota (the board's query box).
	PreviewQuery(ctx context.Context, p Principal, projectID string, body []byte) (*model.RuntimeResult, error)
	// CreateGuestProject makes a guest project for the principal's session
	// (creating the session when SessionID is empty; the new session ID is
	// returned so the HTTP layer can set the cookie).
	CreateGuestProject(ctx context.Context, p Principal, name string) (*model.Project, string, error)

	// Session projects (public API). CreateSessionProject returns the
	// session ID (new when the principal had none, to be set as cookie).
	CreateSessionProject(ctx context.Context, p Principal, name string) (model.SessionProject, string, error)
	CreateAdoptionLink(ctx context.Context, p Principal, projectID string) (model.SessionProject, error)
	// SessionProject is the session's live session project, or nil.
	SessionProject(ctx context.Context, p Principal) (*model.Project, error)
	RuntimeList(ctx context.Context, p Principal, projectID string, in model.RuntimeList) (model.RuntimeListResult, error)

	// Model edits (API.md Mutation).
	CreateTable(ctx context.Context, p Principal, projectID, name string, source *model.TableSource) (*model.Table, error)
	UpdateTable(ctx context.Context, p Principal, tableID string, patch TablePatch) (*model.Table, error)
	DeleteTable(ctx context.Context, p Principal, tableID string) error
	CreateAttribute(ctx context.Context, p Principal, a model.Attribute) (*model.Attribute, error)
	UpdateAttribute(ctx context.Context, p Principal, attributeID string, patch AttributePatch) (*model.Attribute, error)
	DeleteAttribute(ctx context.Context, p Principal, attributeID string) error
	CreateRelation(ctx context.Context, p Principal, r model.Relation) (*model.Relation, error)
	DeleteRelation(ctx context.Context, p Principal, relationID string) error
	GenerateDefaultOperations(ctx context.Context, p Principal, projectID, tableID string) ([]*model.Operation, error)
	CreateOperation(ctx context.Context, p Principal, o model.Operation) (*model.Operation, error)
	UpdateOperation(ctx context.Context, p Principal, operationID string, patch OperationPatch) (*model.Operation, error)
	DeleteOperation(ctx context.Context, p Principal, operationID string) error
	GenerateMissingViews(ctx context.Context, p Principal, projectID string) ([]*model.View, error)
	ResetMockData(ctx context.Context, p Principal, projectID string) error
	// SDL is the project's runtime schema as GraphQL SDL.
	SDL(ctx context.Context, p Principal, projectID string) (string, error)

	// Faults and the request log (issue 14). SetFaults sets the latency
	// and error injection of the project, or of one operation when
	// operationID is set (EDITOR and above; nil clears; invalid settings
	// are BAD_USER_INPUT naming the field). RequestLog returns the newest
	// limit runtime requests, newest first (VIEWER and above);
	// ClearRequestLog empties the log (EDITOR and above).
	SetFaults(ctx context.Context, p Principal, projectID, operationID string, f *model.FaultSettings) (*model.Project, error)
	RequestLog(ctx context.Context, p Principal, projectID string, limit int) ([]model.RequestLogEntry, error)
	ClearRequestLog(ctx context.Context, p Principal, projectID string) (*model.Project, error)

	// Import, export and versioning (SPEC.md "Import and export",
	// "Versioning"). ExportOpenAPI writes the model as OpenAPI 3.1, format
	// json or yaml. ImportOpenAPI adds an unbound table for each selected
	// schema of an OpenAPI 3.0/3.1 or Swagger 2.0 document (none selected:
	// every object schema), all or none. ExportCodePackage returns a
	// generated backend as a base64 zip (PROFESSIONAL plan and EDITOR role
	// or above). SetSchemaBaseline saves the runtime schema; SchemaChanges
	// compares the current one with it.
	ExportOpenAPI(ctx context.Context, p Principal, projectID, format string) (string, error)
	ImportOpenAPI(ctx context.Context, p Principal, projectID, document string, schemas []string) ([]*model.Table, error)
	ExportCodePackage(ctx context.Context, p Principal, projectID, language string) (string, error)
	SetSchemaBaseline(ctx context.Context, p Principal, projectID string) error
	SchemaChanges(ctx context.Context, p Principal, projectID string) ([]model.SchemaChange, error)

	// Data pool. DataSources lists the curated pool; DataSourcesFor what p
	// sees (the curated pool and its account's own datasets).
	DataSources(ctx context.Context) ([]DataSource, error)
	DataSourcesFor(ctx context.Context, p Principal) ([]DataSource, error)
	ImportDataset(ctx context.Context, p Principal, in DatasetImport) (DataSource, error)
	DeleteDataset(ctx context.Context, p Principal, importCode string) error

	// API keys.
	APIKeys(ctx context.Context, p Principal, projectID string) ([]model.APIKey, error)
	CreateAPIKey(ctx context.Context, p Principal, projectID, name string, scope model.Scope, expiresAt time.Time, maxActors int) (CreatedKey, error)
	RevokeAPIKey(ctx context.Context, p Principal, keyID string) (model.APIKey, error)
	DeleteAPIKey(ctx context.Context, p Principal, keyID string) error
}
