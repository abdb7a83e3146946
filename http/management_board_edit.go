package http

import (
	"context"
	"strings"

	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/model"
)

// boardEditResolvers resolve the board's schemaChangesOfEdit.
type boardEditResolvers struct {
	*Surface
	b ProjectReader
}

// schemaChangesOfEdit resolves Query.schemaChangesOfEdit: what one edit
// would change in the runtime schema, before it is made, so the board can
// warn that a rename or removal breaks consumers and name what breaks. The
// edit is applied to a copy of the model with the model's own checks
// (an edit the model refuses is refused here the same way); nothing is
// saved. It reads the project with the caller's rights.
func (s boardEditResolvers) schemaChangesOfEdit(ctx context.Context, c *Call, args input) (any, error) {
	p, err := s.b.Project(ctx, c.Principal, args.str("projectId"), "")
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
	kind, id, name := e.str("kind"), e.str("id"), e.strPtr("name")
	if strings.HasPrefix(kind, "RENAME_") && name == nil {
		return model.Errorf(model.CodeBadUserInput, "edit %s needs a name", kind)
	}
	off := false
	var err error
	switch kind {
	case "RENAME_OPERATION":
		_, err = p.UpdateOperation(id, model.OperationPatch{Name: name})
	case "DISABLE_OPERATION":
		_, err = p.UpdateOperation(id, model.OperationPatch{Enabled: &off})
	case "DELETE_OPERATION":
		err = p.RemoveOperation(id)
	case "RENAME_ATTRIBUTE":
		_, err = p.UpdateAttribute(id, model.AttributePatch{Name: name})
	case "DELETE_ATTRIBUTE":
		err = p.RemoveAttribute(id)
	case "RENAME_TABLE":
		_, err = p.UpdateTable(id, model.TablePatch{Name: name})
	case "DELETE_TABLE":
		err = p.RemoveTable(id)
	case "CHANGE_ATTRIBUTE_TYPE":
		t := e.strPtr("type")
		if t == nil {
			return model.Errorf(model.CodeBadUserInput, "edit %s needs a type", kind)
		}
		st := model.ScalarType(*t)
		_, err = p.UpdateAttribute(id, model.AttributePatch{Type: &st})
	case "DELETE_RELATION":
		err = p.RemoveRelation(id)
	default:
		err = model.Errorf(model.CodeBadUserInput, "unknown edit kind %q", kind)
	}
	return err
}
