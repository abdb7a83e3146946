package http

import (
	"context"

	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/openapi"
)

// The resolvers in this file import and export a project's model (OpenAPI,
// code packages) and compare its schema with a saved baseline.

// Versioning is what the management API's import, export and versioning
// fields ask (docs/using/import-export.md). ExportOpenAPI
// writes the model as OpenAPI 3.1, format json or yaml. ImportOpenAPI adds
// an unbound table for each selected schema of an OpenAPI 3.0/3.1 or
// Swagger 2.0 document (none selected: every object schema), all or none.
// ExportCodePackage returns a generated backend as a base64 zip
// (PROFESSIONAL plan and EDITOR role or above). SetSchemaBaseline saves the
// runtime schema; SchemaChanges compares the current one with it.
type Versioning interface {
	ExportOpenAPI(ctx context.Context, p Principal, projectID, format string) (string, error)
	ImportOpenAPI(ctx context.Context, p Principal, projectID, document string, schemas []string) ([]*model.Table, error)
	ExportCodePackage(ctx context.Context, p Principal, projectID, language string) (string, error)
	SetSchemaBaseline(ctx context.Context, p Principal, projectID string) error
	SchemaChanges(ctx context.Context, p Principal, projectID string) ([]model.SchemaChange, error)
}

// versioningResolvers resolve the import, export and versioning fields.
type versioningResolvers struct {
	*Surface
	b Versioning
}

// roots returns the import, export and versioning root fields by
// "Type.field".
func (s versioningResolvers) roots() map[string]rootFunc {
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
func (s versioningResolvers) exportOpenAPI(ctx context.Context, c *Call, args input) (any, error) {
	return s.b.ExportOpenAPI(ctx, c.Principal, args.str("projectId"), args.str("format"))
}

// openAPISchemas resolves openApiSchemas: pure, no grain involved.
func (s versioningResolvers) openAPISchemas(_ context.Context, _ *Call, args input) (any, error) {
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
func (s versioningResolvers) importOpenAPI(ctx context.Context, c *Call, args input) (any, error) {
	tables, err := s.b.ImportOpenAPI(ctx, c.Principal, args.str("projectId"), args.str("document"), stringList(args["schemas"]))
	if err != nil {
		return nil, err
	}
	return shapeAll(tables, s.shaper(c).table), nil
}

// exportCodePackage resolves exportCodePackage.
func (s versioningResolvers) exportCodePackage(ctx context.Context, c *Call, args input) (any, error) {
	return s.b.ExportCodePackage(ctx, c.Principal, args.str("projectId"), args.str("language"))
}

// setSchemaBaseline resolves setSchemaBaseline.
func (s versioningResolvers) setSchemaBaseline(ctx context.Context, c *Call, args input) (any, error) {
	return done(s.b.SetSchemaBaseline(ctx, c.Principal, args.str("projectId")))
}

// schemaChanges resolves schemaChanges.
func (s versioningResolvers) schemaChanges(ctx context.Context, c *Call, args input) (any, error) {
	changes, err := s.b.SchemaChanges(ctx, c.Principal, args.str("projectId"))
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
