package actors

import (
	"context"

	"github.com/mockgql/mockgql/actors/pb"
	"github.com/mockgql/mockgql/model"
)

// The model edits: each finds the project from the ID it is given and runs
// in that project's grain.

// CreateTable adds a table.
func (s *Service) CreateTable(ctx context.Context, p model.Principal, projectID, name string, source *model.TableSource) (*model.Table, error) {
	return editResult[model.Table](s.edit(ctx, p, projectID, &pb.EditCreateTable{Name: name, Source: sourceDoc(source)}))
}

// UpdateTable renames or rebinds a table.
func (s *Service) UpdateTable(ctx context.Context, p model.Principal, tableID string, patch model.TablePatch) (*model.Table, error) {
	req := &pb.EditUpdateTable{TableId: tableID, Name: patch.Name, Source: sourceDoc(patch.Source)}
	return editResult[model.Table](s.edit(ctx, p, ProjectOf(tableID), req, "tableId", tableID))
}

// sourceDoc is a table's binding on the wire (nil: none, or unchanged).
func sourceDoc(src *model.TableSource) *pb.TableSourceDoc {
	if src == nil {
		return nil
	}
	return &pb.TableSourceDoc{Json: EncodeDoc(src)}
}

// DeleteTable removes a table.
func (s *Service) DeleteTable(ctx context.Context, p model.Principal, tableID string) error {
	_, err := s.edit(ctx, p, ProjectOf(tableID), &pb.EditDeleteTable{TableId: tableID}, "tableId", tableID)
	return err
}

// CreateAttribute adds an attribute to a.TableID.
func (s *Service) CreateAttribute(ctx context.Context, p model.Principal, a model.Attribute) (*model.Attribute, error) {
	req := &pb.EditCreateAttribute{Attribute: &pb.AttributeDoc{Json: EncodeDoc(a)}}
	return editResult[model.Attribute](s.edit(ctx, p, ProjectOf(a.TableID), req))
}

// UpdateAttribute changes an attribute.
func (s *Service) UpdateAttribute(ctx context.Context, p model.Principal, attributeID string, patch model.AttributePatch) (*model.Attribute, error) {
	req := &pb.EditUpdateAttribute{AttributeId: attributeID, Patch: &pb.AttributePatchDoc{Json: EncodeDoc(patch)}}
	return editResult[model.Attribute](s.edit(ctx, p, ProjectOf(attributeID), req, "attributeId", attributeID))
}

// DeleteAttribute removes an attribute.
func (s *Service) DeleteAttribute(ctx context.Context, p model.Principal, attributeID string) error {
	_, err := s.edit(ctx, p, ProjectOf(attributeID), &pb.EditDeleteAttribute{AttributeId: attributeID}, "attributeId", attributeID)
	return err
}

// CreateRelation links two tables of one project.
func (s *Service) CreateRelation(ctx context.Context, p model.Principal, r model.Relation) (*model.Relation, error) {
	if ProjectOf(r.SourceTableID) != ProjectOf(r.TargetTableID) {
		return nil, model.Errorf(model.ErrBadUserInput, "a relation links two tables of the same project")
	}
	req := &pb.EditCreateRelation{Relation: &pb.RelationDoc{Json: EncodeDoc(r)}}
	return editResult[model.Relation](s.edit(ctx, p, ProjectOf(r.SourceTableID), req))
}

// DeleteRelation removes a relation.
func (s *Service) DeleteRelation(ctx context.Context, p model.Principal, relationID string) error {
	_, err := s.edit(ctx, p, ProjectOf(relationID), &pb.EditDeleteRelation{RelationId: relationID}, "relationId", relationID)
	return err
}

// GenerateDefaultOperations adds the five default operations of a table (or of every table).
func (s *Service) GenerateDefaultOperations(ctx context.Context, p model.Principal, projectID, tableID string) ([]*model.Operation, error) {
	if tableID != "" && ProjectOf(tableID) != projectID {
		return nil, model.Errorf(model.ErrNotFound, "table %q is not in project %q", tableID, projectID)
	}
	r, err := s.edit(ctx, p, projectID, &pb.EditGenerateOperations{TableId: tableID}, "tableId", tableID)
	if err != nil {
		return nil, err
	}
	if r.GetOperations() == nil {
		return nil, nil // none generated
	}
	return decodeDocs[model.Operation](r.GetOperations().GetOperations())
}

// CreateOperation adds an operation.
func (s *Service) CreateOperation(ctx context.Context, p model.Principal, o model.Operation) (*model.Operation, error) {
	req := &pb.EditCreateOperation{Operation: &pb.OperationDoc{Json: EncodeDoc(o)}}
	return editResult[model.Operation](s.edit(ctx, p, ProjectOf(o.TableID), req))
}

// UpdateOperation renames, enables/disables an operation or sets its parameters.
func (s *Service) UpdateOperation(ctx context.Context, p model.Principal, operationID string, patch model.OperationPatch) (*model.Operation, error) {
	req := &pb.EditUpdateOperation{OperationId: operationID, Patch: &pb.OperationPatchDoc{Json: EncodeDoc(patch)}}
	return editResult[model.Operation](s.edit(ctx, p, ProjectOf(operationID), req, "operationId", operationID))
}

// DeleteOperation removes an operation.
func (s *Service) DeleteOperation(ctx context.Context, p model.Principal, operationID string) error {
	_, err := s.edit(ctx, p, ProjectOf(operationID), &pb.EditDeleteOperation{OperationId: operationID}, "operationId", operationID)
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
	return decodeDocs[model.View](r.GetViews().GetViews())
}

// editResult decodes the one document an edit answers with (a table, an
// attribute, a relation or an operation: the result's only field is json).
func editResult[T any](r *pb.Reply, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	var b []byte
	switch v := r.Result.(type) {
	case *pb.Reply_Table:
		b = v.Table.GetJson()
	case *pb.Reply_Attribute:
		b = v.Attribute.GetJson()
	case *pb.Reply_Relation:
		b = v.Relation.GetJson()
	case *pb.Reply_Operation:
		b = v.Operation.GetJson()
	}
	return DecodeDoc[T](b)
}

// jsonDoc is a document message (pb.TableDoc and the like).
type jsonDoc interface{ GetJson() []byte }

// decodeDocs decodes a list of documents.
func decodeDocs[T any, D jsonDoc](docs []D) ([]*T, error) {
	out := make([]*T, 0, len(docs))
	for _, d := range docs {
		v, err := DecodeDoc[T](d.GetJson())
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
