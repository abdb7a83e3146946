package http

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// managementSDL is the schema of the management API (/graphql, docs/reference/routes.md).
//
//go:embed schema/management.graphql
var managementBase string

// teamsSDL extends it with teams: invitations, workspaces, revocable
// sessions (management_teams.go).
//
//go:embed schema/teams.graphql
var teamsSDL string

var managementSDL = managementBase + "\n" + teamsSDL + "\n" + contractSDL + "\n" + upstreamSDL

// Call is one GraphQL HTTP request to a static surface. Execute reads it
// and does not keep it.
type Call struct {
	Principal Principal
	Body      []byte
	// SetCookie lets resolvers set a cookie on the response: signUp and
	// login set the board's mgq_jwt, createGuestProject sets mgq_session.
	// maxAge 0 means a session cookie. It may be nil when the caller does
	// not set cookies.
	SetCookie func(name, value string, maxAge time.Duration)
	// QueryOnly refuses mutations: the call came by GET. A GET can be
	// triggered by another site's link with the board's cookie attached
	// (SameSite=Lax), so it must not change anything.
	QueryOnly bool
	// ClientIP is the client's address as the per-IP windows see it ("" when unknown).
	ClientIP string
}

// checkCreate counts a creation from nothing (a sign-up, a sessionless
// guest or session project) against c's IP window.
func (s *Surface) checkCreate(ctx context.Context, c *Call) error {
	if s.cfg.CheckCreate == nil {
		return nil
	}
	return s.cfg.CheckCreate(ctx, c.ClientIP)
}

// setCookie calls c.SetCookie when there is one.
func (c *Call) setCookie(name, value string, maxAge time.Duration) {
	if c.SetCookie != nil {
		c.SetCookie(name, value, maxAge)
	}
}

// Management is what the management API (/graphql) asks: the small
// interface of each group of root fields, declared beside its resolvers.
type Management interface {
	Accounts
	ProjectAdmin
	KeyAdmin
	PoolReader
	Datasets
	ModelCreator
	ModelEditor
	Versioning
	Faults
	Events
	ProjectFields
	DatasetAPI
	MemberKeys
	Teams
	Contracts
	Upstreams
}

// SurfaceConfig is what a static GraphQL surface needs besides its backend.
type SurfaceConfig struct {
	// BaseURL and AppURL are the public addresses (no trailing slash) used
	// in Project.runtimeUrl and Project.previewUrl.
	BaseURL, AppURL string
	// IssueToken signs the JWT that signUp and login return. It must be
	// safe for concurrent use.
	IssueToken func(userID, accountID string, version uint64) (string, error)
	// JWTTTL is the max age of the mgq_jwt cookie.
	JWTTTL time.Duration
	// Demo returns the demo project's slug and share token, "" when there
	// is none (Query.demo); it may be nil.
	Demo func() (slug, shareToken string)
	// Bounds limit each request's response (exec.Bounds).
	Bounds exec.Bounds
	// CheckCreate counts a sign-up, a guest project or a session project
	// against the client IP's window; nil counts none.
	CheckCreate func(ctx context.Context, ip string) error
	// MaxCost is the cost budget of one operation (surface_cost.go): 0
	// means DefaultMaxCost, a negative value none.
	MaxCost int
	// QueryTimeout bounds the validation of a request and the execution
	// of a query; a mutation runs within the caller's context. 0 means
	// none beyond the caller's.
	QueryTimeout time.Duration
}

// Surface is a static GraphQL API: a schema from embedded SDL and a
// resolver map, run by the graphql package's executor. It is immutable and
// safe for concurrent use.
type Surface struct {
	cfg  SurfaceConfig
	sdl  string
	exec *exec.Executor
	// schemas answers the lazy fields of the projects the surface shapes.
	schemas ProjectFields
	// anonymous is the message of the UNAUTHENTICATED error for callers
	// without a credential.
	anonymous string
}

// NewManagementSurface returns the management API (/graphql) over b.
func NewManagementSurface(cfg SurfaceConfig, b Management) (*Surface, error) {
	if b == nil {
		return nil, errors.New("http: management.graphql: its Management backend is nil")
	}
	s := &Surface{cfg: cfg, sdl: managementSDL, schemas: b,
		anonymous: "sign in (login or signUp) or send an API key of scope FULL or MANAGEMENT"}
	if err := s.build("management.graphql", s.managementResolvers(b)); err != nil {
		return nil, err
	}
	return s, nil
}

