package exec

import (
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/model"
)

// args coerces the arguments of a field or directive: defined arguments
// with their defaults, absent optional ones left out. It returns nil when
// no argument has a value.
func (c *inputCoercer) args(defs ast.ArgumentDefinitionList, args ast.ArgumentList) (map[string]any, error) {
	var out map[string]any
	for _, d := range defs {
		val, present, err := c.argValue(d, args.ForName(d.Name))
		if err != nil {
			return nil, err
		}
		if !present {
			continue
		}
		if out == nil {
			out = make(map[string]any, len(defs))
		}
		out[d.Name] = val
	}
	return out, nil
}

// argValue coerces the argument a (nil when not given) of definition d.
func (c *inputCoercer) argValue(d *ast.ArgumentDefinition, a *ast.Argument) (any, bool, error) {
	var (
		val     any
		present bool
		err     error
	)
	if a != nil {
		if val, present, err = c.literal(d.Type, a.Value); err != nil {
			return nil, false, inputErrorf("Argument %q has invalid value %s: %s", d.Name, a.Value.String(), model.ErrorMessage(err))
		}
	}
	if !present && d.DefaultValue != nil {
		val, present, err = c.literal(d.Type, d.DefaultValue)
		if err != nil {
			return nil, false, err
		}
	}
	switch {
	case !present && d.Type.NonNull:
		return nil, false, inputErrorf("Argument %q of required type %q was not provided.", d.Name, d.Type.String())
	case present && val == nil && d.Type.NonNull:
		return nil, false, inputErrorf("Argument %q of non-null type %q must not be null.", d.Name, d.Type.String())
	}
	return val, present, nil
}

// extra returns the arguments not defined by defs as plain JSON values,
// or nil when there are none.
func (c *inputCoercer) extra(defs ast.ArgumentDefinitionList, args ast.ArgumentList) map[string]any {
	var out map[string]any
	for _, a := range args {
		if defs.ForName(a.Name) != nil {
			continue
		}
		val, ok := c.plainLiteral(a.Value)
		if !ok {
			continue
		}
		if out == nil {
			out = make(map[string]any, len(args))
		}
		out[a.Name] = val
	}
	return out
}

// literal coerces the literal v to the input type t. present is false when
// v is a variable that was not provided (the caller then applies a
// default). Variable values are already coerced to their declared type,
// which validation has checked against t.
func (c *inputCoercer) literal(t *ast.Type, v *ast.Value) (val any, present bool, err error) {
	switch {
	case v.Kind == ast.Variable:
		// A copy: every use of a variable gets its own lists and maps.
		val, present = c.vars[v.Raw]
		return cloneValue(val), present, nil
	case v.Kind == ast.NullValue:
		if t.NonNull {
			return nil, false, inputErrorf("Expected non-nullable type %q not to be null.", t.String())
		}
		return nil, true, nil
	case t.Elem != nil:
		val, err = c.literalList(t, v)
		return val, err == nil, err
	}
	def := c.schema.Types[t.NamedType]
	switch {
	case def == nil:
		return nil, false, inputErrorf("Unknown type %q.", t.NamedType)
	case def.Kind == ast.InputObject:
		val, err = c.literalObject(def, v)
	case def.Kind == ast.Enum:
		val, err = literalEnum(def, v)
	case isBuiltinScalar(def.Name):
		val, err = literalScalar(def.Name, v)
	default:
		val, _ = c.plainLiteral(v)
	}
	return val, err == nil, err
}

// literalList coerces v to the list type t; a single value becomes a list
// of one. An unprovided variable inside a list is null.
func (c *inputCoercer) literalList(t *ast.Type, v *ast.Value) ([]any, error) {
	if v.Kind != ast.ListValue {
		item, _, err := c.literal(t.Elem, v)
		if err != nil {
			return nil, err
		}
		return []any{item}, nil
	}
	out := make([]any, len(v.Children))
	for i, child := range v.Children {
		item, _, err := c.literal(t.Elem, child.Value)
		if err != nil {
			return nil, err
		}
		if item == nil && t.Elem.NonNull {
			return nil, inputErrorf("Expected non-nullable type %q not to be null.", t.Elem.String())
		}
		out[i] = item
	}
	return out, nil
}

