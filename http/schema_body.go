package http

import (
	"bytes"
	"context"
	"io"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// A GraphQL schema is the one thing a /graphql or /public-graphql request
// carries that may be larger than the surface's body bound: a request
// whose operation selects only the root fields that take a schema
// (schemaRoots) may be up to MaxSchemaBodyBytes, enough for
// contract.MaxDocumentBytes in a JSON string, every byte escaped
// (docs/reference/bounds.md, "Requests and responses"). Any other body
// over the surface's bound is refused as before. At most
// Config.SchemaBodies such bodies are read at once on a node, so they hold
// at most that many times MaxSchemaBodyBytes.

// DefaultMaxSchemaBodyBytes is the bound of a request carrying a schema.
const DefaultMaxSchemaBodyBytes = 2*contract.MaxDocumentBytes + 1<<20

// DefaultSchemaBodies is how many bodies over the surface's bound a node
// reads at once.
const DefaultSchemaBodies = 2

// schemaRoots are the root fields whose argument is a whole schema
// document (importGraphQLSchema, checkGraphQLSchema, createProject(sdl:)).
var schemaRoots = map[string]bool{"importGraphQLSchema": true, "checkGraphQLSchema": true, "createProject": true, "__typename": true}

// readSurfaceBody reads the body of a /graphql or /public-graphql POST
// into buf: at most max bytes, or big for a schema import (the caller
// passes 0 where a request could not import one). The first max bytes
// are read as any body is; only a longer one waits for a slot to read
// the rest.
func (s *Server) readSurfaceBody(c *gin.Context, max, big int64, buf *bytes.Buffer) error {
	n := c.Request.ContentLength
	if big <= max || n >= 0 && n <= max {
		return readBody(c, max, buf)
	}
	if n > big {
		return tooLarge(max, big)
	}
	if err := readMore(c, buf, max); err != nil || int64(buf.Len()) <= max {
		return err
	}
	release, err := s.schemaBodySlot(c.Request.Context())
	if err != nil {
		return err
	}
	defer release()
	if err := readMore(c, buf, big); err != nil {
		return err
	}
	if int64(buf.Len()) > big || !importsSchema(buf.Bytes()) {
		return tooLarge(max, big)
	}
	return nil
}

// readMore reads the body on into buf until it holds more than max bytes
// or the body ends (then the body's deadline is cleared).
func readMore(c *gin.Context, buf *bytes.Buffer, max int64) error {
	if _, err := buf.ReadFrom(io.LimitReader(c.Request.Body, max+1-int64(buf.Len()))); err != nil {
		return model.Errorf(model.CodeBadRequest, "reading the request body failed: %v", err)
	}
	if int64(buf.Len()) <= max {
		clearBodyDeadline(c)
	}
	return nil
}

// tooLarge is the refusal of a body over max (big for a schema import).
func tooLarge(max, big int64) error {
	return &model.Error{Code: model.CodePayloadTooLarge, Message: "the request body is larger than " + model.Size(max) +
		"; only a request whose operation is importGraphQLSchema, checkGraphQLSchema or createProject (with sdl) may be larger, up to " + model.Size(big)}
}

// schemaBodySlot takes one of the node's Config.SchemaBodies slots,
// waiting at most BodyTimeout; it answers UNAVAILABLE when none frees.
func (s *Server) schemaBodySlot(ctx context.Context) (func(), error) {
	t := time.NewTimer(s.cfg.BodyTimeout)
	defer t.Stop()
	select {
	case s.schemaBodies <- struct{}{}:
		return func() { <-s.schemaBodies }, nil
	case <-ctx.Done():
	case <-t.C:
	}
	return nil, &model.Error{Code: model.CodeUnavailable, Message: "this node is reading other schema imports; retry", RetryAfter: 1}
}

// importsSchema reports whether body is a GraphQL request whose operation
// selects only schemaRoots fields, without fragments or directives.
func importsSchema(body []byte) bool {
	req, err := exec.DecodeRequest(body)
	if err != nil {
		return false
	}
	doc, gerr := parser.ParseQuery(&ast.Source{Input: req.Query})
	if gerr != nil || len(doc.Fragments) > 0 {
		return false
	}
	var op *ast.OperationDefinition
	for _, o := range doc.Operations {
		if req.OperationName == "" && len(doc.Operations) == 1 || o.Name == req.OperationName {
			op = o
		}
	}
	if op == nil || len(op.SelectionSet) == 0 {
		return false
	}
	for _, sel := range op.SelectionSet {
		f, ok := sel.(*ast.Field)
		if !ok || !schemaRoots[f.Name] || len(f.Directives) > 0 {
			return false
		}
	}
	return true
}