// build parses s.sdl and makes the executor.
func (s *Surface) build(name string, resolvers map[string]exec.Resolver) error {
	schema, err := gqlparser.LoadSchema(&ast.Source{Name: name, Input: s.sdl})
	if err != nil {
		return fmt.Errorf("http: %s: %w", name, err)
	}
	if err := checkRoots(schema, resolvers); err != nil {
		return fmt.Errorf("http: %s: %w", name, err)
	}
	s.exec, err = exec.NewExecutor(exec.Executor{Schema: schema, Resolvers: resolvers, Bounds: s.cfg.Bounds,
		Cost: surfaceCost(s.cfg.MaxCost)})
	if err != nil {
		return fmt.Errorf("http: %s: %w", name, err)
	}
	return nil
}

// checkRoots makes sure every root field has a resolver: the default one
// would answer null on the *Call root value.
func checkRoots(schema *ast.Schema, resolvers map[string]exec.Resolver) error {
	for _, root := range []*ast.Definition{schema.Query, schema.Mutation} {
		for _, f := range root.Fields {
			if key := root.Name + "." + f.Name; !strings.HasPrefix(f.Name, "__") && resolvers[key] == nil {
				return fmt.Errorf("no resolver for %s", key)
			}
		}
	}
	return nil
}

// Execute decodes, prepares and runs c. A malformed body gives a nil
// result and a *model.Error with code model.CodeBadRequest. A document that
// does not parse or validate, or is over a bound or the cost budget, gives
// a Result with Refused set (HTTP 400); one that could not be validated
// in time a *model.Error with code model.CodeQueryTimeout. Otherwise the
// Result holds data and field errors (HTTP 200). Validation and a query
// run within SurfaceConfig.QueryTimeout, a mutation within ctx. An error
// of ctx is returned as is.
func (s *Surface) Execute(ctx context.Context, c *Call) (*exec.Result, error) {
	return s.execute(ctx, c, false)
}

// execute is Execute; with hold, the Result keeps its bytes of the
// response budget (exec.Prepared.ExecuteHeld) until the caller gives
// them back once the answer is written.
func (s *Surface) execute(ctx context.Context, c *Call, hold bool) (*exec.Result, error) {
	req, err := exec.DecodeRequest(c.Body)
	if err != nil {
		return nil, err
	}
	qctx, cancel := ctx, context.CancelFunc(func() {})
	if s.cfg.QueryTimeout > 0 {
		qctx, cancel = context.WithTimeout(ctx, s.cfg.QueryTimeout)
	}
	defer cancel()
	prep, refused := s.exec.PrepareContext(qctx, req)
	if err := exec.TimeoutError(refused); err != nil {
		return nil, err
	}
	if refused != nil {
		return refused, nil
	}
	if c.QueryOnly && prep.Mutation() {
		return nil, model.Errorf(model.CodeBadRequest, "mutations need POST; GET carries only queries")
	}
	if !prep.Mutation() {
		ctx = qctx
	}
	if hold {
		return prep.ExecuteHeld(ctx, c, nil)
	}
	return prep.Execute(ctx, c)
}

// SDL returns the surface's schema text.
func (s *Surface) SDL() string { return s.sdl }

