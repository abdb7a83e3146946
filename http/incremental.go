package http

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/graphql/exec/incremental"
)

// incrementalFormat reads which incremental delivery format, if any, an
// Accept header takes (docs/using/runtime.md#defer-and-stream):
// multipart/mixed with deferSpec=20220824 is Apollo Client 3's format;
// multipart/mixed with incrementalSpec=v0.2 (Apollo Client 4, Apollo
// Server 5.1's negotiation, https://specs.apollo.dev/incremental/v0.2)
// or with no spec parameter (meros, Relay setups) is graphql-js 17's.
// A range with q=0, or naming another spec, is not taken; 0 means none.
func incrementalFormat(accept string) incremental.Format {
	if !strings.Contains(strings.ToLower(accept), "multipart/mixed") {
		return 0
	}
	for _, rng := range strings.Split(accept, ",") {
		params := strings.Split(rng, ";")
		if !strings.EqualFold(strings.TrimSpace(params[0]), "multipart/mixed") {
			continue
		}
		f := incremental.V02
		for _, p := range params[1:] {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			v = strings.Trim(strings.TrimSpace(v), `"`)
			switch {
			case strings.EqualFold(k, "q") && strings.Trim(v, "0.") == "":
				f = 0
			case strings.EqualFold(k, "deferSpec") && v == "20220824":
				f = incremental.Spec20220824
			case strings.EqualFold(k, "deferSpec"):
				f = 0
			case strings.EqualFold(k, "incrementalSpec") && v != "v0.2":
				f = 0
			}
		}
		if f != 0 {
			return f
		}
	}
	return 0
}

// incrementalPart is the header of every part of a multipart answer.
const incrementalPart = "\r\nContent-Type: application/json; charset=utf-8\r\n\r\n"

// writeIncremental writes the complete answer to a request with @defer or
// @stream as multipart/mixed parts (incremental.Split) when the client
// accepts them, and reports whether it did. It does not when the answer
// defers nothing, when the parts would pass the response-bytes bound (the
// complete answer is written instead), or when ctx (the query's deadline)
// ends first. A client that leaves stops the writing.
func (s *Server) writeIncremental(ctx context.Context, c *gin.Context, request, answer []byte) bool {
	f := incrementalFormat(c.GetHeader("Accept"))
	if f == 0 || !bytes.Contains(request, []byte("defer")) && !bytes.Contains(request, []byte("stream")) {
		return false
	}
	req, err := exec.DecodeRequest(request)
	if err != nil {
		return false
	}
	parts, err := incremental.Split(ctx, req, answer, f, s.cfg.MaxIncrements)
	if err != nil || parts == nil {
		return errors.Is(c.Request.Context().Err(), context.Canceled)
	}
	size := len("\r\n---") + len("--\r\n")
	for _, p := range parts {
		size += len(incrementalPart) + len(p) + len("\r\n---")
	}
	if size > s.maxResponseBytes() {
		return false
	}
	if b := s.cfg.Bounds.Budget; b != nil { // the parts are answer bytes too, held while written
		defer b.Give(b.HoldAnswer(size))
	}
	writeParts(c, parts, f, s.cfg.BodyTimeout)
	return true
}

// maxResponseBytes is the response-bytes bound of a runtime answer.
func (s *Server) maxResponseBytes() int {
	if s.cfg.Bounds.MaxResponseBytes > 0 {
		return s.cfg.Bounds.MaxResponseBytes
	}
	return exec.DefaultMaxResponseBytes
}

// writeParts writes parts as a multipart/mixed answer with the boundary
// "-", flushing each part so the client reads it at once; each write
// must be taken within idle, as writeAnswer's pieces.
func writeParts(c *gin.Context, parts [][]byte, f incremental.Format, idle time.Duration) {
	h := c.Writer.Header()
	ct := `multipart/mixed; boundary="-"`
	if f == incremental.Spec20220824 {
		ct += "; deferSpec=20220824"
	}
	h.Set("Content-Type", ct)
	h.Add("Vary", "Accept")
	c.Writer.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(c.Writer)
	if _, err := c.Writer.Write([]byte("\r\n---")); err != nil {
		return
	}
	for _, p := range parts {
		if c.Request.Context().Err() != nil {
			return
		}
		if idle > 0 {
			_ = rc.SetWriteDeadline(time.Now().Add(idle))
		}
		if _, err := c.Writer.Write(append(append([]byte(incrementalPart), p...), "\r\n---"...)); err != nil {
			return
		}
		_ = rc.Flush()
	}
	_, _ = c.Writer.Write([]byte("--\r\n"))
	_ = rc.Flush()
	_ = rc.SetWriteDeadline(time.Time{})
}
