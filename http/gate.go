package http

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
)

// Windows are the per-IP windows the gate counts requests against.
type Windows interface {
	// CheckIP counts a runtime request against its client IP's window.
	CheckIP(ctx context.Context, ip string) error
	// CheckWindow counts a request against the client IP's named window
	// ("management", "public", or "create" for sign-ups, guest and session
	// projects); a window turned off answers nil.
	CheckWindow(ctx context.Context, window, ip string) error
}

// Edge is what the checks in front of the routes ask: the per-IP windows
// (here), API keys (auth.go) and CORS policies (cors.go).
type Edge interface {
	Windows
	KeyChecker
	CORSSource
}

// gate is the server's handler: it counts the requests of the per-IP
// window (the runtime, actor tokens, preview data) before anything else
// runs — gin's routing, request IDs, logging and latency metrics included
// — and refuses those over the window straight from net/http. A flood of
// refused requests is what the window exists for, so a refusal must cost
// little more than a bare handler's answer; everything else goes on to
// gin. Refusals are counted in mockgql_http_requests_total but carry no
// request ID and are not logged one by one.
type gate struct {
	s       *Server
	next    http.Handler
	trusted []netip.Prefix
	limited map[string]prometheus.Counter // by route, status 429
}

func newGate(s *Server, next http.Handler) (*gate, error) {
	g := &gate{s: s, next: next, limited: map[string]prometheus.Counter{}}
	for _, t := range s.cfg.TrustedProxies {
		p, err := netip.ParsePrefix(t)
		if err != nil {
			a, aerr := netip.ParseAddr(t)
			if aerr != nil {
				return nil, fmt.Errorf("trusted proxy %q is neither an IP nor a CIDR", t)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		g.trusted = append(g.trusted, p.Masked())
	}
	for _, route := range []string{"runtime", "actors", "preview", "management", "public"} {
		g.limited[route] = s.metrics.requests.WithLabelValues(route, "429")
	}
	return g, nil
}

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if g.s.cfg.IPLimit > 0 {
		if route := windowed(r.Method, r.URL.Path); route != "" && g.refused(w, r, route) {
			return
		}
	}
	if window := g.apiWindow(r.URL.Path); window != "" && g.refused(w, r, window) {
		return
	}
	g.setBodyDeadline(w, r)
	g.next.ServeHTTP(w, r)
}

// apiWindow names the per-IP window of the management ("management":
// /graphql, /datasets/…) and public ("public": /public-graphql) APIs that
// counts a request to path, or "" when none does (or it is turned off).
func (g *gate) apiWindow(path string) string {
	switch {
	case g.s.cfg.IPLimitManagement > 0 && (path == "/graphql" || strings.HasPrefix(path, "/datasets/")):
		return "management"
	case g.s.cfg.IPLimitPublic > 0 && (path == "/public-graphql" || path == "/mcp"):
		return "public"
	}
	return ""
}

// refused counts r against its client's window and answers it when the
// window (or its grain) turns it away.
func (g *gate) refused(w http.ResponseWriter, r *http.Request, route string) (done bool) {
	defer func() { // a panic is a 500 with the error body, as in gin's recoverPanics
		if p := recover(); p != nil {
			g.s.log.Error("IP window check panicked", "panic", p, "stack", string(debug.Stack()))
			g.refuse(w, r, route, fmt.Errorf("panic: %v", p))
			done = true
		}
	}()
	var err error
	if route == "management" || route == "public" {
		err = g.s.b.Edge.CheckWindow(r.Context(), route, g.clientIP(r))
	} else {
		err = g.s.b.Edge.CheckIP(r.Context(), g.clientIP(r))
	}
	if err == nil {
		return false
	}
	g.setBodyDeadline(w, r) // the drain must not wait on a trickled body
	drainSmall(r)
	g.refuse(w, r, route, err)
	return true
}

// refuse answers a request the window (or its grain) turned away.
func (g *gate) refuse(w http.ResponseWriter, r *http.Request, route string, err error) {
	if route == "runtime" || route == "actors" {
		corsRefusal(w.Header(), r) // cors.go: the page can read why
	}
	status := g.s.refuse(w, r, "", err)
	if c := g.limited[route]; c != nil && status == http.StatusTooManyRequests {
		c.Inc()
	} else {
		g.s.metrics.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	}
}

// drainSmall reads the rest of a small request body (a GraphQL request),
// as a handler that serves it would: net/http would otherwise discard it
// after the answer through a reader it allocates for the purpose. A large
// body is left to net/http, which reads at most 256 KB of it and then
// closes the connection.
func drainSmall(r *http.Request) {
	if r.Body != nil && r.ContentLength > 0 && r.ContentLength <= 64<<10 {
		_, _ = io.Copy(io.Discard, r.Body) // net/http's body reader stops at ContentLength
	}
}

// windowed names the route of a request the per-IP window counts, or ""
// for one it does not: the routes of routes() that call the runtime,
// and the runtime's CORS preflights, whose policy lookup may call a grain
// (browsers keep a preflight's answer for Access-Control-Max-Age).
func windowed(method, path string) string {
	switch {
	case (method == http.MethodPost || method == http.MethodGet || method == http.MethodOptions) && oneSegment(path, "/mock/", "/graphql"):
		return "runtime"
	case (method == http.MethodPost || method == http.MethodDelete) && path == "/runtime/actors":
		return "actors"
	case method == http.MethodGet && oneSegment(path, "/preview/", "/data"):
		return "preview"
	}
	return ""
}

// oneSegment reports whether path is prefix, one non-empty segment, suffix.
func oneSegment(path, prefix, suffix string) bool {
	if len(path) <= len(prefix)+len(suffix) || !strings.HasPrefix(path, prefix) || !strings.HasSuffix(path, suffix) {
		return false
	}
	return !strings.Contains(path[len(prefix):len(path)-len(suffix)], "/")
}

// clientIP is the request's client as gin's ClientIP sees it with our
// settings (routes): the peer address, unless the peer is a trusted proxy;
// then the rightmost X-Forwarded-For entry that is not a trusted proxy
// (the leftmost if all are).
func (g *gate) clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(strings.TrimSpace(r.RemoteAddr))
	if err != nil {
		return ""
	}
	if len(g.trusted) == 0 {
		return host
	}
	peer, err := netip.ParseAddr(host)
	if err != nil {
		return ""
	}
	if !g.isTrusted(peer) {
		return peer.Unmap().String()
	}
	items := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(items) - 1; i >= 0; i-- {
		text := strings.TrimSpace(items[i])
		ip, err := netip.ParseAddr(text)
		if err != nil {
			break
		}
		if i == 0 || !g.isTrusted(ip) {
			return text
		}
	}
	return peer.Unmap().String()
}

// trustedPeer reports whether the peer address ip is a trusted proxy.
func (g *gate) trustedPeer(ip string) bool {
	a, err := netip.ParseAddr(ip)
	return err == nil && g.isTrusted(a)
}

func (g *gate) isTrusted(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, p := range g.trusted {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}
