package http

import (
	"context"

	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// DatasetAPI is what the management API's one-step modelling asks: the
// attribute guesses of a dataset's paths, a whole bound table with its
// operations, and a bound table's missing attributes (schema
// "datasetFields", "createApiFromDataset", "createAttributesFromDataset").
// All methods are safe for concurrent use.
type DatasetAPI interface {
	DatasetFields(ctx context.Context, p Principal, projectID, importCode string) ([]model.FieldGuess, error)
	CreateAPIFromDataset(ctx context.Context, p Principal, in model.DatasetAPIInput) (*model.Table, []*model.Operation, error)
	CreateAttributesFromDataset(ctx context.Context, p Principal, tableID string, fields []model.FieldChoice) ([]*model.Attribute, error)
	// ValueCounts counts how attribute's values repeat in the rows table
	// tableID reads (schema "valueCounts").
	ValueCounts(ctx context.Context, p Principal, tableID, attribute string) (model.ValueCounts, error)
}

// datasetAPIResolvers resolve the one-step modelling fields.
type datasetAPIResolvers struct {
	*Surface
	b DatasetAPI
}

// datasetAPIRoots maps the one-step modelling root fields.
func (s *Surface) datasetAPIRoots(d DatasetAPI) map[string]exec.Resolver {
	r := datasetAPIResolvers{s, d}
	return map[string]exec.Resolver{
		"Query.datasetFields":                  s.authed(r.datasetFields),
		"Mutation.createApiFromDataset":        s.authed(r.createAPI),
		"Mutation.createAttributesFromDataset": s.authed(r.createAttributes),
		"Query.valueCounts":                    s.authed(r.valueCounts),
	}
}

// datasetFields resolves Query.datasetFields.
func (s datasetAPIResolvers) datasetFields(ctx context.Context, c *Call, args input) (any, error) {
	gs, err := s.b.DatasetFields(ctx, c.Principal, args.str("projectId"), args.str("importCode"))
	if err != nil {
		return nil, err
	}
	return shapeAll(gs, fieldGuess), nil
}

// fieldGuess shapes a FieldGuess.
func fieldGuess(g model.FieldGuess) any {
	return map[string]any{"path": g.Path, "name": g.Name, "type": string(g.Type), "samples": g.Samples}
}

// createAPI resolves Mutation.createApiFromDataset.
func (s datasetAPIResolvers) createAPI(ctx context.Context, c *Call, args input) (any, error) {
	in := args.object("input")
	t, ops, err := s.b.CreateAPIFromDataset(ctx, c.Principal, model.DatasetAPIInput{
		ProjectID: in.str("projectId"), ImportCode: in.str("importCode"), Variant: in.strPtr("variant"),
		Table: in.str("tableName"), Fields: fieldChoices(in["fields"]),
	})
	if err != nil {
		return nil, err
	}
	sh := s.shaper(c)
	return map[string]any{"table": sh.table(t), "operations": shapeList(ops, sh.operation)}, nil
}

// createAttributes resolves Mutation.createAttributesFromDataset.
func (s datasetAPIResolvers) createAttributes(ctx context.Context, c *Call, args input) (any, error) {
	as, err := s.b.CreateAttributesFromDataset(ctx, c.Principal, args.str("tableId"), fieldChoices(args["fields"]))
	if err != nil {
		return nil, err
	}
	return shapeAll(as, s.shaper(c).attribute), nil
}

// fieldChoices returns a [FieldChoiceInput!] value: nil when absent or
// null, non-nil (perhaps empty) otherwise.
func fieldChoices(v any) []model.FieldChoice {
	list, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]model.FieldChoice, 0, len(list))
	for _, item := range list {
		in := input(asMap(item))
		out = append(out, model.FieldChoice{Path: in.str("path"), Name: in.str("name"), Type: model.ScalarType(in.str("type"))})
	}
	return out
}

// valueCounts resolves Query.valueCounts.
func (s datasetAPIResolvers) valueCounts(ctx context.Context, c *Call, args input) (any, error) {
	v, err := s.b.ValueCounts(ctx, c.Principal, args.str("tableId"), args.str("attribute"))
	if err != nil {
		return nil, err
	}
	return map[string]any{"rows": v.Rows, "scanned": v.Scanned, "nulls": v.Nulls, "distinct": v.Distinct, "duplicates": v.Duplicates}, nil
}
