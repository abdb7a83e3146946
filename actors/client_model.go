package actors

import (
	"context"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// The model edits of ProjectClient: each is one edit request, answered
// with what it made or changed.

// CreateTable adds a table named name, with mock rows from source (nil: generated).
func (p ProjectClient) CreateTable(ctx context.Context, name string, source *model.TableSource) (*model.Table, error) {
	return editResult[model.Table](p.ask(ctx, &pb.EditCreateTable{Name: name, Source: sourceDoc(source)}))
}

// UpdateTable renames a table or changes its source (nil: unchanged).
func (p ProjectClient) UpdateTable(ctx context.Context, tableID string, patch model.TablePatch) (*model.Table, error) {
	req := &pb.EditUpdateTable{TableId: tableID, Name: patch.Name, Source: sourceDoc(patch.Source)}
	return editResult[model.Table](p.ask(ctx, req))
}

// sourceDoc is a table source on the wire (nil: none).
func sourceDoc(src *model.TableSource) *pb.TableSourceDoc {
	if src == nil {
		return nil
	}
	return &pb.TableSourceDoc{Json: encodeDoc(src)}
}

// DeleteTable deletes a table.
func (p ProjectClient) DeleteTable(ctx context.Context, tableID string) error {
	return p.tell(ctx, &pb.EditDeleteTable{TableId: tableID})
}

// CreateAttribute adds an attribute to its table.
func (p ProjectClient) CreateAttribute(ctx context.Context, a model.Attribute) (*model.Attribute, error) {
	req := &pb.EditCreateAttribute{Attribute: &pb.AttributeDoc{Json: encodeDoc(a)}}
	return editResult[model.Attribute](p.ask(ctx, req))
}

// UpdateAttribute changes an attribute.
func (p ProjectClient) UpdateAttribute(ctx context.Context, attributeID string, patch model.AttributePatch) (*model.Attribute, error) {
	req := &pb.EditUpdateAttribute{AttributeId: attributeID, Patch: &pb.AttributePatchDoc{Json: encodeDoc(patch)}}
	return editResult[model.Attribute](p.ask(ctx, req))
}

// DeleteAttribute deletes an attribute.
func (p ProjectClient) DeleteAttribute(ctx context.Context, attributeID string) error {
	return p.tell(ctx, &pb.EditDeleteAttribute{AttributeId: attributeID})
}

// CreateRelation adds a relation between two tables.
func (p ProjectClient) CreateRelation(ctx context.Context, r model.Relation) (*model.Relation, error) {
	req := &pb.EditCreateRelation{Relation: &pb.RelationDoc{Json: encodeDoc(r)}}
	return editResult[model.Relation](p.ask(ctx, req))
}

// DeleteRelation deletes a relation.
func (p ProjectClient) DeleteRelation(ctx context.Context, relationID string) error {
	return p.tell(ctx, &pb.EditDeleteRelation{RelationId: relationID})
}

// GenerateOperations adds the default operations of a table ("": of
// every table) and returns those it added.
func (p ProjectClient) GenerateOperations(ctx context.Context, tableID string) ([]*model.Operation, error) {
	r, err := p.ask(ctx, &pb.EditGenerateOperations{TableId: tableID})
	if err != nil || r.GetOperations() == nil {
		return nil, err // none generated: nil
	}
	return decodeDocs[model.Operation](r.GetOperations().GetOperations())
}

// CreateOperation adds an operation.
func (p ProjectClient) CreateOperation(ctx context.Context, o model.Operation) (*model.Operation, error) {
	req := &pb.EditCreateOperation{Operation: &pb.OperationDoc{Json: encodeDoc(o)}}
	return editResult[model.Operation](p.ask(ctx, req))
}

// UpdateOperation changes an operation.
func (p ProjectClient) UpdateOperation(ctx context.Context, operationID string, patch model.OperationPatch) (*model.Operation, error) {
	req := &pb.EditUpdateOperation{OperationId: operationID, Patch: &pb.OperationPatchDoc{Json: encodeDoc(patch)}}
	return editResult[model.Operation](p.ask(ctx, req))
}

// DeleteOperation deletes an operation.
func (p ProjectClient) DeleteOperation(ctx context.Context, operationID string) error {
	return p.tell(ctx, &pb.EditDeleteOperation{OperationId: operationID})
}

// GenerateViews adds the views the project's tables miss and returns them.
func (p ProjectClient) GenerateViews(ctx context.Context) ([]*model.View, error) {
	r, err := p.ask(ctx, &pb.EditGenerateViews{})
	if err != nil || r.GetViews() == nil {
		return nil, err // none generated: nil
	}
	return decodeDocs[model.View](r.GetViews().GetViews())
}

// ImportTables adds tables made elsewhere (an OpenAPI import) whole, and
// returns them as the project keeps them.
func (p ProjectClient) ImportTables(ctx context.Context, tables []*model.Table) ([]*model.Table, error) {
	req := &pb.EditImportTables{Tables: make([]*pb.TableDoc, 0, len(tables))}
	for _, t := range tables {
		req.Tables = append(req.Tables, &pb.TableDoc{Json: encodeDoc(t)})
	}
	r, err := p.ask(ctx, req)
	if err != nil || r.GetTables() == nil {
		return nil, err
	}
	return decodeDocs[model.Table](r.GetTables().GetTables())
}
