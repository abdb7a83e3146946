package graphql

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/model"
)

// This file compares two versions of a GraphQL schema (docs/using/
// import-export.md, "Baseline and changes"): the management API's schemaChanges compares a project's
// runtime schema with its saved baseline, and `mockgql schema diff` does the
// same for two files in a CI pipeline. Descriptions are not compared: they
// change no consumer's query.

// SchemaChange is one difference DiffSchemas finds (model.SchemaChange).
type SchemaChange = model.SchemaChange

// Change types of SchemaChange.Type. A rename is seen as a removal and an
// addition: nothing in the SDL tells the two apart.
const (
	ChangeTypeAdded          = "TYPE_ADDED"
	ChangeTypeRemoved        = "TYPE_REMOVED"
	ChangeTypeKindChanged    = "TYPE_KIND_CHANGED"
	ChangeFieldAdded         = "FIELD_ADDED"
	ChangeFieldRemoved       = "FIELD_REMOVED"
	ChangeTypeChanged        = "TYPE_CHANGED"
	ChangeArgumentAdded      = "ARGUMENT_ADDED"
	ChangeArgumentRemoved    = "ARGUMENT_REMOVED"
	ChangeDefaultChanged     = "DEFAULT_CHANGED"
	ChangeInputFieldAdded    = "INPUT_FIELD_ADDED"
	ChangeInputFieldRemoved  = "INPUT_FIELD_REMOVED"
	ChangeEnumValueAdded     = "ENUM_VALUE_ADDED"
	ChangeEnumValueRemoved   = "ENUM_VALUE_REMOVED"
	ChangeUnionMemberAdded   = "UNION_MEMBER_ADDED"
	ChangeUnionMemberRemoved = "UNION_MEMBER_REMOVED"
	ChangeInterfaceAdded     = "INTERFACE_ADDED"
	ChangeInterfaceRemoved   = "INTERFACE_REMOVED"
	ChangeDirectiveAdded     = "DIRECTIVE_ADDED"
	ChangeDirectiveRemoved   = "DIRECTIVE_REMOVED"
)

// DiffSchemas compares two schemas given as SDL and returns every change
// from oldSDL to newSDL, classified for consumers of the old one: BREAKING
// first, then DANGEROUS, then SAFE, each group ordered by path and type, so
// the same inputs always give the same list. A schema that does not parse
// or validate gives a BAD_USER_INPUT error saying which one.
func DiffSchemas(oldSDL, newSDL string) ([]SchemaChange, error) {
	old, err := loadDiffSchema("old", oldSDL)
	if err != nil {
		return nil, err
	}
	cur, err := loadDiffSchema("new", newSDL)
	if err != nil {
		return nil, err
	}
	return DiffParsed(old, cur), nil
}

// DiffParsed is DiffSchemas of two schemas already parsed and validated,
// such as contract.Parse makes of documents that use directives defined
// beside them (federation's, graphql-faker's).
func DiffParsed(old, cur *ast.Schema) []SchemaChange {
	d := &differ{}
	d.types(old, cur)
	d.directives(old, cur)
	slices.SortFunc(d.out, compareChanges)
	return d.out
}

// loadDiffSchema parses and validates one side of a comparison.
// A field repeated with one signature counts once, as an imported
// contract serves it (contract.DropRepeatedFields: GitHub's schema
// repeats two).
func loadDiffSchema(which, sdl string) (*ast.Schema, error) {
	sd, err := parser.ParseSchemas(validator.Prelude, &ast.Source{Name: which + ".graphql", Input: sdl})
	if err == nil {
		contract.DropRepeatedFields(sd)
		var s *ast.Schema
		if s, err = validator.ValidateSchemaDocument(sd); err == nil {
			return s, nil
		}
	}
	return nil, model.Errorf(model.CodeBadUserInput, "the %s schema is not valid GraphQL SDL: %v", which, err)
}

// compareChanges orders changes by criticality, path and type.
func compareChanges(a, b SchemaChange) int {
	return cmp.Or(cmp.Compare(criticalityRank(a.Criticality), criticalityRank(b.Criticality)),
		strings.Compare(a.Path, b.Path), strings.Compare(a.Type, b.Type))
}

func criticalityRank(c string) int {
	return slices.Index([]string{model.ChangeBreaking, model.ChangeDangerous, model.ChangeSafe}, c)
}

// differ collects the changes of one comparison.
type differ struct {
	out []SchemaChange
}

func (d *differ) add(typ, criticality, path, format string, args ...any) {
	d.out = append(d.out, SchemaChange{Type: typ, Criticality: criticality, Path: path, Message: fmt.Sprintf(format, args...)})
}

