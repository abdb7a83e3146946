package exec

import (
	"reflect"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/model"
)

// inputCoercer coerces input values (variable values from JSON, literals
// of the document) to the Go values resolvers see: Int as int, Float as
// float64, String and ID as string, Boolean as bool, enums as string,
// input objects as map[string]any, lists as []any, custom scalars as plain
// JSON values.
type inputCoercer struct {
	schema *ast.Schema
	vars   map[string]any // coerced variable values; absent means not provided
}

// fromJSON coerces a value decoded from JSON (numbers as json.Number, float64
// or Go integers) to the input type t.
func (c *inputCoercer) fromJSON(t *ast.Type, v any) (any, error) {
	if v == nil {
		if t.NonNull {
			return nil, inputErrorf("Expected non-nullable type %q not to be null.", t.String())
		}
		return nil, nil
	}
	if t.Elem != nil {
		return c.fromJSONList(t, v)
	}
	def := c.schema.Types[t.NamedType]
	if def == nil {
		return nil, inputErrorf("Unknown type %q.", t.NamedType)
	}
	switch def.Kind {
	case ast.Enum:
		s, ok := v.(string)
		if !ok {
			return nil, inputErrorf("Enum %q cannot represent non-string value: %s.", def.Name, inspect(v))
		}
		if def.EnumValues.ForName(s) == nil {
			return nil, inputErrorf("Value %s does not exist in %q enum.", inspect(v), def.Name)
		}
		return s, nil
	case ast.InputObject:
		return c.fromJSONObject(def, v)
	}
	return coerceScalarJSON(def.Name, v)
}

// fromJSONList coerces v to the list type t; a single value becomes a list of
// one, as the spec's input coercion of lists requires.
func (c *inputCoercer) fromJSONList(t *ast.Type, v any) (any, error) {
	items, ok := v.([]any)
	if !ok {
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.Slice {
			items = make([]any, rv.Len())
			for i := range items {
				items[i] = rv.Index(i).Interface()
			}
		} else {
			item, err := c.fromJSON(t.Elem, v)
			if err != nil {
				return nil, err
			}
			return []any{item}, nil
		}
	}
	out := make([]any, len(items))
	for i, item := range items {
		got, err := c.fromJSON(t.Elem, item)
		if err != nil {
			return nil, err
		}
		out[i] = got
	}
	return out, nil
}

// fromJSONObject coerces v to the input object def, applying field defaults.
func (c *inputCoercer) fromJSONObject(def *ast.Definition, v any) (any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, inputErrorf("Expected type %q to be an object.", def.Name)
	}
	for name := range m {
		if def.Fields.ForName(name) == nil {
			return nil, inputErrorf("Field %q is not defined by type %q.", name, def.Name)
		}
	}
	out := make(map[string]any, len(def.Fields))
	for _, fd := range def.Fields {
		raw, ok := m[fd.Name]
		if !ok {
			if err := c.fieldDefault(def, fd, out); err != nil {
				return nil, err
			}
			continue
		}
		got, err := c.fromJSON(fd.Type, raw)
		if err != nil {
			return nil, inputErrorf("Field %q: %s", fd.Name, model.ErrorMessage(err))
		}
		out[fd.Name] = got
	}
	return out, checkOneOf(def, out)
}

// fieldDefault sets the default of input field fd in out, if it has one.
func (c *inputCoercer) fieldDefault(def *ast.Definition, fd *ast.FieldDefinition, out map[string]any) error {
	if fd.DefaultValue != nil {
		got, ok, err := c.literal(fd.Type, fd.DefaultValue)
		if err != nil || ok {
			out[fd.Name] = got
		}
		return err
	}
	if fd.Type.NonNull {
		return inputErrorf("Field \"%s.%s\" of required type %q was not provided.", def.Name, fd.Name, fd.Type.String())
	}
	return nil
}

// checkOneOf enforces @oneOf: exactly one field, and not null.
func checkOneOf(def *ast.Definition, out map[string]any) error {
	if def.Directives.ForName("oneOf") == nil {
		return nil
	}
	if len(out) != 1 {
		return inputErrorf("OneOf Input Object %q must specify exactly one key.", def.Name)
	}
	for name, v := range out {
		if v == nil {
			return inputErrorf("Field \"%s.%s\" must be non-null.", def.Name, name)
		}
	}
	return nil
}
