package http

import (
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/mockgql/mockgql/model"
)

// Cross-site request forgery. The board's cookies are SameSite=Lax, which
// keeps them off cross-site POSTs but not off those of another origin of
// the same site (another port of the same host, a sibling subdomain). Two
// more checks close that: a GraphQL POST must be JSON (GraphQL over HTTP),
// which a plain HTML form cannot send without a CORS preflight; and a
// request that carries our cookies and an Origin must come from the app's
// own address.

// requireJSON refuses a POST whose Content-Type is not application/json
// (parameters such as charset allowed): 400 Bad Request naming it.
func requireJSON(r *http.Request) error {
	if r.Method != http.MethodPost {
		return nil
	}
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err == nil && mt == "application/json" {
		return nil
	}
	return model.Errorf(model.CodeBadRequest, "a GraphQL POST needs Content-Type: application/json (GraphQL over HTTP), not %q", model.Clip(ct, 64))
}

// checkOrigin refuses a request that carries the board's or a session's
// cookie and an Origin other than the app's own (AppURL, BaseURL, or the
// address the request was sent to): 403 FORBIDDEN. Requests without those
// cookies (API keys, Bearer tokens) and requests without an Origin (not
// sent by a browser, or a same-origin GET) pass.
func (s *Server) checkOrigin(r *http.Request) error {
	origin := r.Header.Get("Origin")
	if origin == "" || !hasCookie(r, cookieJWT) && !hasCookie(r, cookieSession) {
		return nil
	}
	if s.ownOrigin(origin, r.Host) {
		return nil
	}
	return model.Errorf(model.CodeForbidden, "a request with this app's cookies must come from the app's own origin, not %q", model.Clip(origin, 64))
}

// ownOrigin reports whether origin is the app's: AppURL's or BaseURL's
// scheme and host, or the request's own Host.
func (s *Server) ownOrigin(origin, host string) bool {
	o, err := url.Parse(origin)
	if err != nil || o.Host == "" {
		return false // "null" included: a sandboxed or file page
	}
	for _, base := range []string{s.cfg.AppURL, s.cfg.BaseURL} {
		if b, err := url.Parse(base); err == nil && strings.EqualFold(b.Scheme, o.Scheme) && strings.EqualFold(b.Host, o.Host) {
			return true
		}
	}
	return host != "" && strings.EqualFold(o.Host, host)
}

// hasCookie reports whether r carries a cookie called name.
func hasCookie(r *http.Request, name string) bool {
	_, err := r.Cookie(name)
	return err == nil
}