// types compares the named types the schemas define (built-ins left out).
func (d *differ) types(old, cur *ast.Schema) {
	for _, name := range unionKeys(old.Types, cur.Types) {
		o, n := old.Types[name], cur.Types[name]
		switch {
		case o != nil && o.BuiltIn || n != nil && n.BuiltIn:
		case n == nil:
			d.add(ChangeTypeRemoved, model.ChangeBreaking, name, "Type %s (%s) was removed (or renamed); operations that use it fail.", name, kindName(o.Kind))
		case o == nil:
			d.add(ChangeTypeAdded, model.ChangeSafe, name, "Type %s (%s) was added.", name, kindName(n.Kind))
		case o.Kind != n.Kind:
			d.add(ChangeTypeKindChanged, model.ChangeBreaking, name, "Type %s changed from %s to %s; operations that use it fail.", name, kindName(o.Kind), kindName(n.Kind))
		default:
			d.definition(o, n)
		}
	}
}

// definition compares two versions of a type of the same kind.
func (d *differ) definition(o, n *ast.Definition) {
	switch o.Kind {
	case ast.Object, ast.Interface:
		d.fields(o, n)
		d.interfaces(o, n)
	case ast.InputObject:
		d.inputFields(o, n)
	case ast.Enum:
		d.enumValues(o, n)
	case ast.Union:
		d.unionMembers(o, n)
	}
}

// fields compares the output fields of an object or interface type.
func (d *differ) fields(o, n *ast.Definition) {
	for _, name := range unionNames(o.Fields, n.Fields, fieldName) {
		of, nf := o.Fields.ForName(name), n.Fields.ForName(name)
		path := o.Name + "." + name
		switch {
		case strings.HasPrefix(name, "__"):
		case nf == nil:
			d.add(ChangeFieldRemoved, model.ChangeBreaking, path, "Field %s was removed (or renamed); operations that select it fail.", path)
		case of == nil:
			d.add(ChangeFieldAdded, model.ChangeSafe, path, "Field %s: %s was added.", path, nf.Type)
		default:
			d.outputType(path, of.Type, nf.Type)
			d.arguments(path, of.Arguments, nf.Arguments)
		}
	}
}

// outputType reports a changed field type: making a field non-null is safe
// for readers, anything else may break them.
func (d *differ) outputType(path string, o, n *ast.Type) {
	if o.String() == n.String() {
		return
	}
	crit := model.ChangeBreaking
	if narrows(o, n) {
		crit = model.ChangeSafe
	}
	d.add(ChangeTypeChanged, crit, path, "The type of %s changed from %s to %s.", path, o, n)
}

// inputType reports a changed argument or input field type: making it
// nullable is safe for callers, anything else may break them.
func (d *differ) inputType(path string, o, n *ast.Type) {
	if o.String() == n.String() {
		return
	}
	crit := model.ChangeBreaking
	if narrows(n, o) {
		crit = model.ChangeSafe
	}
	d.add(ChangeTypeChanged, crit, path, "The type of %s changed from %s to %s.", path, o, n)
}

// narrows reports whether type n accepts only values of type o: the same
// named type and list shape, with non-null kept or added at every level.
func narrows(o, n *ast.Type) bool {
	if o.NonNull && !n.NonNull {
		return false
	}
	if (o.Elem == nil) != (n.Elem == nil) {
		return false
	}
	if o.Elem != nil {
		return narrows(o.Elem, n.Elem)
	}
	return o.NamedType == n.NamedType
}

// arguments compares the arguments of a field or directive at path.
func (d *differ) arguments(path string, o, n ast.ArgumentDefinitionList) {
	for _, name := range unionNames(o, n, argName) {
		oa, na := o.ForName(name), n.ForName(name)
		at := path + "(" + name + ":)"
		switch {
		case na == nil:
			d.add(ChangeArgumentRemoved, model.ChangeBreaking, at, "Argument %s was removed (or renamed); operations that pass it fail.", at)
		case oa == nil && required(na.Type, na.DefaultValue):
			d.add(ChangeArgumentAdded, model.ChangeBreaking, at, "Required argument %s: %s was added; operations that do not pass it fail.", at, na.Type)
		case oa == nil:
			d.add(ChangeArgumentAdded, model.ChangeSafe, at, "Optional argument %s: %s was added.", at, na.Type)
		default:
			d.inputType(at, oa.Type, na.Type)
			d.defaultValue(at, oa.DefaultValue, na.DefaultValue)
		}
	}
}

// inputFields compares the fields of an input object type.
func (d *differ) inputFields(o, n *ast.Definition) {
	for _, name := range unionNames(o.Fields, n.Fields, fieldName) {
		of, nf := o.Fields.ForName(name), n.Fields.ForName(name)
		path := o.Name + "." + name
		switch {
		case nf == nil:
			d.add(ChangeInputFieldRemoved, model.ChangeBreaking, path, "Input field %s was removed (or renamed); inputs that set it fail.", path)
		case of == nil && required(nf.Type, nf.DefaultValue):
			d.add(ChangeInputFieldAdded, model.ChangeBreaking, path, "Required input field %s: %s was added; inputs without it fail.", path, nf.Type)
		case of == nil:
			d.add(ChangeInputFieldAdded, model.ChangeSafe, path, "Optional input field %s: %s was added.", path, nf.Type)
		default:
			d.inputType(path, of.Type, nf.Type)
			d.defaultValue(path, of.DefaultValue, nf.DefaultValue)
		}
	}
}

