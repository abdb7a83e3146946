package http

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/mockgql/mockgql/model"
)

// requestIDs names the requests of this process: a random prefix, so IDs
// of different nodes and restarts do not collide, and a counter. An ID
// only has to be unique; reading the system's randomness per request cost
// a system call on the hot path.
var requestIDs = struct {
	prefix string
	n      atomic.Uint64
}{prefix: func() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:]) + "-"
}()}

// newRequestID returns the process's next request ID.
func newRequestID() string {
	return requestIDs.prefix + strconv.FormatUint(requestIDs.n.Add(1), 36)
}

// requestID is the ID requestLog gave c (echoed in X-Request-Id).
func requestID(c *gin.Context) string { return c.Writer.Header().Get("X-Request-Id") }

// requestLog tags the request with an ID (X-Request-Id, echoed) and logs one
// line when it ends.
func (s *Server) requestLog(c *gin.Context) {
	id := c.GetHeader("X-Request-Id")
	if id == "" || len(id) > 64 {
		id = newRequestID()
	}
	c.Header("X-Request-Id", id)
	if !s.log.Enabled(c.Request.Context(), slog.LevelInfo) {
		c.Next() // no line: neither its arguments nor the clock are needed
		return
	}
	start := time.Now()
	c.Next()
	s.log.Info("request", "id", id, "method", model.Clip(c.Request.Method, 16), "path", logPath(c.Request.URL.Path),
		"status", c.Writer.Status(), "bytes", c.Writer.Size(), "ms", float64(time.Since(start).Microseconds())/1000,
		"ip", c.ClientIP())
}

// adoptPath is the route whose last segment is a credential, the one-time
// adoption link (docs/reference/routes.md).
const adoptPath = "/auth/adopt/"

// logPath is a request path as log lines repeat it: clipped, and with the
// credential a path may carry (an adoption token) redacted, as every other
// credential is kept out of the log (keys and JWTs travel in headers and
// cookies, share tokens in the query string; neither is logged). Metrics
// label routes, never paths.
func logPath(p string) string {
	if strings.HasPrefix(p, adoptPath) && len(p) > len(adoptPath) {
		return adoptPath + "[redacted]"
	}
	return model.Clip(p, maxEchoPath)
}

// recoverPanics turns a panic into a 500 with the error body; the stack
// goes to the log, never to the client.
func (s *Server) recoverPanics(c *gin.Context) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("handler panicked", "panic", model.Clip(fmt.Sprint(p), maxEchoDetail), "stack", string(debug.Stack()))
			s.writeError(c, fmt.Errorf("panic: %v", p))
		}
	}()
	c.Next()
}
