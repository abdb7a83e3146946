package http

import (
	"context"
	"encoding/json"

	"github.com/mockgql/mockgql/model"
)

// SessionProjects is what the public API's session-project fields ask.
type SessionProjects interface {
	// CreateGuestProject makes a guest project for the principal's session
	// (creating the session when SessionID is empty; the new session ID is
	// returned so the HTTP layer can set the cookie).
	CreateGuestProject(ctx context.Context, p Principal, name string) (*model.Project, string, error)
	// CreateSessionProject returns the session ID (new when the principal
	// had none, to be set as cookie).
	CreateSessionProject(ctx context.Context, p Principal, name string) (model.SessionProject, string, error)
	CreateAdoptionLink(ctx context.Context, p Principal, projectID string) (model.SessionProject, error)
	// SessionProject is the session's live session project, or nil.
	SessionProject(ctx context.Context, p Principal) (*model.Project, error)
	RuntimeList(ctx context.Context, p Principal, projectID string, in model.RuntimeList) (model.RuntimeListResult, error)
}

// sessionResolvers resolve the public API's session-project fields.
type sessionResolvers struct {
	*Surface
	b SessionProjects
}

// setSessionCookie sets the cookie of session when the backend made it:
// the call carried none, or one the backend no longer knows.
func setSessionCookie(c *Call, session string) {
	if session != "" && session != c.Principal.SessionID {
		c.setCookie(cookieSession, session, 0)
	}
}

// createGuestProject resolves Mutation.createGuestProject; a new
// session's cookie is set.
func (s sessionResolvers) createGuestProject(ctx context.Context, c *Call, args input) (any, error) {
	if err := s.checkCreate(ctx, c); err != nil { // counted per IP, with or without a session
		return nil, err
	}
	p, session, err := s.b.CreateGuestProject(ctx, c.Principal, args.str("name"))
	if err != nil {
		return nil, err
	}
	setSessionCookie(c, session)
	return s.shaper(c).guestProject(p), nil
}

// createSessionProject resolves Mutation.createSessionProject; a new
// session's cookie is set.
func (s sessionResolvers) createSessionProject(ctx context.Context, c *Call, args input) (any, error) {
	if err := s.checkCreate(ctx, c); err != nil { // counted per IP, with or without a session
		return nil, err
	}
	sp, session, err := s.b.CreateSessionProject(ctx, c.Principal, args.str("name"))
	if err != nil {
		return nil, err
	}
	setSessionCookie(c, session)
	return s.shaper(c).sessionProject(sp), nil
}

// createAdoptionLink resolves Mutation.createAdoptionLink.
func (s sessionResolvers) createAdoptionLink(ctx context.Context, c *Call, args input) (any, error) {
	sp, err := s.b.CreateAdoptionLink(ctx, c.Principal, args.str("projectId"))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).sessionProject(sp), nil
}

// sessionProjectQuery resolves Query.sessionProject.
func (s sessionResolvers) sessionProjectQuery(ctx context.Context, c *Call, _ input) (any, error) {
	p, err := s.b.SessionProject(ctx, c.Principal)
	if err != nil || p == nil {
		return nil, err
	}
	return s.shaper(c).project(p), nil
}

// runtimeList resolves Query.runtimeList.
func (s sessionResolvers) runtimeList(ctx context.Context, c *Call, args input) (any, error) {
	in := model.RuntimeList{Operation: args.str("operation"), SortField: args.strPtr("sortField"), SortDirection: args.strPtr("sortDirection")}
	if v, ok := args.integer("page"); ok {
		in.Page = &v
	}
	if v, ok := args.integer("pageSize"); ok {
		in.PageSize = &v
	}
	if a, ok := args["args"]; ok && a != nil {
		m, isObj := a.(map[string]any)
		if !isObj {
			return nil, model.Errorf(model.CodeBadUserInput, "args is a JSON object of parameter values, e.g. {\"minPrice\": 10}")
		}
		in.Args = m
	}
	r, err := s.b.RuntimeList(ctx, c.Principal, args.str("projectId"), in)
	if err != nil {
		return nil, err
	}
	return map[string]any{"items": rawList(r.Items), "total": r.Total, "page": r.Page, "pageSize": r.PageSize, "errors": rawList(r.Errors)}, nil
}

func rawList(in []json.RawMessage) []any {
	out := make([]any, len(in))
	for i, v := range in {
		out[i] = v
	}
	return out
}

// sessionProject shapes a SessionProject.
func (sh shaper) sessionProject(sp model.SessionProject) any {
	p := sp.Project
	return map[string]any{"projectId": p.ID, "slug": p.Slug, "shareToken": p.ShareToken, "runtimeUrl": sh.runtimeURL(p),
		"adoptionToken": sp.AdoptionToken, "adoptionUrl": model.AdoptionURL(sh.appURL, sp.AdoptionToken),
		"expiresAt": dateTime(p.ExpiresAt)}
}