// defaultValue reports a changed default: callers that rely on it get a
// different behaviour without changing their query.
func (d *differ) defaultValue(path string, o, n *ast.Value) {
	os, ns := valueText(o), valueText(n)
	if os == ns {
		return
	}
	d.add(ChangeDefaultChanged, model.ChangeDangerous, path, "The default of %s changed from %s to %s.", path, os, ns)
}

func valueText(v *ast.Value) string {
	if v == nil {
		return "none"
	}
	return v.String()
}

// required reports whether an argument or input field must be given.
func required(t *ast.Type, def *ast.Value) bool { return t.NonNull && def == nil }

// enumValues compares the values of an enum type.
func (d *differ) enumValues(o, n *ast.Definition) {
	for _, name := range unionNames(o.EnumValues, n.EnumValues, enumName) {
		path := o.Name + "." + name
		switch {
		case n.EnumValues.ForName(name) == nil:
			d.add(ChangeEnumValueRemoved, model.ChangeBreaking, path, "Enum value %s was removed (or renamed); operations that send it fail.", path)
		case o.EnumValues.ForName(name) == nil:
			d.add(ChangeEnumValueAdded, model.ChangeDangerous, path, "Enum value %s was added; clients that switch over %s may not handle it.", path, o.Name)
		}
	}
}

// unionMembers compares the member types of a union.
func (d *differ) unionMembers(o, n *ast.Definition) {
	for _, name := range unionStrings(o.Types, n.Types) {
		switch {
		case !slices.Contains(n.Types, name):
			d.add(ChangeUnionMemberRemoved, model.ChangeBreaking, o.Name, "%s was removed from union %s; fragments on it no longer match.", name, o.Name)
		case !slices.Contains(o.Types, name):
			d.add(ChangeUnionMemberAdded, model.ChangeDangerous, o.Name, "%s was added to union %s; clients may receive a type they do not handle.", name, o.Name)
		}
	}
}

// interfaces compares the interfaces an object or interface implements.
func (d *differ) interfaces(o, n *ast.Definition) {
	for _, name := range unionStrings(o.Interfaces, n.Interfaces) {
		switch {
		case !slices.Contains(n.Interfaces, name):
			d.add(ChangeInterfaceRemoved, model.ChangeBreaking, o.Name, "%s no longer implements %s; fragments on %s no longer match it.", o.Name, name, name)
		case !slices.Contains(o.Interfaces, name):
			d.add(ChangeInterfaceAdded, model.ChangeDangerous, o.Name, "%s now implements %s; clients may receive it where they expect other types.", o.Name, name)
		}
	}
}

// directives compares the directive definitions (built-ins left out).
func (d *differ) directives(old, cur *ast.Schema) {
	for _, name := range unionKeys(old.Directives, cur.Directives) {
		o, n := old.Directives[name], cur.Directives[name]
		path := "@" + name
		switch {
		case builtInDirective(o) || builtInDirective(n):
		case n == nil:
			d.add(ChangeDirectiveRemoved, model.ChangeBreaking, path, "Directive %s was removed; documents that use it fail.", path)
		case o == nil:
			d.add(ChangeDirectiveAdded, model.ChangeSafe, path, "Directive %s was added.", path)
		default:
			d.arguments(path, o.Arguments, n.Arguments)
		}
	}
}

func builtInDirective(d *ast.DirectiveDefinition) bool {
	return d != nil && d.Position != nil && d.Position.Src != nil && d.Position.Src.BuiltIn
}

// kindName names a definition kind for messages.
func kindName(k ast.DefinitionKind) string {
	switch k {
	case ast.Object:
		return "object type"
	case ast.InputObject:
		return "input type"
	case ast.Interface:
		return "interface"
	case ast.Union:
		return "union"
	case ast.Enum:
		return "enum"
	case ast.Scalar:
		return "scalar"
	}
	return string(k)
}

func fieldName(f *ast.FieldDefinition) string    { return f.Name }
func argName(a *ast.ArgumentDefinition) string   { return a.Name }
func enumName(v *ast.EnumValueDefinition) string { return v.Name }

// unionNames returns the sorted names of the items of both lists.
func unionNames[T any](a, b []T, name func(T) string) []string {
	var names []string
	for _, l := range [][]T{a, b} {
		for _, x := range l {
			names = append(names, name(x))
		}
	}
	return unionStrings(names, nil)
}

// unionKeys returns the sorted keys of both maps.
func unionKeys[V any](a, b map[string]V) []string {
	var names []string
	for _, m := range []map[string]V{a, b} {
		for k := range m {
			names = append(names, k)
		}
	}
	return unionStrings(names, nil)
}

// unionStrings returns the sorted distinct strings of a and b.
func unionStrings(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}
