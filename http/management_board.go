package http

import (
	"context"
	"sync"

	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// The resolvers in this file exist for the board: the demo
// project's links, and the generator kinds with a preview of their values
// (schema/management.graphql, "extend type Query/Mutation" at its end).

// boardResolvers maps the board's root fields; schemaChangesOfEdit reads
// the project from b.
func (s *Surface) boardResolvers(b ProjectReader) map[string]exec.Resolver {
	return map[string]exec.Resolver{
		"Query.demo":                s.open(s.demo),
		"Query.generatorKinds":      s.open(s.generatorKinds),
		"Query.generatorPreview":    s.open(s.generatorPreview),
		"Query.generatorCatalog":    s.open(s.generatorCatalog),
		"Query.schemaChangesOfEdit": s.authed(boardEditResolvers{s, b}.schemaChangesOfEdit),
	}
}

// demo resolves Query.demo: the demo guest project's addresses, or null
// when the server was started without it.
func (s *Surface) demo(_ context.Context, _ *Call, _ input) (any, error) {
	if s.cfg.Demo == nil {
		return nil, nil
	}
	slug, token := s.cfg.Demo()
	if slug == "" {
		return nil, nil
	}
	return map[string]any{
		"slug":       slug,
		"previewUrl": model.PreviewURL(s.cfg.AppURL, slug, token),
		"runtimeUrl": model.RuntimeURL(s.cfg.BaseURL, slug, token),
		"boardUrl":   s.cfg.AppURL + "/board/demo",
	}, nil
}

// generatorKinds resolves Query.generatorKinds.
func (s *Surface) generatorKinds(context.Context, *Call, input) (any, error) {
	return graphql.GeneratorKinds(), nil
}

// generatorCatalog resolves Query.generatorCatalog: constant, shaped once.
func (s *Surface) generatorCatalog(_ context.Context, _ *Call, args input) (any, error) {
	all := shapedCatalog()
	cat := args.str("category")
	if cat == "" {
		return all, nil
	}
	out := []any{}
	for _, g := range all {
		if g.(map[string]any)["category"] == cat {
			out = append(out, g)
		}
	}
	return out, nil
}

var shapedCatalog = sync.OnceValue(func() []any {
	return shapeAll(graphql.GeneratorCatalog(), func(g graphql.GeneratorInfo) any {
		opts := shapeAll(g.Options, func(o graphql.GeneratorOption) any {
			var def any
			if o.Default != "" {
				def = o.Default
			}
			return map[string]any{"name": o.Name, "type": o.Type, "description": o.Description, "default": def, "required": o.Required, "choices": o.Choices}
		})
		var sample any
		if g.Sample != nil {
			sample = g.Sample
		}
		return map[string]any{"kind": g.Kind, "category": g.Category, "description": g.Description, "keywords": g.Keywords, "options": opts, "sample": sample}
	})
})

// generatorPreview resolves Query.generatorPreview: the values a generator
// gives the first records, computed here (no I/O), bounded to 20.
func (s *Surface) generatorPreview(_ context.Context, _ *Call, args input) (any, error) {
	opts, err := args.json("options")
	if err != nil {
		return nil, err
	}
	n, ok := args.integer("count")
	if !ok {
		n = 5
	}
	vals, err := graphql.GeneratorPreview(&model.Generator{Kind: args.str("kind"), Options: opts}, n)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = v
	}
	return out, nil
}
