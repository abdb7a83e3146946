package http

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"sync"

	"github.com/gin-gonic/gin"

	"github.com/mockgql/mockgql/model"
)

// bodyPool recycles request body buffers on the runtime's hot path.
var bodyPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// readBody reads at most max bytes of the request body; more is a 413.
func readBody(c *gin.Context, max int64, buf *bytes.Buffer) error {
	if c.Request.ContentLength > max {
		return model.Errorf(model.ErrPayloadTooLarge, "the request body is larger than %d bytes", max)
	}
	n, err := buf.ReadFrom(io.LimitReader(c.Request.Body, max+1))
	if err != nil {
		return model.Errorf(model.ErrBadRequest, "reading the request body failed: %v", err)
	}
	if n > max {
		return model.Errorf(model.ErrPayloadTooLarge, "the request body is larger than %d bytes", max)
	}
	return nil
}

// serveRuntime answers POST /mock/{slug}/graphql. The checks run in API.md's
// order inside Service.Runtime and the project grain: slug, credential, key
// scope and project, body and GraphQL validity, execution.
func (s *Server) serveRuntime(c *gin.Context) {
	buf := bodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bodyPool.Put(buf)
	if err := readBody(c, s.cfg.MaxBodyBytes, buf); err != nil {
		s.writeError(c, err)
		return
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), s.cfg.QueryTimeout)
	defer cancel()
	res, err := s.runtime.Runtime(ctx, model.RuntimeRequest{Slug: c.Param("slug"), KeyValue: apiKeyOf(c),
		ShareToken: c.Query("token"), Body: buf.Bytes()})
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) && c.Request.Context().Err() == nil && err != nil:
		s.writeError(c, &model.Error{Code: model.ErrQueryTimeout, Message: "the query ran past the time limit; narrow it and retry", RetryAfter: 1})
	case err != nil:
		s.writeError(c, err)
	case res.Status == http.StatusBadRequest:
		s.writeRefusedGraphQL(c, res.Body, res.GraphQLCode)
	default:
		c.Data(http.StatusOK, "application/json", res.Body)
	}
}
