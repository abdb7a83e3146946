package http

import (
	"context"
	"encoding/json"

	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// ProjectReader is what reads one project (Query.project, and the board's
// schemaChangesOfEdit).
type ProjectReader interface {
	// Project returns a NOT_FOUND error when there is none the principal
	// may see.
	Project(ctx context.Context, p Principal, id, slug string) (*model.Project, error)
}

// ProjectAdmin is what the management API's project fields ask.
type ProjectAdmin interface {
	ProjectReader
	Projects(ctx context.Context, p Principal) ([]*model.Project, error)
	CreateProject(ctx context.Context, p Principal, name, slug string) (*model.Project, error)
	UpdateProject(ctx context.Context, p Principal, id string, name, slug *string) (*model.Project, error)
	DeleteProject(ctx context.Context, p Principal, id string) error
	// KeepSessionProject moves the session project the caller's browser
	// holds (an adoption link's, or its session cookie's) into accountID,
	// or the caller's account when empty (EDITOR and above; the plan's
	// project cap applies): it becomes an account project without expiry.
	KeepSessionProject(ctx context.Context, p Principal, projectID, accountID string) (*model.Project, error)
	// SetAllowedOrigins replaces an account project's CORS origins
	// (EDITOR and above; model.CheckAllowedOrigins validates them).
	SetAllowedOrigins(ctx context.Context, p Principal, projectID string, origins []string) (*model.Project, error)
	ResetMockData(ctx context.Context, p Principal, projectID string) error
	// Sandboxes lists the project's live sandboxes (VIEWER and above);
	// ResetSandbox drops one's changes and DeleteSandbox forgets it (EDITOR
	// and above; NOT_FOUND for a sandbox the project does not hold).
	Sandboxes(ctx context.Context, p Principal, projectID string) ([]model.Sandbox, error)
	ResetSandbox(ctx context.Context, p Principal, projectID, name string) error
	DeleteSandbox(ctx context.Context, p Principal, projectID, name string) error
	// SaveMockState saves the project's mock data changes, or sandbox's
	// effective ones ("" the project's), as named state name; MockStates
	// lists them (VIEWER and above); RestoreMockState makes the project's
	// data, or sandbox's (made if need be), what the state holds;
	// DeleteMockState forgets it (EDITOR and above; NOT_FOUND for a state
	// the project does not hold).
	SaveMockState(ctx context.Context, p Principal, projectID, name, sandbox string) (model.MockState, error)
	MockStates(ctx context.Context, p Principal, projectID string) ([]model.MockState, error)
	RestoreMockState(ctx context.Context, p Principal, projectID, name, sandbox string) error
	DeleteMockState(ctx context.Context, p Principal, projectID, name string) error
	// SetPreviewSharing turns the project's preview link on (a fresh share
	// token) or off; guest and session projects keep theirs.
	SetPreviewSharing(ctx context.Context, p Principal, projectID string, enabled bool) (*model.Project, error)
	// PreviewQuery runs a runtime request body against the project without
	// an API key, counted against its quota (the board's query box).
	// sandbox, when set, runs it in that sandbox.
	PreviewQuery(ctx context.Context, p Principal, projectID, sandbox string, body []byte) (*model.RuntimeResult, error)
}

// projectResolvers resolve the fields of projects.
type projectResolvers struct {
	*Surface
	b ProjectAdmin
	c Contracts
}

// projects resolves Query.projects.
func (s projectResolvers) projects(ctx context.Context, c *Call, _ input) (any, error) {
	ps, err := s.b.Projects(ctx, c.Principal)
	if err != nil {
		return nil, err
	}
	return shapeAll(ps, s.shaper(c).project), nil
}

// project resolves Query.project.
func (s projectResolvers) project(ctx context.Context, c *Call, args input) (any, error) {
	id, slug := args.str("id"), args.str("slug")
	if id == "" && slug == "" {
		return nil, model.Errorf(model.CodeBadUserInput, "give the project's id or slug")
	}
	p, err := s.b.Project(ctx, c.Principal, id, slug)
	if err != nil {
		return nil, err
	}
	return s.shaper(c).project(p), nil
}

// createProject resolves Mutation.createProject; with sdl the project
// serves that schema (Contracts.CreateProjectFromSchema).
func (s projectResolvers) createProject(ctx context.Context, c *Call, args input) (any, error) {
	var p *model.Project
	var err error
	if sdl := args.strPtr("sdl"); sdl != nil {
		p, err = s.c.CreateProjectFromSchema(ctx, c.Principal, args.str("name"), args.str("slug"), *sdl, args.strPtr("seed"))
	} else {
		p, err = s.b.CreateProject(ctx, c.Principal, args.str("name"), args.str("slug"))
	}
	if err != nil {
		return nil, err
	}
	return s.shaper(c).project(p), nil
}

// updateProject resolves Mutation.updateProject; a null or absent name,
// slug or allowedOrigins stays as it is. The origins are set first, so
// invalid ones change nothing.
func (s projectResolvers) updateProject(ctx context.Context, c *Call, args input) (any, error) {
	id, name, slug := args.str("projectId"), args.strPtr("name"), args.strPtr("slug")
	var p *model.Project
	if list, ok := args["allowedOrigins"].([]any); ok {
		origins := make([]string, 0, len(list))
		for _, o := range list {
			v, _ := o.(string)
			origins = append(origins, v)
		}
		var err error
		if p, err = s.b.SetAllowedOrigins(ctx, c.Principal, id, origins); err != nil {
			return nil, err
		}
	}
	if p == nil || name != nil || slug != nil {
		var err error
		if p, err = s.b.UpdateProject(ctx, c.Principal, id, name, slug); err != nil {
			return nil, err
		}
	}
	return s.shaper(c).project(p), nil
}

// keepSessionProject resolves Mutation.keepSessionProject.
func (s projectResolvers) keepSessionProject(ctx context.Context, c *Call, args input) (any, error) {
	p, err := s.b.KeepSessionProject(ctx, c.Principal, args.str("projectId"), args.str("accountId"))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).project(p), nil
}

