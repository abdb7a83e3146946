package http

import (
	"context"

	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/model"
)

// schemaChangesOfEdit resolves Query.schemaChangesOfEdit: what one edit
// would change in the runtime schema, before it is made, so the board can
// warn that a rename or removal breaks consumers and name what breaks. The
// edit is applied to a copy of the model with the model's own checks
// (an edit the model refuses is refused here the same way); nothing is
// saved. It reads the project with the caller's rights.
func (s *Surface) schemaChangesOfEdit(ctx context.Context, c *Call, args input) (any, error) {
	p, err := s.cfg.Backend.Project(ctx, c.Principal, args.str("projectId"), "")
	if err != nil {
		return nil, err
	}
	edited := p.Clone()
	if err := applyEdit(edited, args.object("edit")); err != nil {
		return nil, err
	}
	before, err := graphql.Compile(p, graphql.Options{})
	if err != nil {
		return nil, err
	}
	after, err := graphql.Compile(edited, graphql.Options{})
	if err != nil {
		return nil, err
	}
	changes, err := graphql.DiffSchemas(before.SDL(), after.SDL())
	if err != nil {
		return nil, err
	}
	return shapeAll(changes, schemaChange), nil
}

// applyEdit makes one ModelEditInput on p.
func applyEdit(p *model.Project, e input) error {
	id, name := e.str("id"), e.strPtr("name")
	needName := func() error {
		if name == nil {
			return model.Errorf(model.ErrBadUserInput, "edit %s needs a name", e.str("kind"))
		}
		return nil
	}
	switch e.str("kind") {
	case "RENAME_OPERATION":
		if err := needName(); err != nil {
			return err
		}
		_, err := p.UpdateOperation(id, model.OperationPatch{Name: name})
		return err
	case "DISABLE_OPERATION":
		off := false
		_, err := p.UpdateOperation(id, model.OperationPatch{Enabled: &off})
		return err
	case "DELETE_OPERATION":
		return p.RemoveOperation(id)
	case "RENAME_ATTRIBUTE":
		if err := needName(); err != nil {
			return err
		}
		_, err := p.UpdateAttribute(id, model.AttributePatch{Name: name})
		return err
	case "DELETE_ATTRIBUTE":
		return p.RemoveAttribute(id)
	case "RENAME_TABLE":
		if err := needName(); err != nil {
			return err
		}
		_, err := p.UpdateTable(id, model.TablePatch{Name: name})
		return err
	case "DELETE_TABLE":
		return p.RemoveTable(id)
	}
	return model.Errorf(model.ErrBadUserInput, "unknown edit kind %q", e.str("kind"))
}
