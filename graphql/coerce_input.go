package graphql

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"

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

// json coerces a value decoded from JSON (numbers as json.Number, float64
// or Go integers) to the input type t.
func (c *inputCoercer) json(t *ast.Type, v any) (any, error) {
	if v == nil {
		if t.NonNull {
			return nil, inputErrorf("Expected non-nullable type %q not to be null.", t.String())
		}
		return nil, nil
	}
	if t.Elem != nil {
		return c.jsonList(t, v)
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
		return c.jsonObject(def, v)
	}
	return coerceScalarJSON(def.Name, v)
}

// jsonList coerces v to the list type t; a single value becomes a list of
// one, as the spec's input coercion of lists requires.
func (c *inputCoercer) jsonList(t *ast.Type, v any) (any, error) {
	items, ok := v.([]any)
	if !ok {
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.Slice {
			items = make([]any, rv.Len())
			for i := range items {
				items[i] = rv.Index(i).Interface()
			}
		} else {
			item, err := c.json(t.Elem, v)
			if err != nil {
				return nil, err
			}
			return []any{item}, nil
		}
	}
	out := make([]any, len(items))
	for i, item := range items {
		got, err := c.json(t.Elem, item)
		if err != nil {
			return nil, err
		}
		out[i] = got
	}
	return out, nil
}

// jsonObject coerces v to the input object def, applying field defaults.
func (c *inputCoercer) jsonObject(def *ast.Definition, v any) (any, error) {
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
		got, err := c.json(fd.Type, raw)
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

// coerceScalarJSON coerces a JSON value to the scalar named name.
func coerceScalarJSON(name string, v any) (any, error) {
	switch name {
	case "Int":
		return coerceInt(v)
	case "Float":
		f, ok := toFloat(v)
		if !ok {
			return nil, inputErrorf("Float cannot represent non numeric value: %s", inspect(v))
		}
		return f, nil
	case "String":
		if s, ok := v.(string); ok {
			return s, nil
		}
		return nil, inputErrorf("String cannot represent a non string value: %s", inspect(v))
	case "Boolean":
		if b, ok := v.(bool); ok {
			return b, nil
		}
		return nil, inputErrorf("Boolean cannot represent a non boolean value: %s", inspect(v))
	case "ID":
		return coerceID(v)
	}
	return plainJSON(v), nil
}

// coerceInt coerces a JSON number to a 32-bit int.
func coerceInt(v any) (any, error) {
	f, ok := toFloat(v)
	if !ok || f != math.Trunc(f) {
		return nil, inputErrorf("Int cannot represent non-integer value: %s", inspect(v))
	}
	if f < math.MinInt32 || f > math.MaxInt32 {
		return nil, inputErrorf("Int cannot represent non 32-bit signed integer value: %s", inspect(v))
	}
	return int(f), nil
}

// coerceID coerces a string or an integer to an ID.
func coerceID(v any) (any, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return strconv.FormatInt(i, 10), nil
		}
	default:
		if f, ok := toFloat(v); ok && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return strconv.FormatInt(int64(f), 10), nil
		}
	}
	return nil, inputErrorf("ID cannot represent value: %s", inspect(v))
}

// toFloat returns v as a float64 if it is a number: json.Number, or any Go
// integer or float type.
func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		return f, err == nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(rv.Uint()), true
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		return f, !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	return 0, false
}

// plainJSON returns v with every number as float64, recursively: the form
// custom scalars take in Field.Args and Field.Extra.
func plainJSON(v any) any {
	switch x := v.(type) {
	case nil, bool, string, float64:
		return v
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = plainJSON(item)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, item := range x {
			out[k] = plainJSON(item)
		}
		return out
	}
	if f, ok := toFloat(v); ok {
		return f
	}
	return v
}

// inspect renders v for an error message, as JSON when it can.
func inspect(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// inputErrorf returns a BAD_USER_INPUT error. Its messages follow
// graphql-js, which clients and their users know.
func inputErrorf(format string, args ...any) error {
	return &model.Error{Code: model.ErrBadUserInput, Message: fmt.Sprintf(format, args...)}
}
