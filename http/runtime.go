package http

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/mockgql/mockgql/model"
)

// Runtime is what /mock/{slug}/graphql and /runtime/actors ask: the mock
// runtime path and the actor slots of API keys.
type Runtime interface {
	// Runtime runs one /mock/{slug}/graphql request.
	Runtime(ctx context.Context, r model.RuntimeRequest) (*model.RuntimeResult, error)
	// IssueActorToken grants an actor slot of the key (POST /runtime/actors).
	IssueActorToken(ctx context.Context, keyValue string) (any, error)
	// ReleaseActorToken frees the token's slot (DELETE /runtime/actors).
	ReleaseActorToken(ctx context.Context, keyValue, token string) error
}

// runtimeScratch is one runtime request's buffers, pooled: the body read
// (it implements model.RuntimeBody, so the runtime path reads the body in
// its turn) and the answer written into Out.
type runtimeScratch struct {
	c   *gin.Context
	max int64
	get bool
	in  bytes.Buffer
	out model.RuntimeBuffers
}

var scratchPool = sync.Pool{New: func() any { return new(runtimeScratch) }}

// maxPooledAnswer keeps an occasional huge answer's buffers out of the pool.
const maxPooledAnswer = 64 << 10

// ReadBody implements model.RuntimeBody: a POST's body, or the JSON body a
// GET's ?query= stands for.
func (r *runtimeScratch) ReadBody() ([]byte, error) {
	var err error
	if r.get {
		err = getBody(r.c, &r.in)
	} else {
		err = readBody(r.c, r.max, &r.in)
	}
	return r.in.Bytes(), err
}

// release gives back what the answer held of the node's response budget
// (it has been written, or its connection is gone) and pools r.
func (r *runtimeScratch) release() {
	r.out.Return()
	r.c = nil
	if cap(r.out.Body) <= maxPooledAnswer && cap(r.out.Data) <= maxPooledAnswer && r.in.Cap() <= maxPooledAnswer<<4 {
		scratchPool.Put(r)
	}
}

// readBody reads at most max bytes of the request body; more is a 413.
// A body read whole lifts the gate's body deadline (setBodyDeadline); one
// that failed or was cut keeps it, so that net/http, which reads what is
// left of a body before it answers, gives up on a trickled one.
func readBody(c *gin.Context, max int64, buf *bytes.Buffer) error {
	if c.Request.ContentLength > max {
		return model.Errorf(model.CodePayloadTooLarge, "the request body is larger than %d bytes", max)
	}
	n, err := buf.ReadFrom(io.LimitReader(c.Request.Body, max+1))
	if err == nil && n <= max {
		clearBodyDeadline(c)
	}
	if err != nil {
		return model.Errorf(model.CodeBadRequest, "reading the request body failed: %v", err)
	}
	if n > max {
		return model.Errorf(model.CodePayloadTooLarge, "the request body is larger than %d bytes", max)
	}
	return nil
}

// getBody turns a GraphQL-over-HTTP GET (?query=&variables=&operationName=)
// into the JSON body a POST would carry. Clients such as urql send queries
// this way by default.
func getBody(c *gin.Context, buf *bytes.Buffer) error {
	q := c.Query("query")
	if q == "" {
		return model.Errorf(model.CodeBadRequest, "a GET needs ?query=")
	}
	req := map[string]any{"query": q}
	if v := c.Query("variables"); v != "" {
		req["variables"] = json.RawMessage(v)
		if !json.Valid([]byte(v)) {
			return model.Errorf(model.CodeBadRequest, "?variables= is not JSON")
		}
	}
	if op := c.Query("operationName"); op != "" {
		req["operationName"] = op
	}
	return json.NewEncoder(buf).Encode(req)
}