// literalObject coerces the object literal v to the input object def.
func (c *inputCoercer) literalObject(def *ast.Definition, v *ast.Value) (map[string]any, error) {
	if v.Kind != ast.ObjectValue {
		return nil, inputErrorf("Expected type %q to be an object.", def.Name)
	}
	out := make(map[string]any, len(def.Fields))
	for _, fd := range def.Fields {
		present := false
		if child := v.Children.ForName(fd.Name); child != nil {
			val, ok, err := c.literal(fd.Type, child)
			if err != nil {
				return nil, err
			}
			if ok {
				out[fd.Name], present = val, true
			}
		}
		if !present {
			if err := c.fieldDefault(def, fd, out); err != nil {
				return nil, err
			}
		}
	}
	return out, checkOneOf(def, out)
}

// literalEnum coerces v to the enum def.
func literalEnum(def *ast.Definition, v *ast.Value) (any, error) {
	if v.Kind != ast.EnumValue || def.EnumValues.ForName(v.Raw) == nil {
		return nil, inputErrorf("Value %s does not exist in %q enum.", v.String(), def.Name)
	}
	return v.Raw, nil
}

// literalScalar coerces v to the built-in scalar named name.
func literalScalar(name string, v *ast.Value) (any, error) {
	switch {
	case name == "Int" && v.Kind == ast.IntValue:
		i, err := strconv.ParseInt(v.Raw, 10, 32)
		if err != nil {
			return nil, inputErrorf("Int cannot represent non 32-bit signed integer value: %s", v.Raw)
		}
		return int(i), nil
	case name == "Float" && (v.Kind == ast.IntValue || v.Kind == ast.FloatValue):
		f, err := strconv.ParseFloat(v.Raw, 64)
		if err != nil {
			return nil, inputErrorf("Float cannot represent non numeric value: %s", v.Raw)
		}
		return f, nil
	case name == "String" && (v.Kind == ast.StringValue || v.Kind == ast.BlockValue):
		return v.Raw, nil
	case name == "ID" && (v.Kind == ast.StringValue || v.Kind == ast.BlockValue || v.Kind == ast.IntValue):
		return v.Raw, nil
	case name == "Boolean" && v.Kind == ast.BooleanValue:
		return v.Raw == "true", nil
	}
	return nil, inputErrorf("%s cannot represent value: %s", name, v.String())
}

// plainLiteral returns v as a plain JSON value (numbers as float64, enum
// values as strings), resolving variables; ok is false for a variable that
// was not provided.
func (c *inputCoercer) plainLiteral(v *ast.Value) (val any, ok bool) {
	switch v.Kind {
	case ast.Variable:
		val, ok = c.vars[v.Raw]
		return plainJSON(val), ok
	case ast.IntValue, ast.FloatValue:
		f, _ := strconv.ParseFloat(v.Raw, 64)
		return f, true
	case ast.BooleanValue:
		return v.Raw == "true", true
	case ast.NullValue:
		return nil, true
	case ast.ListValue:
		out := make([]any, len(v.Children))
		for i, child := range v.Children {
			out[i], _ = c.plainLiteral(child.Value)
		}
		return out, true
	case ast.ObjectValue:
		out := make(map[string]any, len(v.Children))
		for _, child := range v.Children {
			if item, ok := c.plainLiteral(child.Value); ok {
				out[child.Name] = item
			}
		}
		return out, true
	}
	return v.Raw, true // string, block string, enum value
}

// isBuiltinScalar reports whether name is one of the spec's scalars.
func isBuiltinScalar(name string) bool {
	switch name {
	case "Int", "Float", "String", "Boolean", "ID":
		return true
	}
	return false
}

// hasVariables reports whether any argument value refers to a variable.
func hasVariables(args ast.ArgumentList) bool {
	for _, a := range args {
		if valueHasVariables(a.Value) {
			return true
		}
	}
	return false
}

func valueHasVariables(v *ast.Value) bool {
	if v.Kind == ast.Variable {
		return true
	}
	for _, child := range v.Children {
		if valueHasVariables(child.Value) {
			return true
		}
	}
	return false
}
