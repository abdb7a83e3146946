package realtime

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/mockgql/mockgql/model"
)

// Server serves subscriptions over WebSocket (graphql-transport-ws) and
// Server-Sent Events (graphql-sse, distinct connections) for one Runtime.
// It is an http.Handler for the requests IsSubscription accepts.
type Server struct {
	cfg Config
	rt  Runtime
	// Refuse answers an SSE request whose connection the Runtime refused
	// (the caller's error body); nil answers a plain 403.
	Refuse func(w http.ResponseWriter, r *http.Request, err error)
	// ClientIP returns a request's client address (behind trusted
	// proxies, the caller's rule); nil takes the peer's host.
	ClientIP func(r *http.Request) string
	// Log receives the causes of internal failures, which clients see
	// only as "internal error"; nil is slog's default.
	Log *slog.Logger
	// CountOperation counts one operation a WebSocket starts against its
	// client IP's runtime window, as the HTTP side counts a request (an
	// SSE request is one operation, counted as a request before it comes
	// here); a refusal (TOO_MANY_REQUESTS with a retry time) is the
	// operation's error, and the connection stays open. Nil counts
	// nothing.
	CountOperation func(ctx context.Context, ip string) error

	perIP, perProject counter
}

// NewServer returns a server of rt's operations bounded by cfg.
func NewServer(cfg Config, rt Runtime) *Server {
	return &Server{cfg: cfg, rt: rt, perIP: counter{n: map[string]int{}}, perProject: counter{n: map[string]int{}}}
}

// credentials are what r presents, with its client IP.
func (s *Server) credentials(r *http.Request) Credentials {
	ip := ""
	if s.ClientIP != nil {
		ip = s.ClientIP(r)
	} else if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		ip = host
	}
	return Credentials{ClientIP: ip, Header: r.Header, Query: r.URL.Query(), RemoteAddr: r.RemoteAddr}
}

// admit counts one more operation of ip and project, or refuses it with
// LIMIT_REACHED when either already runs its most; release undoes it.
func (s *Server) admit(ip, project string) (release func(), err error) {
	if !s.perIP.take(ip, s.cfg.MaxPerIP) {
		return nil, model.Errorf(model.CodeLimitReached, "your address already runs %d subscriptions on this node, the most it may", s.cfg.MaxPerIP)
	}
	if !s.perProject.take(project, s.cfg.MaxPerProject) {
		s.perIP.give(ip)
		return nil, model.Errorf(model.CodeLimitReached, "this project already has %d subscriptions on this node, the most it may", s.cfg.MaxPerProject)
	}
	return func() { s.perIP.give(ip); s.perProject.give(project) }, nil
}

// counter counts operations by key.
type counter struct {
	mu sync.Mutex
	n  map[string]int
}

// take counts one more for key unless it holds max (0: no bound).
func (c *counter) take(key string, max int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if max > 0 && c.n[key] >= max {
		return false
	}
	c.n[key]++
	return true
}

func (c *counter) give(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[key]--; c.n[key] <= 0 {
		delete(c.n, key)
	}
}

// IsSubscription reports whether r is for this server: a WebSocket upgrade,
// or a request that accepts only an event stream.
func IsSubscription(r *http.Request) bool {
	return isUpgrade(r) || acceptsEventStream(r)
}

func isUpgrade(r *http.Request) bool {
	return strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

// acceptsEventStream reports whether r asks for text/event-stream first
// (graphql-sse's clients send exactly that; GraphQL over HTTP clients ask
// for JSON).
func acceptsEventStream(r *http.Request) bool {
	accept := r.Header.Get("Accept")
	return strings.HasPrefix(strings.TrimSpace(accept), "text/event-stream")
}

// ServeHTTP serves a WebSocket upgrade or an SSE request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if isUpgrade(r) {
		s.serveWS(w, r)
		return
	}
	s.serveSSE(w, r)
}

// refuse answers an SSE request that cannot be served.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, err error) {
	if s.Refuse != nil {
		s.Refuse(w, r, err)
		return
	}
	status := http.StatusForbidden
	if codeOf(err) == model.CodeBadRequest {
		status = http.StatusBadRequest
	}
	http.Error(w, refusalText(err), status)
}

// logInternal logs err when it is an internal failure (INTERNAL: no
// *model.Error), whose cause the client is not told.
func (s *Server) logInternal(r *http.Request, err error) {
	if codeOf(err) != model.CodeInternal {
		return
	}
	l := s.Log
	if l == nil {
		l = slog.Default()
	}
	l.Error("internal error", "path", model.Clip(r.URL.Path, 256), "err", model.Clip(err.Error(), 1024))
}

// refusalText is what a client is told of err: a *model.Error's message,
// else "internal error".
func refusalText(err error) string {
	if e := model.AsError(err); e != nil {
		if e.Message == "" {
			return string(e.Code)
		}
		return e.Message
	}
	return "internal error"
}

// codeOf is err's code (INTERNAL for anything but a *model.Error).
func codeOf(err error) model.Code {
	return model.ErrorCode(err)
}

// errorJSON is one GraphQL error with a message and extensions.code.
func errorJSON(msg string, code model.Code) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"message": msg, "extensions": map[string]any{"code": code}})
	return b
}

// refusalJSON is err as one GraphQL error: its message (refusalText), its
// code and, for a 429's, extensions.retryAfter in seconds, as the
// runtime's GraphQL errors carry it.
func refusalJSON(err error) json.RawMessage { return errorJSONOf(refusalText(err), err) }

// errorJSONOf is one GraphQL error with msg and err's code and retry time.
func errorJSONOf(msg string, err error) json.RawMessage {
	ext := map[string]any{"code": codeOf(err)}
	if e := model.AsError(err); e != nil && e.RetryAfter > 0 {
		ext["retryAfter"] = e.RetryAfter
	}
	b, _ := json.Marshal(map[string]any{"message": msg, "extensions": ext})
	return b
}

// limitError is the error of a subscribe past Config.MaxSubscriptions.
func limitError(max int) []json.RawMessage {
	return []json.RawMessage{errorJSON(fmt.Sprintf("this connection already runs %d operations, the most it may; complete one first", max), model.CodeLimitReached)}
}
