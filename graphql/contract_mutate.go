package graphql

import (
	"context"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/graphql/exec"
)

// mutationResolver answers a root field of the mutation type by its shape.
func (rt *Runtime) mutationResolver(rf *contract.RootField, fd *ast.FieldDefinition) exec.Resolver {
	return func(ctx context.Context, f *exec.Field) (any, error) {
		m := f.Parent.(*mutation)
		seed := argsSeed(rt.contract.seed, rf.Name, f.Args)
		return rt.genValue(m.view(), rt.schema.Mutation.Name, fd.Name, fd.Type, seed, 0), nil
	}
}