// serveRuntime answers POST (and, for queries, GET) /mock/{slug}/graphql.
// The gate counted the client IP; the other checks run in the documented order (docs/reference/routes.md)
// in the runtime path (actors/runtime_path.go), which reads the body in
// its turn through the request's runtimeScratch.
func (s *Server) serveRuntime(c *gin.Context) {
	if s.serveGraphiQL(c) || s.serveSubscription(c) { // graphiql.go: a browser's navigation; subscriptions.go
		return
	}
	ctx, cancel := withDeadline(c.Request.Context(), time.Now().Add(s.cfg.QueryTimeout)) // deadline.go: no timer unless one is waited on
	defer cancel()
	sc := scratchPool.Get().(*runtimeScratch)
	defer sc.release()
	sc.c, sc.max, sc.get = c, s.cfg.MaxBodyBytes, c.Request.Method == http.MethodGet
	sc.in.Reset()
	var token string
	sandbox := c.GetHeader("X-Mock-Sandbox")
	if c.Request.URL.RawQuery != "" { // parsing an empty query still allocates
		token = c.Query("token")
		if sandbox == "" {
			sandbox = c.Query("sandbox")
		}
	}
	res, err := s.b.Runtime.Runtime(ctx, model.RuntimeRequest{Slug: c.Param("slug"), KeyValue: runtimeKeyOf(c),
		ShareToken: token, ActorToken: c.GetHeader("X-Actor-Token"), BodyFrom: sc, Out: &sc.out, QueryOnly: sc.get,
		FaultHeader: c.GetHeader("X-Mock-Fault"), Sandbox: sandbox})
	if err == nil && res.Fault != "" && !waitFault(c, res) {
		return // the client left during the injected latency
	}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) && c.Request.Context().Err() == nil && err != nil:
		s.writeError(c, &model.Error{Code: model.CodeQueryTimeout, Message: "the query ran past the time limit; narrow it and retry", RetryAfter: 1})
	case err != nil:
		s.writeRuntimeError(c, err)
	case res.Refusal != nil: // an injected HTTP refusal
		s.writeError(c, res.Refusal)
	case res.Status == http.StatusBadRequest:
		s.writeRefusedGraphQL(c, res.Body, res.GraphQLCode)
	case s.writeIncremental(ctx, c, sc.in.Bytes(), res.Body): // incremental.go: @defer, @stream
	default:
		// Written before sc goes back to the pool, which also gives back
		// what the answer held of the response budget.
		writeAnswer(c, res.Body, s.cfg.BodyTimeout)
	}
}

// answerPiece is how much of a large answer one write hands the
// connection; the client must take each within the idle time.
const answerPiece = 64 << 10

// writeAnswer writes a 200 GraphQL answer (the runtime's, /graphql's,
// /public-graphql's). A large one goes in pieces, each of
// which the client must take within idle (the connection is closed
// otherwise), so a reader that stops does not hold the answer, and its
// bytes of the node's response budget, for longer than that at a time.
func writeAnswer(c *gin.Context, body []byte, idle time.Duration) {
	if len(body) <= answerPiece || idle <= 0 {
		writeJSON(c, http.StatusOK, body)
		return
	}
	rc := http.NewResponseController(c.Writer)
	if rc.SetWriteDeadline(time.Now().Add(idle)) != nil {
		writeJSON(c, http.StatusOK, body)
		return
	}
	h := c.Writer.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	c.Writer.WriteHeader(http.StatusOK)
	for len(body) > 0 {
		n := min(answerPiece, len(body))
		if _, err := c.Writer.Write(body[:n]); err != nil {
			return // the connection is gone (or timed out): net/http closes it
		}
		body = body[n:]
		_ = rc.SetWriteDeadline(time.Now().Add(idle))
	}
	_ = rc.Flush()
	_ = rc.SetWriteDeadline(time.Time{})
}

// serveIssueActor answers POST /runtime/actors.
func (s *Server) serveIssueActor(c *gin.Context) {
	grant, err := s.b.Runtime.IssueActorToken(c.Request.Context(), runtimeKeyOf(c))
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, grant)
}

// serveReleaseActor answers DELETE /runtime/actors with X-Actor-Token.
func (s *Server) serveReleaseActor(c *gin.Context) {
	if err := s.b.Runtime.ReleaseActorToken(c.Request.Context(), runtimeKeyOf(c), c.GetHeader("X-Actor-Token")); err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"released": true})
}

// waitFault sets the response headers of an injected fault
// (X-Mock-Fault-Applied: what was injected; Server-Timing: fault;dur=<ms>
// for a latency) and waits the latency here, on the HTTP side, never in a
// grain. It stops early and returns false when the client goes away.
// The query timeout does not cut it short: the latency is bounded by
// model.MaxFaultLatencyMs instead.
func waitFault(c *gin.Context, res *model.RuntimeResult) bool {
	h := c.Writer.Header()
	h.Set("X-Mock-Fault-Applied", res.Fault)
	if res.Delay <= 0 {
		return true
	}
	h.Set("Server-Timing", "fault;dur="+strconv.FormatInt(res.Delay.Milliseconds(), 10))
	t := time.NewTimer(res.Delay)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-c.Request.Context().Done():
		return false
	}
}
