package http

import (
	"context"
	_ "embed"

	"github.com/mockgql/mockgql/model"
)

// upstreamSDL is the drift check's part of the management schema
// (docs/using/testing.md).
//
//go:embed schema/upstream.graphql
var upstreamSDL string

// Upstreams is the drift check: the differences between a project's
// schema and the real API it stands in for, and a client's documents
// checked against both (VIEWER and above).
type Upstreams interface {
	CheckUpstream(ctx context.Context, p Principal, projectID, url string, headers []model.UpstreamHeader) (*model.UpstreamCheck, error)
	CheckOperations(ctx context.Context, p Principal, projectID string, documents []string, url string, headers []model.UpstreamHeader) ([]model.OperationCheck, error)
}

// upstreamResolvers resolve the root fields of schema/upstream.graphql.
type upstreamResolvers struct {
	*Surface
	b Upstreams
}

// roots returns the drift check's root fields; both need a credential.
func (s upstreamResolvers) roots() map[string]rootFunc {
	return map[string]rootFunc{
		"Query.checkUpstream":   s.checkUpstream,
		"Query.checkOperations": s.checkOperations,
	}
}

func (s upstreamResolvers) checkUpstream(ctx context.Context, c *Call, args input) (any, error) {
	r, err := s.b.CheckUpstream(ctx, c.Principal, args.str("projectId"), args.str("url"), upstreamHeaders(args["headers"]))
	if err != nil {
		return nil, err
	}
	return map[string]any{"url": r.URL, "changes": shapeAll(r.Changes, schemaChange), "breaking": r.Breaking}, nil
}

func (s upstreamResolvers) checkOperations(ctx context.Context, c *Call, args input) (any, error) {
	r, err := s.b.CheckOperations(ctx, c.Principal, args.str("projectId"), stringList(args["documents"]), args.str("url"), upstreamHeaders(args["headers"]))
	if err != nil {
		return nil, err
	}
	return shapeAll(r, func(o model.OperationCheck) any {
		return map[string]any{"name": o.Name, "mockErrors": nonNil(o.MockErrors), "upstreamErrors": nonNil(o.UpstreamErrors), "differs": o.Differs}
	}), nil
}

// upstreamHeaders reads a [UpstreamHeaderInput!] value.
func upstreamHeaders(v any) []model.UpstreamHeader {
	list, _ := v.([]any)
	out := make([]model.UpstreamHeader, 0, len(list))
	for _, item := range list {
		if m, ok := item.(map[string]any); ok {
			name, _ := m["name"].(string)
			value, _ := m["value"].(string)
			out = append(out, model.UpstreamHeader{Name: name, Value: value})
		}
	}
	return out
}
