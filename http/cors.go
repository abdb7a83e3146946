package http

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/mockgql/mockgql/model"
)

// CORSSource is what the runtime's CORS headers ask.
type CORSSource interface {
	// CORS is the CORS policy of the project a slug names, or of the
	// project projectID names when set; a slug that names no project
	// answers any origin.
	CORS(ctx context.Context, slug, projectID string) (model.CORSPolicy, error)
}

// CORS on the runtime (/mock/{slug}/graphql and /runtime/actors) lets a
// page on another origin call it. Guest and session projects, and slugs
// that name no project, answer any origin with "*" (never with
// credentials: the share token rides in the URL, a key in a header); an
// account project answers only the origins on Project.allowedOrigins, with
// the request's own Origin. /graphql and /public-graphql never carry CORS
// headers.
const (
	// corsAllowMethods are the runtime's methods.
	corsAllowMethods = "GET, POST, DELETE, OPTIONS"
	// corsAllowHeaders are the request headers browsers may send: the
	// runtime's credentials, and what Apollo Client and urql add.
	corsAllowHeaders = "Authorization, X-API-Key, X-Actor-Token, X-Mock-Fault, X-Mock-Sandbox, Content-Type, Accept, X-Request-Id, " +
		"apollographql-client-name, apollographql-client-version, apollo-require-preflight, x-apollo-operation-name"
	// corsExposeHeaders are the response headers a page may read: with
	// a fault's (runtime.go, waitFault).
	corsExposeHeaders = "Retry-After, X-Request-Id, X-Mock-Fault-Applied, Server-Timing"
	// corsMaxAge is how long a browser keeps a preflight's answer (seconds).
	corsMaxAge = "600"
	// corsTTL is how long a node trusts a slug's cached policy: an edit of
	// allowedOrigins reaches every node's runtime within it.
	corsTTL = 5 * time.Second
	// corsCacheMax bounds the cache; when full it is emptied.
	corsCacheMax = 10000
)

// corsCache holds the CORS policies of recently called slugs, so a
// preflight and the request after it cost one lookup every corsTTL, not
// one each. Safe for concurrent use.
type corsCache struct {
	mu  sync.Mutex
	m   map[string]corsEntry
	now func() time.Time
}

type corsEntry struct {
	p  model.CORSPolicy
	at time.Time
}

// policy returns the cached policy of key, or looks it up with fetch.
// A failed lookup is not cached.
func (c *corsCache) policy(key string, fetch func() (model.CORSPolicy, error)) (model.CORSPolicy, error) {
	now := c.now()
	c.mu.Lock()
	e, ok := c.m[key]
	c.mu.Unlock()
	if ok && now.Sub(e.at) < corsTTL {
		return e.p, nil
	}
	p, err := fetch()
	if err != nil {
		return p, err
	}
	c.mu.Lock()
	if len(c.m) >= corsCacheMax {
		clear(c.m)
	}
	c.m[key] = corsEntry{p: p, at: now}
	c.mu.Unlock()
	return p, nil
}

// corsPolicy is the policy of the project a slug (or, when projectID is
// set, an ID) names.
//
// Only valid slugs are cached (at most 64 bytes each): any other names no
// project and answers any origin without a lookup.
func (s *Server) corsPolicy(ctx context.Context, slug, projectID string) (model.CORSPolicy, error) {
	if projectID == "" && !model.ValidSlug(slug) {
		return model.CORSPolicy{}, nil
	}
	key := "s:" + slug
	if projectID != "" {
		key = "p:" + projectID
	}
	return s.cors.policy(key, func() (model.CORSPolicy, error) { return s.b.Edge.CORS(ctx, slug, projectID) })
}

// allowOrigin sets the CORS response headers for origin under p; false
// when p does not allow it (then no header is set, and the browser keeps
// the answer from the page).
func allowOrigin(h http.Header, p model.CORSPolicy, origin string) bool {
	h.Add("Vary", "Origin")
	if !p.Allows(origin) {
		return false
	}
	if p.Listed {
		h.Set("Access-Control-Allow-Origin", origin)
	} else {
		h.Set("Access-Control-Allow-Origin", "*")
	}
	h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
	return true
}

// corsRuntime sets the CORS headers of /mock/{slug}/graphql before the
// handler runs, so refusals carry them too. A failed lookup sets none.
func (s *Server) corsRuntime(c *gin.Context) {
	origin := c.GetHeader("Origin")
	if origin == "" {
		return
	}
	p, err := s.corsPolicy(c.Request.Context(), c.Param("slug"), "")
	if err != nil {
		c.Writer.Header().Add("Vary", "Origin")
		return
	}
	allowOrigin(c.Writer.Header(), p, origin)
}

// corsActors sets the CORS headers of /runtime/actors from the project of
// the request's key; a key that resolves to none (the answer is then a
// refusal) is answered with "*".
func (s *Server) corsActors(c *gin.Context) {
	origin := c.GetHeader("Origin")
	if origin == "" {
		return
	}
	p := model.CORSPolicy{}
	if k, err := s.b.Edge.AuthKey(c.Request.Context(), runtimeKeyOf(c)); err == nil {
		if p, err = s.corsPolicy(c.Request.Context(), "", k.ProjectID); err != nil {
			c.Writer.Header().Add("Vary", "Origin")
			return
		}
	}
	allowOrigin(c.Writer.Header(), p, origin)
}

// servePreflight answers OPTIONS on the runtime's routes: 204, and when
// the origin is allowed (corsRuntime set Access-Control-Allow-Origin), the
// methods, headers and max-age. A preflight of /runtime/actors carries no
// key, so it is answered for any origin; the request itself is checked.
func (s *Server) servePreflight(c *gin.Context) {
	h := c.Writer.Header()
	if c.FullPath() == "/runtime/actors" && c.GetHeader("Origin") != "" {
		allowOrigin(h, model.CORSPolicy{}, c.GetHeader("Origin"))
	}
	h.Set("Allow", corsAllowMethods)
	if h.Get("Access-Control-Allow-Origin") != "" {
		h.Set("Access-Control-Allow-Methods", corsAllowMethods)
		h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
		h.Set("Access-Control-Max-Age", corsMaxAge)
	}
	c.Status(http.StatusNoContent)
}

// corsRefusal sets the CORS headers of a refusal the IP gate answers
// before gin (a 429 of the per-IP window): "*" without a lookup, as a
// refusal must stay cheap and its body holds no project data.
func corsRefusal(h http.Header, r *http.Request) {
	if origin := r.Header.Get("Origin"); origin != "" {
		allowOrigin(h, model.CORSPolicy{}, origin)
	}
}
