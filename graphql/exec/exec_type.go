package exec

import (
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
)

// objectType is an object type of the schema with its fields precomputed,
// so that execution looks a field up once per plan, not per value.
type objectType struct {
	def      *ast.Definition
	name     string
	nameJSON string // name as a JSON string, for __typename
	fields   map[string]*fieldInfo
}

// fieldInfo is a field of an object type as the executor runs it.
type fieldInfo struct {
	def      *ast.FieldDefinition
	key      string // "Type.field"
	resolver Resolver
	loose    bool
	out      *outType
}

// outKind is the shape of an output type.
type outKind uint8

// The leaf kinds come before kindObject (see outType.leaf).
const (
	kindCustom outKind = iota // custom scalar: plain JSON
	kindInt
	kindFloat
	kindString
	kindBoolean
	kindID
	kindEnum
	kindObject
	kindAbstract
	kindList
)

// outType is an output type reference resolved against the schema.
type outType struct {
	kind     outKind
	nonNull  bool
	name     string // named type; "" for a list
	elem     *outType
	obj      *objectType     // kindObject
	possible map[string]bool // kindAbstract: names of its object types
	enum     map[string]bool // kindEnum: value names
}

// leaf reports whether t is a scalar or an enum.
func (t *outType) leaf() bool { return t.kind < kindObject }

// buildTypes precomputes the object types of s with their fields.
func buildTypes(s *ast.Schema) map[string]*objectType {
	types := make(map[string]*objectType)
	for name, def := range s.Types {
		if def.Kind == ast.Object {
			types[name] = &objectType{def: def, name: name, nameJSON: strconv.Quote(name), fields: make(map[string]*fieldInfo, len(def.Fields))}
		}
	}
	named := make(map[string]*outType)
	for _, ot := range types {
		for _, fd := range ot.def.Fields {
			ot.fields[fd.Name] = &fieldInfo{def: fd, key: ot.name + "." + fd.Name, out: resolveOut(s, types, named, fd.Type)}
		}
	}
	return types
}

// resolveOut resolves t, sharing the nullable named outTypes in named.
func resolveOut(s *ast.Schema, types map[string]*objectType, named map[string]*outType, t *ast.Type) *outType {
	if t.Elem != nil {
		return &outType{kind: kindList, nonNull: t.NonNull, elem: resolveOut(s, types, named, t.Elem)}
	}
	base, ok := named[t.NamedType]
	if !ok {
		base = namedOut(s, types, t.NamedType)
		named[t.NamedType] = base
	}
	if !t.NonNull {
		return base
	}
	nn := *base
	nn.nonNull = true
	return &nn
}

// namedOut returns the nullable outType of the named type.
func namedOut(s *ast.Schema, types map[string]*objectType, name string) *outType {
	o := &outType{name: name}
	def := s.Types[name]
	switch {
	case def == nil:
		o.kind = kindCustom
	case def.Kind == ast.Object:
		o.kind, o.obj = kindObject, types[name]
	case def.Kind == ast.Interface || def.Kind == ast.Union:
		o.kind, o.possible = kindAbstract, make(map[string]bool)
		for _, p := range s.GetPossibleTypes(def) {
			o.possible[p.Name] = true
		}
	case def.Kind == ast.Enum:
		o.kind, o.enum = kindEnum, make(map[string]bool, len(def.EnumValues))
		for _, v := range def.EnumValues {
			o.enum[v.Name] = true
		}
	default:
		o.kind = scalarKind(name)
	}
	return o
}

// scalarKind returns the kind of a scalar by name.
func scalarKind(name string) outKind {
	switch name {
	case "Int":
		return kindInt
	case "Float":
		return kindFloat
	case "String":
		return kindString
	case "Boolean":
		return kindBoolean
	case "ID":
		return kindID
	}
	return kindCustom
}
