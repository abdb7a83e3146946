package app

import (
	"context"

	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// The model edits: each finds the project from the ID it is given and runs
// in that project's grain.

// CreateTable adds a table.
func (s modelCreation) CreateTable(ctx context.Context, p model.Principal, projectID, name string, source *model.TableSource) (*model.Table, error) {
	if err := s.checkBindable(ctx, p, projectID, source); err != nil {
		return nil, err
	}
	c, err := s.edit(ctx, p, projectID)
	if err != nil {
		return nil, err
	}
	return c.CreateTable(ctx, name, source)
}

// UpdateTable renames or rebinds a table.
func (s modelEditing) UpdateTable(ctx context.Context, p model.Principal, tableID string, patch model.TablePatch) (*model.Table, error) {
	if err := s.checkBindable(ctx, p, ids.ProjectOf(tableID), patch.Source); err != nil {
		return nil, err
	}
	c, err := s.edit(ctx, p, ids.ProjectOf(tableID), "tableId", tableID)
	if err != nil {
		return nil, err
	}
	return c.UpdateTable(ctx, tableID, patch)
}

// DeleteTable removes a table.
func (s modelEditing) DeleteTable(ctx context.Context, p model.Principal, tableID string) error {
	c, err := s.edit(ctx, p, ids.ProjectOf(tableID), "tableId", tableID)
	if err != nil {
		return err
	}
	return c.DeleteTable(ctx, tableID)
}

// CreateAttribute adds an attribute to a.TableID.
func (s modelCreation) CreateAttribute(ctx context.Context, p model.Principal, a model.Attribute) (*model.Attribute, error) {
	c, err := s.edit(ctx, p, ids.ProjectOf(a.TableID))
	if err != nil {
		return nil, err
	}
	return c.CreateAttribute(ctx, a)
}

// UpdateAttribute changes an attribute.
func (s modelEditing) UpdateAttribute(ctx context.Context, p model.Principal, attributeID string, patch model.AttributePatch) (*model.Attribute, error) {
	c, err := s.edit(ctx, p, ids.ProjectOf(attributeID), "attributeId", attributeID)
	if err != nil {
		return nil, err
	}
	return c.UpdateAttribute(ctx, attributeID, patch)
}

// DeleteAttribute removes an attribute.
func (s modelEditing) DeleteAttribute(ctx context.Context, p model.Principal, attributeID string) error {
	c, err := s.edit(ctx, p, ids.ProjectOf(attributeID), "attributeId", attributeID)
	if err != nil {
		return err
	}
	return c.DeleteAttribute(ctx, attributeID)
}

// CreateRelation links two tables of one project.
func (s modelCreation) CreateRelation(ctx context.Context, p model.Principal, r model.Relation) (*model.Relation, error) {
	if ids.ProjectOf(r.SourceTableID) != ids.ProjectOf(r.TargetTableID) {
		return nil, model.Errorf(model.CodeBadUserInput, "a relation links two tables of the same project")
	}
	c, err := s.edit(ctx, p, ids.ProjectOf(r.SourceTableID))
	if err != nil {
		return nil, err
	}
	return c.CreateRelation(ctx, r)
}

// DeleteRelation removes a relation.
func (s modelEditing) DeleteRelation(ctx context.Context, p model.Principal, relationID string) error {
	c, err := s.edit(ctx, p, ids.ProjectOf(relationID), "relationId", relationID)
	if err != nil {
		return err
	}
	return c.DeleteRelation(ctx, relationID)
}

// GenerateDefaultOperations adds the five default operations of a table (or of every table).
func (s modelCreation) GenerateDefaultOperations(ctx context.Context, p model.Principal, projectID, tableID string) ([]*model.Operation, error) {
	if tableID != "" && ids.ProjectOf(tableID) != projectID {
		return nil, model.Errorf(model.CodeNotFound, "table %q is not in project %q", tableID, projectID)
	}
	c, err := s.edit(ctx, p, projectID, "tableId", tableID)
	if err != nil {
		return nil, err
	}
	return c.GenerateOperations(ctx, tableID) // none generated: nil
}

// CreateOperation adds an operation.
func (s modelEditing) CreateOperation(ctx context.Context, p model.Principal, o model.Operation) (*model.Operation, error) {
	c, err := s.edit(ctx, p, ids.ProjectOf(o.TableID))
	if err != nil {
		return nil, err
	}
	return c.CreateOperation(ctx, o)
}

// UpdateOperation renames, enables/disables an operation or sets its parameters.
func (s modelEditing) UpdateOperation(ctx context.Context, p model.Principal, operationID string, patch model.OperationPatch) (*model.Operation, error) {
	c, err := s.edit(ctx, p, ids.ProjectOf(operationID), "operationId", operationID)
	if err != nil {
		return nil, err
	}
	return c.UpdateOperation(ctx, operationID, patch)
}

// DeleteOperation removes an operation.
func (s modelEditing) DeleteOperation(ctx context.Context, p model.Principal, operationID string) error {
	c, err := s.edit(ctx, p, ids.ProjectOf(operationID), "operationId", operationID)
	if err != nil {
		return err
	}
	return c.DeleteOperation(ctx, operationID)
}

// GenerateMissingViews gives every table default views.
func (s modelCreation) GenerateMissingViews(ctx context.Context, p model.Principal, projectID string) ([]*model.View, error) {
	c, err := s.edit(ctx, p, projectID)
	if err != nil {
		return nil, err
	}
	return c.GenerateViews(ctx) // none generated: nil
}
