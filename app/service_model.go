package app

import (
	"context"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/actors/pb"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// The model edits: each finds the project from the ID it is given and runs
// in that project's grain.

// CreateTable adds a table.
func (s *Service) CreateTable(ctx context.Context, p model.Principal, projectID, name string, source *model.TableSource) (*model.Table, error) {
	if err := s.checkBindable(ctx, p, projectID, source); err != nil {
		return nil, err
	}
	return actors.EditResult[model.Table](s.edit(ctx, p, projectID, &pb.EditCreateTable{Name: name, Source: sourceDoc(source)}))
}

// UpdateTable renames or rebinds a table.
func (s *Service) UpdateTable(ctx context.Context, p model.Principal, tableID string, patch model.TablePatch) (*model.Table, error) {
	if err := s.checkBindable(ctx, p, ids.ProjectOf(tableID), patch.Source); err != nil {
		return nil, err
	}
	req := &pb.EditUpdateTable{TableId: tableID, Name: patch.Name, Source: sourceDoc(patch.Source)}
	return actors.EditResult[model.Table](s.edit(ctx, p, ids.ProjectOf(tableID), req, "tableId", tableID))
}

// sourceDoc is a table's binding on the wire (nil: none, or unchanged).
func sourceDoc(src *model.TableSource) *pb.TableSourceDoc {
	if src == nil {
		return nil
	}
	return &pb.TableSourceDoc{Json: actors.EncodeDoc(src)}
}

// DeleteTable removes a table.
func (s *Service) DeleteTable(ctx context.Context, p model.Principal, tableID string) error {
	_, err := s.edit(ctx, p, ids.ProjectOf(tableID), &pb.EditDeleteTable{TableId: tableID}, "tableId", tableID)
	return err
}

// CreateAttribute adds an attribute to a.TableID.
func (s *Service) CreateAttribute(ctx context.Context, p model.Principal, a model.Attribute) (*model.Attribute, error) {
	req := &pb.EditCreateAttribute{Attribute: &pb.AttributeDoc{Json: actors.EncodeDoc(a)}}
	return actors.EditResult[model.Attribute](s.edit(ctx, p, ids.ProjectOf(a.TableID), req))
}

// UpdateAttribute changes an attribute.
func (s *Service) UpdateAttribute(ctx context.Context, p model.Principal, attributeID string, patch model.AttributePatch) (*model.Attribute, error) {
	req := &pb.EditUpdateAttribute{AttributeId: attributeID, Patch: &pb.AttributePatchDoc{Json: actors.EncodeDoc(patch)}}
	return actors.EditResult[model.Attribute](s.edit(ctx, p, ids.ProjectOf(attributeID), req, "attributeId", attributeID))
}

// DeleteAttribute removes an attribute.
func (s *Service) DeleteAttribute(ctx context.Context, p model.Principal, attributeID string) error {
	_, err := s.edit(ctx, p, ids.ProjectOf(attributeID), &pb.EditDeleteAttribute{AttributeId: attributeID}, "attributeId", attributeID)
	return err
}

// CreateRelation links two tables of one project.
func (s *Service) CreateRelation(ctx context.Context, p model.Principal, r model.Relation) (*model.Relation, error) {
	if ids.ProjectOf(r.SourceTableID) != ids.ProjectOf(r.TargetTableID) {
		return nil, model.Errorf(model.CodeBadUserInput, "a relation links two tables of the same project")
	}
	req := &pb.EditCreateRelation{Relation: &pb.RelationDoc{Json: actors.EncodeDoc(r)}}
	return actors.EditResult[model.Relation](s.edit(ctx, p, ids.ProjectOf(r.SourceTableID), req))
}

// DeleteRelation removes a relation.
func (s *Service) DeleteRelation(ctx context.Context, p model.Principal, relationID string) error {
	_, err := s.edit(ctx, p, ids.ProjectOf(relationID), &pb.EditDeleteRelation{RelationId: relationID}, "relationId", relationID)
	return err
}

// GenerateDefaultOperations adds the five default operations of a table (or of every table).
func (s *Service) GenerateDefaultOperations(ctx context.Context, p model.Principal, projectID, tableID string) ([]*model.Operation, error) {
	if tableID != "" && ids.ProjectOf(tableID) != projectID {
		return nil, model.Errorf(model.CodeNotFound, "table %q is not in project %q", tableID, projectID)
	}
	r, err := s.edit(ctx, p, projectID, &pb.EditGenerateOperations{TableId: tableID}, "tableId", tableID)
	if err != nil {
		return nil, err
	}
	if r.GetOperations() == nil {
		return nil, nil // none generated
	}
	return actors.DecodeDocs[model.Operation](r.GetOperations().GetOperations())
}

// CreateOperation adds an operation.
func (s *Service) CreateOperation(ctx context.Context, p model.Principal, o model.Operation) (*model.Operation, error) {
	req := &pb.EditCreateOperation{Operation: &pb.OperationDoc{Json: actors.EncodeDoc(o)}}
	return actors.EditResult[model.Operation](s.edit(ctx, p, ids.ProjectOf(o.TableID), req))
}

// UpdateOperation renames, enables/disables an operation or sets its parameters.
func (s *Service) UpdateOperation(ctx context.Context, p model.Principal, operationID string, patch model.OperationPatch) (*model.Operation, error) {
	req := &pb.EditUpdateOperation{OperationId: operationID, Patch: &pb.OperationPatchDoc{Json: actors.EncodeDoc(patch)}}
	return actors.EditResult[model.Operation](s.edit(ctx, p, ids.ProjectOf(operationID), req, "operationId", operationID))
}

// DeleteOperation removes an operation.
func (s *Service) DeleteOperation(ctx context.Context, p model.Principal, operationID string) error {
	_, err := s.edit(ctx, p, ids.ProjectOf(operationID), &pb.EditDeleteOperation{OperationId: operationID}, "operationId", operationID)
	return err
}

// GenerateMissingViews gives every table default views.
func (s *Service) GenerateMissingViews(ctx context.Context, p model.Principal, projectID string) ([]*model.View, error) {
	r, err := s.edit(ctx, p, projectID, &pb.EditGenerateViews{})
	if err != nil {
		return nil, err
	}
	if r.GetViews() == nil {
		return nil, nil
	}
	return actors.DecodeDocs[model.View](r.GetViews().GetViews())
}