// managementResolvers maps the management API's root fields to b, each
// through the resolvers of its group. Object fields below the root are
// plain maps built by shaper.
func (s *Surface) managementResolvers(b Management) map[string]exec.Resolver {
	acc, prj, keys := accountResolvers{s, b}, projectResolvers{s, b, b}, keyResolvers{s, b}
	pool, data := poolResolvers{s, b, b}, datasetResolvers{s, b}
	mk := memberKeyResolvers{s, b}
	r := map[string]exec.Resolver{
		"Query.me":          s.authed(acc.me),
		"Query.account":     s.authed(acc.account),
		"Query.projects":    s.authed(prj.projects),
		"Query.project":     s.authed(prj.project),
		"Query.dataSources": s.authed(pool.dataSources),
		"Query.apiKeys":     s.authed(keys.apiKeys),

		"Mutation.signUp":             s.open(acc.signUp),
		"Mutation.login":              s.open(acc.login),
		"Mutation.setPlan":            s.authed(acc.setPlan),
		"Mutation.inviteMember":       s.authed(acc.inviteMember),
		"Mutation.setMemberRole":      s.authed(acc.setMemberRole),
		"Mutation.removeMember":       s.authed(mk.removeMember),
		"Mutation.createProject":      s.authed(prj.createProject),
		"Mutation.keepSessionProject": s.authed(prj.keepSessionProject),
		"Mutation.updateProject":      s.authed(prj.updateProject),
		"Mutation.deleteProject":      s.authed(prj.deleteProject),
		"Mutation.resetMockData":      s.authed(prj.resetMockData),
		"Mutation.deleteSandbox":      s.authed(prj.deleteSandbox),
		"Query.sandboxes":             s.authed(prj.sandboxes),
		"Mutation.saveMockState":      s.authed(prj.saveMockState),
		"Mutation.restoreMockState":   s.authed(prj.restoreMockState),
		"Mutation.deleteMockState":    s.authed(prj.deleteMockState),
		"Query.mockStates":            s.authed(prj.mockStates),
		"Mutation.createApiKey":       s.authed(keys.createAPIKey),
		"Mutation.revokeApiKey":       s.authed(keys.revokeAPIKey),
		"Mutation.deleteApiKey":       s.authed(keys.deleteAPIKey),
		"Mutation.importDataset":      s.authed(data.importDataset),
		"Mutation.deleteDataset":      s.authed(data.deleteDataset),

		"Mutation.removeMemberWithKeys": s.authed(mk.removeMemberWithKeys),
		"Mutation.revokeMemberKeys":     s.authed(mk.revokeMemberKeys),

		"Mutation.setPreviewSharing": s.authed(prj.setPreviewSharing),
		"Mutation.previewQuery":      s.authed(prj.previewQuery),
	}
	for _, m := range []map[string]rootFunc{modelCreateResolvers{s, b}.mutations(), modelEditResolvers{s, b}.mutations()} {
		for name, fn := range m {
			r["Mutation."+name] = s.authed(fn)
		}
	}
	for key, fn := range s.boardResolvers(b) {
		r[key] = fn
	}
	for key, fn := range s.datasetAPIRoots(b) {
		r[key] = fn
	}
	for key, fn := range (versioningResolvers{s, b}).roots() {
		r[key] = s.authed(fn)
	}
	for key, fn := range (faultsResolvers{s, b}).roots() {
		r[key] = s.authed(fn)
	}
	for key, fn := range (contractResolvers{s, b}).roots() {
		r[key] = s.authed(fn)
	}
	for key, fn := range (upstreamResolvers{s, b}).roots() {
		r[key] = s.authed(fn)
	}
	for key, fn := range (eventsResolvers{s, b}).roots() {
		r[key] = s.authed(fn)
	}
	for key, fn := range (teamResolvers{s, b}).roots() {
		r[key] = fn
	}
	return r
}

// rootFunc resolves a root field for a call, with the field's coerced
// arguments.
type rootFunc func(ctx context.Context, c *Call, args input) (any, error)

// open adapts fn to a resolver that needs no credential.
func (s *Surface) open(fn rootFunc) exec.Resolver {
	return func(ctx context.Context, f *exec.Field) (any, error) {
		c, ok := f.Parent.(*Call)
		if !ok {
			return nil, fmt.Errorf("http: root value is %T, not *Call", f.Parent)
		}
		return fn(ctx, c, f.Args)
	}
}

// authed adapts fn to a resolver that refuses callers without any
// credential (Principal.Anonymous) or with a session token that is no
// longer good (Principal.Refused) up front, so that a missing credential
// gives a clean message; the backend checks everything else.
func (s *Surface) authed(fn rootFunc) exec.Resolver {
	return s.open(func(ctx context.Context, c *Call, args input) (any, error) {
		if c.Principal.Refused != nil {
			return nil, c.Principal.Refused
		}
		if c.Principal.Anonymous() {
			return nil, &model.Error{Code: model.CodeUnauthenticated, Message: s.anonymous}
		}
		return fn(ctx, c, args)
	})
}

// shaper returns the shaper for c's principal.
func (s *Surface) shaper(c *Call) shaper {
	return shaper{schemas: s.schemas, principal: c.Principal, baseURL: s.cfg.BaseURL, appURL: s.cfg.AppURL}
}
