package http

import (
	"context"

	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/model/openapi"
)

// The resolvers in this file import and export a project's model (OpenAPI,
// code packages) and compare its schema with a saved baseline.

// versioningResolvers returns the import, export and versioning root
// fields by "Type.field".
func (s *Surface) versioningResolvers() map[string]rootFunc {
	return map[string]rootFunc{
		"Query.exportOpenApi":        s.exportOpenAPI,
		"Query.schemaChanges":        s.schemaChanges,
		"Query.openApiSchemas":       s.openAPISchemas,
		"Mutation.importOpenApi":     s.importOpenAPI,
		"Mutation.exportCodePackage": s.exportCodePackage,
		"Mutation.setSchemaBaseline": s.setSchemaBaseline,
	}
}

// exportOpenAPI resolves exportOpenApi; format defaults to json in the schema.
func (s *Surface) exportOpenAPI(ctx context.Context, c *Call, args input) (any, error) {
	return s.cfg.Backend.ExportOpenAPI(ctx, c.Principal, args.str("projectId"), args.str("format"))
}

// openAPISchemas resolves openApiSchemas: pure, no grain involved.
func (s *Surface) openAPISchemas(_ context.Context, _ *Call, args input) (any, error) {
	list, err := openapi.Schemas([]byte(args.str("document")), openapi.ImportOptions{})
	if err != nil {
		return nil, err
	}
	out := make([]any, len(list))
	for i, x := range list {
		out[i] = map[string]any{"name": x.Name, "importable": x.Object, "properties": x.Properties}
	}
	return out, nil
}

// importOpenAPI resolves importOpenApi; absent or null schemas select all.
func (s *Surface) importOpenAPI(ctx context.Context, c *Call, args input) (any, error) {
	tables, err := s.cfg.Backend.ImportOpenAPI(ctx, c.Principal, args.str("projectId"), args.str("document"), stringList(args["schemas"]))
	if err != nil {
		return nil, err
	}
	return shapeAll(tables, s.shaper(c).table), nil
}

// exportCodePackage resolves exportCodePackage.
func (s *Surface) exportCodePackage(ctx context.Context, c *Call, args input) (any, error) {
	return s.cfg.Backend.ExportCodePackage(ctx, c.Principal, args.str("projectId"), args.str("language"))
}

// setSchemaBaseline resolves setSchemaBaseline.
func (s *Surface) setSchemaBaseline(ctx context.Context, c *Call, args input) (any, error) {
	return done(s.cfg.Backend.SetSchemaBaseline(ctx, c.Principal, args.str("projectId")))
}

// schemaChanges resolves schemaChanges.
func (s *Surface) schemaChanges(ctx context.Context, c *Call, args input) (any, error) {
	changes, err := s.cfg.Backend.SchemaChanges(ctx, c.Principal, args.str("projectId"))
	if err != nil {
		return nil, err
	}
	return shapeAll(changes, schemaChange), nil
}

// schemaChange shapes a SchemaChange.
func schemaChange(ch model.SchemaChange) any {
	return map[string]any{"type": ch.Type, "criticality": ch.Criticality, "path": ch.Path, "message": ch.Message}
}

// stringList returns a [String!] value: nil when absent or null.
func stringList(v any) []string {
	list, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(list))
	for _, item := range list {
		if s, ok := item.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
