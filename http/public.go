package http

import (
	"context"
	_ "embed"

	"github.com/mockgql/mockgql/graphql"
)

// publicSDL is the schema of the public session-project API (API.md
// "Public session-project API").
//
//go:embed schema/public.graphql
var publicSDL string

// publicModelMutations are the model mutations the public API serves.
var publicModelMutations = []string{
	"createModellingTable", "createModellingAttribute", "createRelation",
	"generateDefaultGqlOperations", "generateMissingViews",
}

// NewPublicSurface returns the public session-project API (/public-graphql).
// availableDataSources and createGuestProject need no credential; the
// model mutations need the mgq_session cookie's session, and the Backend
// limits them to that session's project.
func NewPublicSurface(cfg SurfaceConfig) (*Surface, error) {
	s := &Surface{cfg: cfg, sdl: publicSDL,
		anonymous: "no session: call createGuestProject first and send back the mgq_session cookie it sets"}
	if err := s.build("public.graphql", s.publicResolvers()); err != nil {
		return nil, err
	}
	return s, nil
}

// publicResolvers maps the public API's root fields to the Backend.
func (s *Surface) publicResolvers() map[string]graphql.Resolver {
	r := map[string]graphql.Resolver{
		"Query.availableDataSources":    s.open(s.dataSources),
		"Query.sessionProject":          s.authed(s.sessionProjectQuery),
		"Query.runtimeList":             s.authed(s.runtimeList),
		"Mutation.createGuestProject":   s.open(s.createGuestProject),
		"Mutation.createSessionProject": s.open(s.createSessionProject),
		"Mutation.createAdoptionLink":   s.authed(s.createAdoptionLink),
	}
	model := s.modelMutations()
	for _, name := range publicModelMutations {
		r["Mutation."+name] = s.authed(model[name])
	}
	return r
}

// createGuestProject resolves Mutation.createGuestProject. When the
// Backend made a session (the call carried none, or one it no longer
// knows), its cookie is set.
func (s *Surface) createGuestProject(ctx context.Context, c *Call, args input) (any, error) {
	if err := s.checkCreate(ctx, c); err != nil { // counted per IP, with or without a session
		return nil, err
	}
	p, session, err := s.cfg.Backend.CreateGuestProject(ctx, c.Principal, args.str("name"))
	if err != nil {
		return nil, err
	}
	if session != "" && session != c.Principal.SessionID {
		c.setCookie(cookieSession, session, 0)
	}
	return s.shaper(c).guestProject(p), nil
}
