package http

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/golang-jwt/jwt/v5"

	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/web"
)

// cookieBoard is the board session an adoption link sets: a JWT naming the
// one project it opens, valid until the project expires.
const cookieBoard = "mgq_board"

type boardClaims struct {
	Project string `json:"proj"`
	jwt.RegisteredClaims
}

// pageCSP is the Content-Security-Policy of every HTML page: scripts and
// styles only from our own files (no inline script, no eval), data only
// from our own routes, no framing, no plugins. %s is where the pages may
// also connect: the runtime's address when it is not the board's (the
// demo's query box calls the runtime itself).
// GraphiQL's stylesheet carries its fonts and icons as data: URLs.
const pageCSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'%s; font-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// csp is the pages' Content-Security-Policy for this server's addresses.
func (s *Server) csp() string {
	extra := ""
	if base, app := origin(s.cfg.BaseURL), origin(s.cfg.AppURL); base != "" && base != app {
		// and its WebSocket address: the playground's subscriptions
		// (docs/using/realtime.md); 'self' covers the board's own.
		extra = " " + base + " ws" + strings.TrimPrefix(base, "http")
	}
	return fmt.Sprintf(pageCSP, extra)
}

// origin is scheme://host[:port] of an address, or "" if it has none.
func origin(addr string) string {
	u, err := url.Parse(addr)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// pageHeaders are the security headers of every HTML page and of the
// board's static files.
func (s *Server) pageHeaders(c *gin.Context) {
	c.Header("Content-Security-Policy", s.csp())
	c.Header("X-Content-Type-Options", "nosniff")
	c.Header("X-Frame-Options", "DENY")
	if c.Writer.Header().Get("Referrer-Policy") == "" { // the preview page's no-referrer stays
		c.Header("Referrer-Policy", "same-origin")
	}
}

// servePage writes one embedded HTML page with the security headers.
func (s *Server) servePage(c *gin.Context, status int, name string) {
	b, err := web.Files.ReadFile(name)
	if err != nil {
		s.writeError(c, err)
		return
	}
	s.pageHeaders(c)
	c.Header("Cache-Control", "no-store")
	c.Data(status, "text/html; charset=utf-8", b)
}

// serveLanding serves / : what mockgql is, sign up, log in, a guest
// project, the demo.
func (s *Server) serveLanding(c *gin.Context) { s.servePage(c, http.StatusOK, "index.html") }

// serveBoard serves /board/...: the board's own files under
// /board/static/, the vendored libraries under /board/vendor/<lib>@<version>/,
// and its single page for every other path (the page routes itself by its
// address).
func (s *Server) serveBoard(c *gin.Context) {
	p := c.Param("path")
	if rest, ok := strings.CutPrefix(p, "/static/"); ok {
		s.serveStatic(c, "static/", rest, "no-cache")
		return
	}
	if rest, ok := strings.CutPrefix(p, "/vendor/"); ok { // versioned paths: never change
		s.serveStatic(c, "vendor/", rest, "public, max-age=31536000, immutable")
		return
	}
	s.servePage(c, http.StatusOK, "board.html")
}

// serveFavicon answers a browser's /favicon.ico with the board's icon (an
// SVG, which browsers take at that address too; the pages link it).
func (s *Server) serveFavicon(c *gin.Context) {
	s.serveStatic(c, "static/", "favicon.svg", "public, max-age=86400")
}

// staticTypes are the content types of the board's static files; any
// other extension is not served.
var staticTypes = map[string]string{
	".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
	".svg": "image/svg+xml", ".png": "image/png", ".txt": "text/plain; charset=utf-8",
}

// serveStatic serves one embedded file of web/<dir> (static/ or vendor/).
func (s *Server) serveStatic(c *gin.Context, dir, name, cache string) {
	typ, ok := staticTypes[path.Ext(name)]
	if !ok || !fs.ValidPath(name) {
		s.writeError(c, model.Errorf(model.CodeNotFound, "no board file %q", name))
		return
	}
	b, err := web.Files.ReadFile(dir + name)
	if err != nil {
		s.writeError(c, model.Errorf(model.CodeNotFound, "no board file %q", name))
		return
	}
	s.pageHeaders(c)
	c.Header("Cache-Control", cache)
	c.Data(http.StatusOK, typ, b)
}

// Adopter is what the one-time adoption link (/auth/adopt/{token}) asks.
type Adopter interface {
	// Adopt uses a one-time adoption token: the project it opens and
	// until when that project lives.
	Adopt(ctx context.Context, token string) (projectID string, expires time.Time, err error)
}

// serveAdopt answers the one-time adoption link: it sets the board session
// for the project and redirects to it on the board. A used or expired link
// is 410 ADOPTION_TOKEN_INVALID: a page saying so and what to do for a
// browser, the JSON error body for anyone else.
func (s *Server) serveAdopt(c *gin.Context) {
	projectID, expires, err := s.b.Adoption.Adopt(c.Request.Context(), c.Param("token"))
	if err != nil {
		if model.ErrorCode(err) == model.CodeAdoptionTokenInvalid && wantsHTML(c.GetHeader("Accept")) {
			s.servePage(c, http.StatusGone, "adopt-invalid.html")
			return
		}
		s.writeError(c, err)
		return
	}
	token, err := jwt.NewWithClaims(jwt.SigningMethodHS256, boardClaims{Project: projectID,
		RegisteredClaims: jwt.RegisteredClaims{Subject: "board", Issuer: "mockgql", ExpiresAt: jwt.NewNumericDate(expires),
			IssuedAt: jwt.NewNumericDate(time.Now())}}).SignedString(s.cfg.JWTSecret)
	if err != nil {
		s.writeError(c, err)
		return
	}
	s.cookieSetter(c)(cookieBoard, token, time.Until(expires))
	c.Redirect(http.StatusFound, "/board/projects/"+projectID)
}

// wantsHTML reports whether an Accept header asks for a page before JSON,
// as a browser's navigation does ("text/html,...") and curl's "*/*" does not.
func wantsHTML(accept string) bool {
	h := strings.Index(accept, "text/html")
	if h < 0 {
		return false
	}
	j := strings.Index(accept, "application/json")
	return j < 0 || h < j
}

// boardProject reads the board session cookie; "" when absent or invalid.
func (s *Server) boardProject(c *gin.Context) string {
	ck, err := c.Cookie(cookieBoard)
	if err != nil {
		return ""
	}
	var cl boardClaims
	_, err = jwt.ParseWithClaims(ck, &cl, func(*jwt.Token) (any, error) { return s.cfg.JWTSecret, nil },
		jwt.WithValidMethods([]string{"HS256"}), jwt.WithIssuer("mockgql"), jwt.WithSubject("board"), jwt.WithExpirationRequired())
	if err != nil {
		return ""
	}
	return cl.Project
}
