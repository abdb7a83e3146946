package http

import (
	_ "embed"
	"errors"

	"github.com/mockgql/mockgql/graphql/exec"
)

// publicBase is the schema of the public session-project API (docs/using/
// assistants.md).
//
//go:embed schema/public.graphql
var publicBase string

// publicSDL is the public schema with the contract fields it shares with
// the management API (management_contract.go).
var publicSDL = publicBase + "\n" + contractSDL

// Public is what the public session-project API (/public-graphql) asks:
// the session projects, the model mutations that create (the backend
// limits them to the session's project), the curated pool and the
// projects' schemas.
type Public interface {
	SessionProjects
	ModelCreator
	PoolReader
	ProjectFields
	Contracts
}

// NewPublicSurface returns the public session-project API (/public-graphql)
// over b. availableDataSources and createGuestProject need no credential;
// the model mutations need the mgq_session cookie's session.
func NewPublicSurface(cfg SurfaceConfig, b Public) (*Surface, error) {
	if b == nil {
		return nil, errors.New("http: public.graphql: its Public backend is nil")
	}
	s := &Surface{cfg: cfg, sdl: publicSDL, schemas: b,
		anonymous: "no session: call createGuestProject first and send back the mgq_session cookie it sets"}
	if err := s.build("public.graphql", s.publicResolvers(b)); err != nil {
		return nil, err
	}
	return s, nil
}

// publicResolvers maps the public API's root fields to b.
func (s *Surface) publicResolvers(b Public) map[string]exec.Resolver {
	sess := sessionResolvers{s, b}
	r := map[string]exec.Resolver{
		"Query.availableDataSources":    s.open(poolResolvers{s, b, nil}.dataSources),
		"Query.sessionProject":          s.authed(sess.sessionProjectQuery),
		"Query.runtimeList":             s.authed(sess.runtimeList),
		"Mutation.createGuestProject":   s.open(sess.createGuestProject),
		"Mutation.createSessionProject": s.open(sess.createSessionProject),
		"Mutation.createAdoptionLink":   s.authed(sess.createAdoptionLink),
	}
	for name, fn := range (modelCreateResolvers{s, b}).mutations() {
		r["Mutation."+name] = s.authed(fn)
	}
	for key, fn := range (contractResolvers{s, b}).roots() {
		r[key] = s.authed(fn)
	}
	return r
}
