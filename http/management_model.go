package http

import (
	"context"

	"github.com/mockgql/mockgql/model"
)

// ModelCreator is what the model mutations that create ask; the public
// API serves them too, and the backend limits those calls to the
// session's project.
type ModelCreator interface {
	CreateTable(ctx context.Context, p Principal, projectID, name string, source *model.TableSource) (*model.Table, error)
	CreateAttribute(ctx context.Context, p Principal, a model.Attribute) (*model.Attribute, error)
	CreateRelation(ctx context.Context, p Principal, r model.Relation) (*model.Relation, error)
	GenerateDefaultOperations(ctx context.Context, p Principal, projectID, tableID string) ([]*model.Operation, error)
	GenerateMissingViews(ctx context.Context, p Principal, projectID string) ([]*model.View, error)
}

// ModelEditor is what the management API's other model mutations ask.
type ModelEditor interface {
	UpdateTable(ctx context.Context, p Principal, tableID string, patch TablePatch) (*model.Table, error)
	DeleteTable(ctx context.Context, p Principal, tableID string) error
	UpdateAttribute(ctx context.Context, p Principal, attributeID string, patch AttributePatch) (*model.Attribute, error)
	DeleteAttribute(ctx context.Context, p Principal, attributeID string) error
	DeleteRelation(ctx context.Context, p Principal, relationID string) error
	CreateOperation(ctx context.Context, p Principal, o model.Operation) (*model.Operation, error)
	UpdateOperation(ctx context.Context, p Principal, operationID string, patch OperationPatch) (*model.Operation, error)
	DeleteOperation(ctx context.Context, p Principal, operationID string) error
}

// modelCreateResolvers resolve the model mutations that create.
type modelCreateResolvers struct {
	*Surface
	b ModelCreator
}

// mutations returns the model mutations that create, by field name.
func (s modelCreateResolvers) mutations() map[string]rootFunc {
	return map[string]rootFunc{
		"createModellingTable":         s.createTable,
		"createModellingAttribute":     s.createAttribute,
		"createRelation":               s.createRelation,
		"generateDefaultGqlOperations": s.generateOperations,
		"generateMissingViews":         s.generateViews,
	}
}

// modelEditResolvers resolve the other model mutations.
type modelEditResolvers struct {
	*Surface
	b ModelEditor
}

// mutations returns the other model mutations by field name.
func (s modelEditResolvers) mutations() map[string]rootFunc {
	return map[string]rootFunc{
		"updateModellingTable":     s.updateTable,
		"deleteModellingTable":     s.deleteTable,
		"updateModellingAttribute": s.updateAttribute,
		"deleteModellingAttribute": s.deleteAttribute,
		"deleteRelation":           s.deleteRelation,
		"createOperation":          s.createOperation,
		"updateOperation":          s.updateOperation,
		"deleteOperation":          s.deleteOperation,
	}
}

// createTable resolves createModellingTable.
func (s modelCreateResolvers) createTable(ctx context.Context, c *Call, args input) (any, error) {
	in := args.object("input")
	t, err := s.b.CreateTable(ctx, c.Principal, in.str("projectId"), in.str("name"), tableSource(in.object("source")))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).table(t), nil
}

// updateTable resolves updateModellingTable.
func (s modelEditResolvers) updateTable(ctx context.Context, c *Call, args input) (any, error) {
	id, patch := tablePatch(args.object("input"))
	t, err := s.b.UpdateTable(ctx, c.Principal, id, patch)
	if err != nil {
		return nil, err
	}
	return s.shaper(c).table(t), nil
}

// deleteTable resolves deleteModellingTable.
func (s modelEditResolvers) deleteTable(ctx context.Context, c *Call, args input) (any, error) {
	return done(s.b.DeleteTable(ctx, c.Principal, args.str("tableId")))
}

// createAttribute resolves createModellingAttribute.
func (s modelCreateResolvers) createAttribute(ctx context.Context, c *Call, args input) (any, error) {
	a, err := newAttribute(args.object("input"))
	if err != nil {
		return nil, err
	}
	got, err := s.b.CreateAttribute(ctx, c.Principal, a)
	if err != nil {
		return nil, err
	}
	return s.shaper(c).attribute(got), nil
}

// updateAttribute resolves updateModellingAttribute.
func (s modelEditResolvers) updateAttribute(ctx context.Context, c *Call, args input) (any, error) {
	id, patch, err := attributePatch(args.object("input"))
	if err != nil {
		return nil, err
	}
	a, err := s.b.UpdateAttribute(ctx, c.Principal, id, patch)
	if err != nil {
		return nil, err
	}
	return s.shaper(c).attribute(a), nil
}

// deleteAttribute resolves deleteModellingAttribute.
func (s modelEditResolvers) deleteAttribute(ctx context.Context, c *Call, args input) (any, error) {
	return done(s.b.DeleteAttribute(ctx, c.Principal, args.str("attributeId")))
}

// createRelation resolves createRelation.
func (s modelCreateResolvers) createRelation(ctx context.Context, c *Call, args input) (any, error) {
	r, err := s.b.CreateRelation(ctx, c.Principal, newRelation(args.object("input")))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).relation(r), nil
}

// deleteRelation resolves deleteRelation.
func (s modelEditResolvers) deleteRelation(ctx context.Context, c *Call, args input) (any, error) {
	return done(s.b.DeleteRelation(ctx, c.Principal, args.str("relationId")))
}

// generateOperations resolves generateDefaultGqlOperations; an absent
// tableId means every table.
func (s modelCreateResolvers) generateOperations(ctx context.Context, c *Call, args input) (any, error) {
	ops, err := s.b.GenerateDefaultOperations(ctx, c.Principal, args.str("projectId"), args.str("tableId"))
	if err != nil {
		return nil, err
	}
	return shapeAll(ops, s.shaper(c).operation), nil
}

// createOperation resolves createOperation.
func (s modelEditResolvers) createOperation(ctx context.Context, c *Call, args input) (any, error) {
	o, err := s.b.CreateOperation(ctx, c.Principal, newOperation(args.object("input")))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).operation(o), nil
}

// updateOperation resolves updateOperation.
func (s modelEditResolvers) updateOperation(ctx context.Context, c *Call, args input) (any, error) {
	id, patch := operationPatch(args.object("input"))
	o, err := s.b.UpdateOperation(ctx, c.Principal, id, patch)
	if err != nil {
		return nil, err
	}
	return s.shaper(c).operation(o), nil
}

// deleteOperation resolves deleteOperation.
func (s modelEditResolvers) deleteOperation(ctx context.Context, c *Call, args input) (any, error) {
	return done(s.b.DeleteOperation(ctx, c.Principal, args.str("operationId")))
}

// generateViews resolves generateMissingViews.
func (s modelCreateResolvers) generateViews(ctx context.Context, c *Call, args input) (any, error) {
	views, err := s.b.GenerateMissingViews(ctx, c.Principal, args.str("projectId"))
	if err != nil {
		return nil, err
	}
	return shapeAll(views, s.shaper(c).view), nil
}
