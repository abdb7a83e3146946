package http

import (
	"context"
)

// The resolvers in this file edit a project's model. The public API serves
// some of them too; the Backend limits those to the session's project.

// modelMutations returns the model mutations by field name.
func (s *Surface) modelMutations() map[string]rootFunc {
	return map[string]rootFunc{
		"createModellingTable":         s.createTable,
		"updateModellingTable":         s.updateTable,
		"deleteModellingTable":         s.deleteTable,
		"createModellingAttribute":     s.createAttribute,
		"updateModellingAttribute":     s.updateAttribute,
		"deleteModellingAttribute":     s.deleteAttribute,
		"createRelation":               s.createRelation,
		"deleteRelation":               s.deleteRelation,
		"generateDefaultGqlOperations": s.generateOperations,
		"createOperation":              s.createOperation,
		"updateOperation":              s.updateOperation,
		"deleteOperation":              s.deleteOperation,
		"generateMissingViews":         s.generateViews,
	}
}

// createTable resolves createModellingTable.
func (s *Surface) createTable(ctx context.Context, c *Call, args input) (any, error) {
	in := args.object("input")
	t, err := s.cfg.Backend.CreateTable(ctx, c.Principal, in.str("projectId"), in.str("name"), tableSource(in.object("source")))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).table(t), nil
}

// updateTable resolves updateModellingTable.
func (s *Surface) updateTable(ctx context.Context, c *Call, args input) (any, error) {
	id, patch := tablePatch(args.object("input"))
	t, err := s.cfg.Backend.UpdateTable(ctx, c.Principal, id, patch)
	if err != nil {
		return nil, err
	}
	return s.shaper(c).table(t), nil
}

// deleteTable resolves deleteModellingTable.
func (s *Surface) deleteTable(ctx context.Context, c *Call, args input) (any, error) {
	return done(s.cfg.Backend.DeleteTable(ctx, c.Principal, args.str("tableId")))
}

// createAttribute resolves createModellingAttribute.
func (s *Surface) createAttribute(ctx context.Context, c *Call, args input) (any, error) {
	a, err := newAttribute(args.object("input"))
	if err != nil {
		return nil, err
	}
	got, err := s.cfg.Backend.CreateAttribute(ctx, c.Principal, a)
	if err != nil {
		return nil, err
	}
	return s.shaper(c).attribute(got), nil
}

// updateAttribute resolves updateModellingAttribute.
func (s *Surface) updateAttribute(ctx context.Context, c *Call, args input) (any, error) {
	id, patch, err := attributePatch(args.object("input"))
	if err != nil {
		return nil, err
	}
	a, err := s.cfg.Backend.UpdateAttribute(ctx, c.Principal, id, patch)
	if err != nil {
		return nil, err
	}
	return s.shaper(c).attribute(a), nil
}

// deleteAttribute resolves deleteModellingAttribute.
func (s *Surface) deleteAttribute(ctx context.Context, c *Call, args input) (any, error) {
	return done(s.cfg.Backend.DeleteAttribute(ctx, c.Principal, args.str("attributeId")))
}

// createRelation resolves createRelation.
func (s *Surface) createRelation(ctx context.Context, c *Call, args input) (any, error) {
	r, err := s.cfg.Backend.CreateRelation(ctx, c.Principal, newRelation(args.object("input")))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).relation(r), nil
}

// deleteRelation resolves deleteRelation.
func (s *Surface) deleteRelation(ctx context.Context, c *Call, args input) (any, error) {
	return done(s.cfg.Backend.DeleteRelation(ctx, c.Principal, args.str("relationId")))
}

// generateOperations resolves generateDefaultGqlOperations; an absent
// tableId means every table.
func (s *Surface) generateOperations(ctx context.Context, c *Call, args input) (any, error) {
	ops, err := s.cfg.Backend.GenerateDefaultOperations(ctx, c.Principal, args.str("projectId"), args.str("tableId"))
	if err != nil {
		return nil, err
	}
	return shapeAll(ops, s.shaper(c).operation), nil
}

// createOperation resolves createOperation.
func (s *Surface) createOperation(ctx context.Context, c *Call, args input) (any, error) {
	o, err := s.cfg.Backend.CreateOperation(ctx, c.Principal, newOperation(args.object("input")))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).operation(o), nil
}

// updateOperation resolves updateOperation.
func (s *Surface) updateOperation(ctx context.Context, c *Call, args input) (any, error) {
	id, patch := operationPatch(args.object("input"))
	o, err := s.cfg.Backend.UpdateOperation(ctx, c.Principal, id, patch)
	if err != nil {
		return nil, err
	}
	return s.shaper(c).operation(o), nil
}

// deleteOperation resolves deleteOperation.
func (s *Surface) deleteOperation(ctx context.Context, c *Call, args input) (any, error) {
	return done(s.cfg.Backend.DeleteOperation(ctx, c.Principal, args.str("operationId")))
}

// generateViews resolves generateMissingViews.
func (s *Surface) generateViews(ctx context.Context, c *Call, args input) (any, error) {
	views, err := s.cfg.Backend.GenerateMissingViews(ctx, c.Principal, args.str("projectId"))
	if err != nil {
		return nil, err
	}
	return shapeAll(views, s.shaper(c).view), nil
}
