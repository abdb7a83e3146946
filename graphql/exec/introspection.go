package exec

import (
	"context"
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Introspection values. __Schema resolves on the *ast.Schema; a __Type is
// an *ast.Definition (a named type) or an *ast.Type that is a NON_NULL or
// LIST wrapper; a __Field is an *ast.FieldDefinition; an __InputValue an
// *ast.ArgumentDefinition (input fields are converted); an __EnumValue an
// *ast.EnumValueDefinition; a __Directive an *ast.DirectiveDefinition.

// hiddenDirective reports whether introspection leaves out the directive
// d: a built-in @defer (gqlparser's prelude) or @stream (the table
// runtime's), which a project's own SDL does not define, so that the
// schema a client reads is the project's. A schema that defines them
// itself (an imported document, Shopify's) has every definition it gives
// listed, as the API it stands in for lists it. Either way the runtime
// answers deferred fragments and streams in increments to a client that
// accepts them (Increments), in the complete result to any other.
func hiddenDirective(d *ast.DirectiveDefinition) bool {
	return (d.Name == "defer" || d.Name == "stream") && (d.Position == nil || d.Position.Src == nil || d.Position.Src.BuiltIn)
}

// attachIntrospection installs the resolvers of __schema, __type and the
// introspection types.
func (e *Executor) attachIntrospection() {
	in := newIntrospection(e.Schema, e.DocumentOrder)
	for key, r := range in.resolvers() {
		if fi := e.field(key); fi != nil {
			fi.resolver = r
		}
	}
}

// introspection answers introspection fields from one schema; its sorted
// lists are computed once.
type introspection struct {
	schema     *ast.Schema
	types      []*ast.Definition
	directives []*ast.DirectiveDefinition
}

func newIntrospection(s *ast.Schema, documentOrder bool) *introspection {
	in := &introspection{schema: s}
	for _, def := range s.Types {
		in.types = append(in.types, def)
	}
	slices.SortFunc(in.types, func(a, b *ast.Definition) int {
		return orderOf(documentOrder, a.BuiltIn, a.Position, b.BuiltIn, b.Position, a.Name, b.Name)
	})
	for _, d := range s.Directives {
		if !hiddenDirective(d) {
			in.directives = append(in.directives, d)
		}
	}
	slices.SortFunc(in.directives, func(a, b *ast.DirectiveDefinition) int {
		return orderOf(documentOrder, a.Position == nil || a.Position.Src == nil || a.Position.Src.BuiltIn, a.Position,
			b.Position == nil || b.Position.Src == nil || b.Position.Src.BuiltIn, b.Position, a.Name, b.Name)
	})
	return in
}

// orderOf compares two definitions for introspection: by name, or with
// documentOrder those of the document first, in the order it defines them.
func orderOf(documentOrder, aBuiltIn bool, aPos *ast.Position, bBuiltIn bool, bPos *ast.Position, aName, bName string) int {
	if documentOrder && aBuiltIn != bBuiltIn {
		if aBuiltIn {
			return 1
		}
		return -1
	}
	if documentOrder && !aBuiltIn && aPos != nil && bPos != nil && aPos.Start != bPos.Start {
		return aPos.Start - bPos.Start
	}
	return strings.Compare(aName, bName)
}

// value adapts a function of the parent to a Resolver.
func value[T any](get func(T) any) Resolver {
	return func(_ context.Context, f *Field) (any, error) {
		p, ok := f.Parent.(T)
		if !ok {
			return nil, nil
		}
		return get(p), nil
	}
}

// withArgs adapts a function of the parent and includeDeprecated.
func withArgs[T any](get func(T, bool) any) Resolver {
	return func(_ context.Context, f *Field) (any, error) {
		p, ok := f.Parent.(T)
		if !ok {
			return nil, nil
		}
		inc, _ := f.Args["includeDeprecated"].(bool)
		return get(p, inc), nil
	}
}

// resolvers returns the resolvers of the introspection fields.
func (in *introspection) resolvers() map[string]Resolver {
	m := map[string]Resolver{
		"__Schema.description":      value(func(*ast.Schema) any { return nonEmpty(in.schema.Description) }),
		"__Schema.types":            value(func(*ast.Schema) any { return in.types }),
		"__Schema.queryType":        value(func(*ast.Schema) any { return in.schema.Query }),
		"__Schema.mutationType":     value(func(*ast.Schema) any { return definitionOrNil(in.schema.Mutation) }),
		"__Schema.subscriptionType": value(func(*ast.Schema) any { return definitionOrNil(in.schema.Subscription) }),
		"__Schema.directives":       value(func(*ast.Schema) any { return in.directives }),

		"__Field.name":              value(func(f *ast.FieldDefinition) any { return f.Name }),
		"__Field.description":       value(func(f *ast.FieldDefinition) any { return nonEmpty(f.Description) }),
		"__Field.args":              withArgs(func(f *ast.FieldDefinition, inc bool) any { return filterArgs(f.Arguments, inc) }),
		"__Field.type":              value(func(f *ast.FieldDefinition) any { return in.typeValue(f.Type) }),
		"__Field.isDeprecated":      value(func(f *ast.FieldDefinition) any { return isDeprecated(f.Directives) }),
		"__Field.deprecationReason": value(func(f *ast.FieldDefinition) any { return deprecationReason(f.Directives) }),

		"__InputValue.name":              value(func(a *ast.ArgumentDefinition) any { return a.Name }),
		"__InputValue.description":       value(func(a *ast.ArgumentDefinition) any { return nonEmpty(a.Description) }),
		"__InputValue.type":              value(func(a *ast.ArgumentDefinition) any { return in.typeValue(a.Type) }),
		"__InputValue.defaultValue":      value(func(a *ast.ArgumentDefinition) any { return defaultValue(a.DefaultValue) }),
		"__InputValue.isDeprecated":      value(func(a *ast.ArgumentDefinition) any { return isDeprecated(a.Directives) }),
		"__InputValue.deprecationReason": value(func(a *ast.ArgumentDefinition) any { return deprecationReason(a.Directives) }),

		"__EnumValue.name":              value(func(v *ast.EnumValueDefinition) any { return v.Name }),
		"__EnumValue.description":       value(func(v *ast.EnumValueDefinition) any { return nonEmpty(v.Description) }),
		"__EnumValue.isDeprecated":      value(func(v *ast.EnumValueDefinition) any { return isDeprecated(v.Directives) }),
		"__EnumValue.deprecationReason": value(func(v *ast.EnumValueDefinition) any { return deprecationReason(v.Directives) }),

		"__Directive.name":         value(func(d *ast.DirectiveDefinition) any { return d.Name }),
		"__Directive.description":  value(func(d *ast.DirectiveDefinition) any { return nonEmpty(d.Description) }),
		"__Directive.isRepeatable": value(func(d *ast.DirectiveDefinition) any { return d.IsRepeatable }),
		"__Directive.locations":    value(func(d *ast.DirectiveDefinition) any { return directiveLocations(d) }),
		"__Directive.args":         withArgs(func(d *ast.DirectiveDefinition, inc bool) any { return filterArgs(d.Arguments, inc) }),

		"Query.__schema": func(context.Context, *Field) (any, error) { return in.schema, nil },
		"Query.__type": func(_ context.Context, f *Field) (any, error) {
			name, _ := f.Args["name"].(string)
			return definitionOrNil(in.schema.Types[name]), nil
		},
	}
	for name, r := range in.typeResolvers() {
		m["__Type."+name] = r
	}
	if in.schema.Query != nil && in.schema.Query.Name != "Query" {
		m[in.schema.Query.Name+".__schema"], m[in.schema.Query.Name+".__type"] = m["Query.__schema"], m["Query.__type"]
	}
	return m
}

// definitionOrNil returns def, or an untyped nil for a nil def (a typed nil
// would not read as null).
func definitionOrNil(def *ast.Definition) any {
	if def == nil {
		return nil
	}
	return def
}

// nonEmpty returns s, or nil when s is empty: the schema has no
// description then.
func nonEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
