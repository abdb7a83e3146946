package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/internal/upstream"
	"github.com/mockgql/mockgql/model"
)

// The drift check (docs/using/testing.md): how the real API a project
// stands in for differs from the project's schema, and which of a
// client's operations validate on one and not the other.

// Bounds of checkOperations (docs/reference/bounds.md).
const (
	MaxCheckDocuments     = 200
	MaxCheckDocumentBytes = 1 << 20 // all documents together
)

// CheckUpstream introspects the GraphQL endpoint at url (with headers)
// and compares its schema with the project's runtime schema, as a client
// written against the mock meets the real API: a field the mock has and
// the upstream lacks is BREAKING (VIEWER and above).
func (s *Management) CheckUpstream(ctx context.Context, p model.Principal, projectID, url string, headers []model.UpstreamHeader) (*model.UpstreamCheck, error) {
	mock, err := s.mockSchema(ctx, p, projectID)
	if err != nil {
		return nil, err
	}
	up, err := s.upstreamSchema(ctx, url, headers)
	if err != nil {
		return nil, err
	}
	changes, err := graphql.DiffSchemas(mock.SDL(), up.SDL)
	if err != nil {
		return nil, err
	}
	out := &model.UpstreamCheck{URL: url, Changes: changes}
	if out.Changes == nil {
		out.Changes = []model.SchemaChange{}
	}
	for _, c := range changes {
		if c.Criticality == model.ChangeBreaking {
			out.Breaking++
		}
	}
	return out, nil
}

// CheckOperations validates each of documents (a client's operation
// documents) against the project's runtime schema and, when url is not
// empty, against the upstream's, under the runtime's document bounds
// (VIEWER and above).
func (s *Management) CheckOperations(ctx context.Context, p model.Principal, projectID string, documents []string, url string, headers []model.UpstreamHeader) ([]model.OperationCheck, error) {
	if len(documents) > MaxCheckDocuments {
		return nil, model.Errorf(model.CodeLimitReached, "%d documents; checkOperations takes at most %d", len(documents), MaxCheckDocuments)
	}
	n := 0
	for _, d := range documents {
		n += len(d)
	}
	if n > MaxCheckDocumentBytes {
		return nil, model.Errorf(model.CodePayloadTooLarge, "the documents hold %s; checkOperations takes at most %s", model.Bytes(int64(n)), model.Bytes(MaxCheckDocumentBytes))
	}
	mock, err := s.mockSchema(ctx, p, projectID)
	if err != nil {
		return nil, err
	}
	mockEx, err := exec.NewExecutor(exec.Executor{Schema: mock.Schema(), CacheSize: len(documents) + 1})
	if err != nil {
		return nil, err
	}
	var upEx *exec.Executor
	if url != "" {
		up, err := s.upstreamSchema(ctx, url, headers)
		if err != nil {
			return nil, err
		}
		if upEx, err = exec.NewExecutor(exec.Executor{Schema: up.AST, CacheSize: len(documents) + 1}); err != nil {
			return nil, model.Errorf(model.CodeUnavailable, "the upstream's schema cannot validate documents: %v", err)
		}
	}
	out := make([]model.OperationCheck, 0, len(documents))
	for i, d := range documents {
		c := model.OperationCheck{Name: operationNames(d, i), MockErrors: messages(mockEx.Check(ctx, d))}
		if upEx != nil {
			c.UpstreamErrors = messages(upEx.Check(ctx, d))
			c.Differs = (len(c.MockErrors) == 0) != (len(c.UpstreamErrors) == 0)
		}
		if ctx.Err() != nil {
			return nil, model.Errorf(model.CodeQueryTimeout, "checkOperations: the documents could not be validated within the request's time limit")
		}
		out = append(out, c)
	}
	return out, nil
}

// mockSchema is the project's runtime schema, as its runtime serves it.
func (s *Management) mockSchema(ctx context.Context, p model.Principal, projectID string) (*graphql.Runtime, error) {
	pr, err := s.readProject(ctx, p, projectID, "")
	if err != nil {
		return nil, err
	}
	return graphql.Compile(pr, graphql.Options{})
}

// upstreamSchema introspects url and reads the answer as an import does:
// within the schema bounds and validation slots, so a hostile upstream
// costs what a hostile import does.
func (s *Management) upstreamSchema(ctx context.Context, url string, headers []model.UpstreamHeader) (*contract.Schema, error) {
	c := s.Upstream
	if c == nil {
		c = &upstream.Client{}
	}
	body, err := c.Introspect(ctx, url, headers)
	if err != nil {
		return nil, err
	}
	sc, err := contract.ParseContext(ctx, body, upstream.MaxBytes)
	if err != nil {
		return nil, model.Errorf(model.ErrorCode(err), "the upstream's schema: %s", model.ErrorMessage(err))
	}
	return sc, nil
}

// operationNames names a document by its operations ("GetUser" or
// "GetUser, GetPosts"), else "document N" (1-based).
func operationNames(doc string, i int) string {
	var names []string
	// Bounded as the checks' own parse is: a document past the token
	// bound is named by its number.
	if d, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: doc}, exec.DefaultMaxTokens); err == nil {
		for _, op := range d.Operations {
			if op.Name != "" {
				names = append(names, op.Name)
			}
		}
	}
	if len(names) == 0 || len(names) > 5 {
		return fmt.Sprintf("document %d", i+1)
	}
	return strings.Join(names, ", ")
}

// messages are the errors' messages, each with its line and column.
func messages(errs []*gqlerror.Error) []string {
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		m := e.Message
		if len(e.Locations) > 0 {
			m = fmt.Sprintf("%s (line %d, column %d)", m, e.Locations[0].Line, e.Locations[0].Column)
		}
		out = append(out, m)
	}
	return out
}
