package actors

import (
	"context"

	"github.com/mockgql/mockgql/model"
)

// The model edits: each finds the project from the ID it is given and runs
// in that project's grain.

// CreateTable adds a table.
func (s *Service) CreateTable(ctx context.Context, p model.Principal, projectID, name string, source *model.TableSource) (*model.Table, error) {
	var t model.Table
	return &t, s.edit(ctx, p, projectID, "createTable", editArgs{Name: &name, Source: source}, &t)
}

// UpdateTable renames or rebinds a table.
func (s *Service) UpdateTable(ctx context.Context, p model.Principal, tableID string, patch model.TablePatch) (*model.Table, error) {
	var t model.Table
	return &t, s.edit(ctx, p, projectOf(tableID), "updateTable", editArgs{TableID: tableID, Name: patch.Name, Source: patch.Source}, &t)
}

// DeleteTable removes a table.
func (s *Service) DeleteTable(ctx context.Context, p model.Principal, tableID string) error {
	return s.edit(ctx, p, projectOf(tableID), "deleteTable", editArgs{TableID: tableID}, nil)
}

// CreateAttribute adds an attribute to a.TableID.
func (s *Service) CreateAttribute(ctx context.Context, p model.Principal, a model.Attribute) (*model.Attribute, error) {
	var out model.Attribute
	return &out, s.edit(ctx, p, projectOf(a.TableID), "createAttribute", editArgs{Attribute: &a}, &out)
}

// UpdateAttribute changes an attribute.
func (s *Service) UpdateAttribute(ctx context.Context, p model.Principal, attributeID string, patch model.AttributePatch) (*model.Attribute, error) {
	var out model.Attribute
	return &out, s.edit(ctx, p, projectOf(attributeID), "updateAttribute", editArgs{AttributeID: attributeID, AttrPatch: &patch}, &out)
}

// DeleteAttribute removes an attribute.
func (s *Service) DeleteAttribute(ctx context.Context, p model.Principal, attributeID string) error {
	return s.edit(ctx, p, projectOf(attributeID), "deleteAttribute", editArgs{AttributeID: attributeID}, nil)
}

// CreateRelation links two tables of one project.
func (s *Service) CreateRelation(ctx context.Context, p model.Principal, r model.Relation) (*model.Relation, error) {
	if projectOf(r.SourceTableID) != projectOf(r.TargetTableID) {
		return nil, model.Errorf(model.ErrBadUserInput, "a relation links two tables of the same project")
	}
	var out model.Relation
	return &out, s.edit(ctx, p, projectOf(r.SourceTableID), "createRelation", editArgs{Relation: &r}, &out)
}

// DeleteRelation removes a relation.
func (s *Service) DeleteRelation(ctx context.Context, p model.Principal, relationID string) error {
	return s.edit(ctx, p, projectOf(relationID), "deleteRelation", editArgs{RelationID: relationID}, nil)
}

// GenerateDefaultOperations adds the five default operations of a table (or of every table).
func (s *Service) GenerateDefaultOperations(ctx context.Context, p model.Principal, projectID, tableID string) ([]*model.Operation, error) {
	if tableID != "" && projectOf(tableID) != projectID {
		return nil, model.Errorf(model.ErrNotFound, "table %q is not in project %q", tableID, projectID)
	}
	var out []*model.Operation
	err := s.edit(ctx, p, projectID, "generateOperations", editArgs{TableID: tableID}, &out)
	return out, err
}

// CreateOperation adds an operation.
func (s *Service) CreateOperation(ctx context.Context, p model.Principal, o model.Operation) (*model.Operation, error) {
	var out model.Operation
	return &out, s.edit(ctx, p, projectOf(o.TableID), "createOperation", editArgs{Operation: &o}, &out)
}

// UpdateOperation renames, enables/disables an operation or sets its parameters.
func (s *Service) UpdateOperation(ctx context.Context, p model.Principal, operationID string, patch model.OperationPatch) (*model.Operation, error) {
	var out model.Operation
	return &out, s.edit(ctx, p, projectOf(operationID), "updateOperation", editArgs{OperationID: operationID, OpPatch: &patch}, &out)
}

// DeleteOperation removes an operation.
func (s *Service) DeleteOperation(ctx context.Context, p model.Principal, operationID string) error {
	return s.edit(ctx, p, projectOf(operationID), "deleteOperation", editArgs{OperationID: operationID}, nil)
}

// GenerateMissingViews gives every table default views.
func (s *Service) GenerateMissingViews(ctx context.Context, p model.Principal, projectID string) ([]*model.View, error) {
	var out []*model.View
	err := s.edit(ctx, p, projectID, "generateViews", editArgs{}, &out)
	return out, err
}
