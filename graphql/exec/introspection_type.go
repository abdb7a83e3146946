package exec

import (
	"context"
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// typeResolvers returns the resolvers of the __Type fields, by field name.
func (in *introspection) typeResolvers() map[string]Resolver {
	named := func(get func(*ast.Definition) any) Resolver { return value(get) }
	return map[string]Resolver{
		"kind":           typeKind,
		"name":           named(func(d *ast.Definition) any { return d.Name }),
		"description":    named(func(d *ast.Definition) any { return nonEmpty(d.Description) }),
		"specifiedByURL": named(specifiedByURL),
		"fields":         withArgs(in.fields),
		"interfaces":     named(in.interfaces),
		"possibleTypes":  named(in.possibleTypes),
		"enumValues":     withArgs(enumValues),
		"inputFields":    withArgs(inputFields),
		"ofType":         value(in.ofType),
		"isOneOf":        named(isOneOf),
	}
}

// typeKind resolves __Type.kind for named and wrapping types.
func typeKind(_ context.Context, f *Field) (any, error) {
	switch t := f.Parent.(type) {
	case *ast.Definition:
		return string(t.Kind), nil
	case *ast.Type:
		if t.NonNull {
			return "NON_NULL", nil
		}
		return "LIST", nil
	}
	return nil, nil
}

// typeValue returns the __Type value of the type reference t.
func (in *introspection) typeValue(t *ast.Type) any {
	if !t.NonNull && t.Elem == nil {
		return definitionOrNil(in.schema.Types[t.NamedType])
	}
	return t
}

// ofType returns the type a NON_NULL or LIST wrapper wraps.
func (in *introspection) ofType(t *ast.Type) any {
	if t.NonNull {
		inner := *t
		inner.NonNull = false
		return in.typeValue(&inner)
	}
	return in.typeValue(t.Elem)
}

func (in *introspection) fields(d *ast.Definition, includeDeprecated bool) any {
	if d.Kind != ast.Object && d.Kind != ast.Interface {
		return nil
	}
	out := make([]*ast.FieldDefinition, 0, len(d.Fields))
	for _, f := range d.Fields {
		if !strings.HasPrefix(f.Name, "__") && (includeDeprecated || !isDeprecated(f.Directives)) {
			out = append(out, f)
		}
	}
	return out
}

func (in *introspection) interfaces(d *ast.Definition) any {
	if d.Kind != ast.Object && d.Kind != ast.Interface {
		return nil
	}
	out := make([]*ast.Definition, 0, len(d.Interfaces))
	for _, name := range d.Interfaces {
		if def := in.schema.Types[name]; def != nil {
			out = append(out, def)
		}
	}
	return out
}

func (in *introspection) possibleTypes(d *ast.Definition) any {
	if !d.IsAbstractType() {
		return nil
	}
	out := slices.Clone(in.schema.GetPossibleTypes(d))
	if d.Kind == ast.Interface {
		slices.SortFunc(out, func(a, b *ast.Definition) int { return strings.Compare(a.Name, b.Name) })
	}
	return out
}

func enumValues(d *ast.Definition, includeDeprecated bool) any {
	if d.Kind != ast.Enum {
		return nil
	}
	out := make([]*ast.EnumValueDefinition, 0, len(d.EnumValues))
	for _, v := range d.EnumValues {
		if includeDeprecated || !isDeprecated(v.Directives) {
			out = append(out, v)
		}
	}
	return out
}

// inputFields returns the fields of an input object as __InputValues.
func inputFields(d *ast.Definition, includeDeprecated bool) any {
	if d.Kind != ast.InputObject {
		return nil
	}
	out := make([]*ast.ArgumentDefinition, 0, len(d.Fields))
	for _, f := range d.Fields {
		if includeDeprecated || !isDeprecated(f.Directives) {
			out = append(out, &ast.ArgumentDefinition{
				Name: f.Name, Description: f.Description, Type: f.Type,
				DefaultValue: f.DefaultValue, Directives: f.Directives,
			})
		}
	}
	return out
}

func specifiedByURL(d *ast.Definition) any {
	if d.Kind != ast.Scalar {
		return nil
	}
	if dir := d.Directives.ForName("specifiedBy"); dir != nil {
		if url := dir.Arguments.ForName("url"); url != nil && url.Value != nil {
			return url.Value.Raw
		}
	}
	return nil
}

func isOneOf(d *ast.Definition) any {
	if d.Kind != ast.InputObject {
		return nil
	}
	return d.Directives.ForName("oneOf") != nil
}

// filterArgs returns args without the deprecated ones unless
// includeDeprecated.
func filterArgs(args ast.ArgumentDefinitionList, includeDeprecated bool) []*ast.ArgumentDefinition {
	out := make([]*ast.ArgumentDefinition, 0, len(args))
	for _, a := range args {
		if includeDeprecated || !isDeprecated(a.Directives) {
			out = append(out, a)
		}
	}
	return out
}

func isDeprecated(dirs ast.DirectiveList) bool {
	return dirs.ForName("deprecated") != nil
}

// deprecationReason returns the reason of @deprecated, its default when
// not given, or nil when not deprecated.
func deprecationReason(dirs ast.DirectiveList) any {
	d := dirs.ForName("deprecated")
	if d == nil {
		return nil
	}
	if r := d.Arguments.ForName("reason"); r != nil && r.Value != nil && r.Value.Kind != ast.NullValue {
		return r.Value.Raw
	}
	return "No longer supported"
}

// defaultValue returns a default value as GraphQL literal text, or nil.
func defaultValue(v *ast.Value) any {
	if v == nil {
		return nil
	}
	return v.String()
}

// directiveLocations returns the locations of d as strings.
func directiveLocations(d *ast.DirectiveDefinition) []string {
	out := make([]string, len(d.Locations))
	for i, l := range d.Locations {
		out[i] = string(l)
	}
	return out
}