// deleteProject resolves Mutation.deleteProject.
func (s projectResolvers) deleteProject(ctx context.Context, c *Call, args input) (any, error) {
	return done(s.b.DeleteProject(ctx, c.Principal, args.str("projectId")))
}

// resetMockData resolves Mutation.resetMockData.
func (s projectResolvers) resetMockData(ctx context.Context, c *Call, args input) (any, error) {
	if state := args.str("state"); state != "" {
		return done(s.b.RestoreMockState(ctx, c.Principal, args.str("projectId"), state, args.str("sandbox")))
	}
	if name := args.str("sandbox"); name != "" {
		return done(s.b.ResetSandbox(ctx, c.Principal, args.str("projectId"), name))
	}
	return done(s.b.ResetMockData(ctx, c.Principal, args.str("projectId")))
}

// deleteSandbox resolves Mutation.deleteSandbox.
func (s projectResolvers) deleteSandbox(ctx context.Context, c *Call, args input) (any, error) {
	return done(s.b.DeleteSandbox(ctx, c.Principal, args.str("projectId"), args.str("sandbox")))
}

// saveMockState resolves Mutation.saveMockState.
func (s projectResolvers) saveMockState(ctx context.Context, c *Call, args input) (any, error) {
	st, err := s.b.SaveMockState(ctx, c.Principal, args.str("projectId"), args.str("name"), args.str("sandbox"))
	if err != nil {
		return nil, err
	}
	return shapeMockState(st), nil
}

// mockStates resolves Query.mockStates.
func (s projectResolvers) mockStates(ctx context.Context, c *Call, args input) (any, error) {
	list, err := s.b.MockStates(ctx, c.Principal, args.str("projectId"))
	if err != nil {
		return nil, err
	}
	return shapeAll(list, shapeMockState), nil
}

// restoreMockState resolves Mutation.restoreMockState.
func (s projectResolvers) restoreMockState(ctx context.Context, c *Call, args input) (any, error) {
	return done(s.b.RestoreMockState(ctx, c.Principal, args.str("projectId"), args.str("name"), args.str("sandbox")))
}

// deleteMockState resolves Mutation.deleteMockState.
func (s projectResolvers) deleteMockState(ctx context.Context, c *Call, args input) (any, error) {
	return done(s.b.DeleteMockState(ctx, c.Principal, args.str("projectId"), args.str("name")))
}

// shapeMockState shapes a MockState.
func shapeMockState(st model.MockState) any {
	return map[string]any{"name": st.Name, "savedAt": dateTime(st.SavedAt), "changedRows": st.ChangedRows, "bytes": int(st.Bytes)}
}

// sandboxes resolves Query.sandboxes.
func (s projectResolvers) sandboxes(ctx context.Context, c *Call, args input) (any, error) {
	list, err := s.b.Sandboxes(ctx, c.Principal, args.str("projectId"))
	if err != nil {
		return nil, err
	}
	return shapeAll(list, shapeSandbox), nil
}

// shapeSandbox shapes a Sandbox.
func shapeSandbox(sb model.Sandbox) any {
	var expires any
	if !sb.ExpiresAt.IsZero() {
		expires = dateTime(sb.ExpiresAt)
	}
	return map[string]any{"name": sb.Name, "changedRows": sb.ChangedRows, "bytes": int(sb.Bytes),
		"createdAt": dateTime(sb.CreatedAt), "lastUsedAt": dateTime(sb.LastUsedAt), "expiresAt": expires}
}

// setPreviewSharing resolves Mutation.setPreviewSharing.
func (s projectResolvers) setPreviewSharing(ctx context.Context, c *Call, args input) (any, error) {
	p, err := s.b.SetPreviewSharing(ctx, c.Principal, args.str("projectId"), args.boolean("enabled"))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).project(p), nil
}

// previewQuery resolves Mutation.previewQuery: the runtime's answer as a
// JSON value, {data, errors} or, for a document the runtime refused,
// {errors}. Refusals before the query runs (quota, rights) are errors of
// the field.
func (s projectResolvers) previewQuery(ctx context.Context, c *Call, args input) (any, error) {
	req := exec.Request{Query: args.str("query"), OperationName: args.str("operationName")}
	if v, ok := args["variables"].(map[string]any); ok {
		req.Variables = v
	} else if args["variables"] != nil {
		return nil, model.Errorf(model.CodeBadUserInput, "variables: a JSON object, or null")
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, model.Errorf(model.CodeBadUserInput, "variables: not a JSON value: %v", err)
	}
	res, err := s.b.PreviewQuery(ctx, c.Principal, args.str("projectId"), args.str("sandbox"), body)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(res.Body), nil
}
