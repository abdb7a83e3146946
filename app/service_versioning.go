package app

import (
	"context"

	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/model"
)

// Schema versioning (docs/using/import-export.md): a project keeps one baseline
// of its runtime schema, and schemaChanges compares the current schema
// with it.

// SetSchemaBaseline saves the project's current runtime schema as its
// baseline (EDITOR and above).
func (s *Management) SetSchemaBaseline(ctx context.Context, p model.Principal, projectID string) error {
	c, err := s.edit(ctx, p, projectID)
	if err == nil {
		err = c.SetBaseline(ctx)
	}
	return err
}

// SchemaChanges compares the project's runtime schema with its baseline
// (VIEWER and above): BREAKING changes first, then DANGEROUS, then SAFE.
// NOT_FOUND when no baseline was saved.
func (s *Management) SchemaChanges(ctx context.Context, p model.Principal, projectID string) ([]model.SchemaChange, error) {
	pr, err := s.readProject(ctx, p, projectID, "")
	if err != nil {
		return nil, err
	}
	if pr.Baseline == "" {
		return nil, model.Errorf(model.CodeNotFound, "project %s has no schema baseline yet; save one with setSchemaBaseline", pr.Slug)
	}
	rt, err := graphql.Compile(pr, graphql.Options{})
	if err != nil {
		return nil, err
	}
	changes, err := graphql.DiffSchemas(pr.Baseline, rt.SDL())
	if changes == nil {
		changes = []model.SchemaChange{}
	}
	return changes, err
}
