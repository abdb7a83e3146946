package http

import (
	"context"
	"net/http"
	"sync"

	"github.com/gin-gonic/gin"

	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/realtime"
)

// Subscriptions on the runtime's route (docs/using/realtime.md): a
// WebSocket upgrade (graphql-transport-ws) or a request that accepts an
// event stream (graphql-sse) on /mock/{slug}/graphql goes to the
// configured realtime.Server, which is plain net/http; everything else is
// a runtime request as before.

// streamKey marks a gin context whose request became a subscription
// stream: metrics count it but do not time it.
const streamKey = "mgq.stream"

// serveSubscription hands c to the realtime server when it asks for a
// subscription transport; it reports whether it did.
func (s *Server) serveSubscription(c *gin.Context) bool {
	rs := s.cfg.Subscriptions
	if rs == nil || !realtime.IsSubscription(c.Request) {
		return false
	}
	c.Set(streamKey, true)
	ctx, end := s.streams.context(c.Request.Context())
	defer end()
	r := c.Request.WithContext(model.WithClientIP(ctx, c.ClientIP()))
	if d, ok := findDeadliner(c.Writer); ok && r.Body != nil && r.Body != http.NoBody {
		// The gate gave the body BodyTimeout; the stream lives on after
		// it is read, so reading it to its end lifts the deadline.
		r.Body = &idleBody{ReadCloser: r.Body, d: d, idle: s.cfg.BodyTimeout}
	}
	rs.ServeHTTP(c.Writer, r)
	c.Abort()
	return true
}

// findDeadliner finds the connection's read deadline under w's wrappers.
func findDeadliner(w http.ResponseWriter) (readDeadliner, bool) {
	for {
		if d, ok := w.(readDeadliner); ok {
			return d, true
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return nil, false
		}
		w = u.Unwrap()
	}
}

// NewSubscriptions returns the realtime server of the runtime's route over
// rt: its refusals are the API's error body, its client IP the one the
// HTTP layer works out (trusted proxies), its internal failures logged
// with the server's log, and each operation a WebSocket starts counted
// against the client IP's runtime window as a request is.
func (s *Server) NewSubscriptions(cfg realtime.Config, rt realtime.Runtime) *realtime.Server {
	rs := realtime.NewServer(cfg, rt)
	rs.Refuse = func(w http.ResponseWriter, r *http.Request, err error) {
		corsRefusal(w.Header(), r)
		s.refuseAs(w, r, "", err, true)
	}
	rs.ClientIP = func(r *http.Request) string { return model.ClientIP(r.Context()) }
	rs.Log = s.log
	if s.cfg.IPLimit > 0 { // the gate counted the upgrade; each operation over it counts too
		rs.CountOperation = s.b.Edge.CheckIP
	}
	return rs
}

// SetSubscriptions sets Config.Subscriptions; call it before Start.
func (s *Server) SetSubscriptions(h http.Handler) { s.cfg.Subscriptions = h }

// streams ends the subscription connections when the server shuts down:
// an event stream is a request net/http's Shutdown would wait for, and a
// WebSocket is a connection it no longer tracks. The zero value is ready.
type streams struct {
	once   sync.Once
	ctx    context.Context
	cancel context.CancelFunc
}

func (st *streams) init() {
	st.once.Do(func() { st.ctx, st.cancel = context.WithCancel(context.Background()) })
}

// context returns parent, also ended when the server shuts down.
func (st *streams) context(parent context.Context) (context.Context, context.CancelFunc) {
	st.init()
	ctx, cancel := context.WithCancel(parent)
	stop := context.AfterFunc(st.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

// endStreams ends every subscription connection.
func (s *Server) endStreams() {
	s.streams.init()
	s.streams.cancel()
}
