package http

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/gin-gonic/gin"
)

const ctxRequestID = "request_id"

// newRequestID returns 16 random hex characters.
func newRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// requestLog tags the request with an ID (X-Request-Id, echoed) and logs one
// line when it ends.
func (s *Server) requestLog(c *gin.Context) {
	start := time.Now()
	id := c.GetHeader("X-Request-Id")
	if id == "" || len(id) > 64 {
		id = newRequestID()
	}
	c.Set(ctxRequestID, id)
	c.Header("X-Request-Id", id)
	c.Next()
	if !s.log.Enabled(c.Request.Context(), slog.LevelInfo) {
		return // the arguments below cost even when the line is dropped
	}
	s.log.Info("request", "id", id, "method", c.Request.Method, "path", c.Request.URL.Path,
		"status", c.Writer.Status(), "bytes", c.Writer.Size(), "ms", float64(time.Since(start).Microseconds())/1000,
		"ip", c.ClientIP())
}

// recoverPanics turns a panic into a 500 with the error body; the stack
// goes to the log, never to the client.
func (s *Server) recoverPanics(c *gin.Context) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("handler panicked", "panic", p, "stack", string(debug.Stack()))
			s.writeError(c, fmt.Errorf("panic: %v", p))
		}
	}()
	c.Next()
}
