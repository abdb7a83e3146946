package graphql

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/contract"
)

// This file writes the queries the contract tests send (every field a
// root field reaches, to depth 2, with fragments on each possible type)
// and checks that answers conform to the schema.

// maxQueryDepth is how deep generated queries select objects.
const maxQueryDepth = 2

// fieldQuery selects fd with literals for its required arguments.
func fieldQuery(h *rtHarness, s *ast.Schema, fd *ast.FieldDefinition, depth int) string {
	return fd.Name + argLiterals(h, s, fd) + selection(h, s, fd.Type, depth)
}

// argLiterals gives each required argument of fd a literal: a real key for
// IDs and keys, else a value of its type.
func argLiterals(h *rtHarness, s *ast.Schema, fd *ast.FieldDefinition) string {
	var parts []string
	for _, a := range fd.Arguments {
		if a.Type.NonNull && a.DefaultValue == nil {
			parts = append(parts, a.Name+": "+argLiteral(h, s, fd.Name, a.Name, a.Type, 0))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// argLiteral is a GraphQL literal of t for the argument (or input field) name
// of the root field root.
func argLiteral(h *rtHarness, s *ast.Schema, root, name string, t *ast.Type, depth int) string {
	if t.Elem != nil {
		return "[" + argLiteral(h, s, root, name, t.Elem, depth) + "]"
	}
	d := s.Types[t.NamedType]
	switch {
	case d.Kind == ast.Enum:
		return d.EnumValues[0].Name
	case d.Kind == ast.InputObject:
		var parts []string
		for _, f := range d.Fields {
			if f.Type.NonNull && f.DefaultValue == nil && depth < 3 {
				parts = append(parts, f.Name+": "+argLiteral(h, s, root, f.Name, f.Type, depth+1))
			}
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case strings.EqualFold(name, "id") || strings.EqualFold(name, "ids") || d.Name == "ID":
		k, _ := json.Marshal(firstKey(h, root))
		if d.Name == "Int" || d.Name == "ID" || d.Name == "String" {
			if _, isNum := firstKey(h, root).(int); isNum && d.Name != "Int" {
				k, _ = json.Marshal(fmt.Sprint(firstKey(h, root)))
			}
		}
		return string(k)
	case d.Name == "Int":
		return "1"
	case d.Name == "Float":
		return "1.5"
	case d.Name == "Boolean":
		return "true"
	}
	return `"a"`
}

// firstKey is the key of the first row of the entity the root field root
// serves (the first entity of an interface or union).
func firstKey(h *rtHarness, root string) any {
	ct := h.rt.contract
	for _, list := range [][]*contract.RootField{ct.Plan().Queries, ct.Plan().Mutations} {
		for _, rf := range list {
			if rf.Name != root {
				continue
			}
			if ts := ct.TablesOf(rf.Entity); len(ts) > 0 {
				var e *contract.Entity
				for _, x := range ct.Plan().Entities {
					if x.Type == ts[0].Name {
						e = x
					}
				}
				return contract.Key(e.Type, keyType(e), 0)
			}
		}
	}
	return "1"
}

func keyType(e *contract.Entity) string {
	for _, f := range e.Fields {
		if f.Name == e.Key {
			return f.Type
		}
	}
	return ""
}

// selection selects the fields of t's named type: leaves, objects while
// depth allows, and a fragment on each possible type of an interface or
// union (fields aliased Type__field, so that fields of the same name and
// different types do not conflict).
func selection(h *rtHarness, s *ast.Schema, t *ast.Type, depth int) string {
	d := s.Types[t.Name()]
	switch d.Kind {
	case ast.Scalar, ast.Enum:
		return ""
	case ast.Object:
		return " { __typename " + fields(h, s, d, depth, "") + "}"
	}
	var b strings.Builder
	b.WriteString(" { __typename ")
	for _, p := range s.GetPossibleTypes(d) {
		fmt.Fprintf(&b, "... on %s { %s} ", p.Name, fields(h, s, p, depth, p.Name+"__"))
	}
	b.WriteString("}")
	return b.String()
}

// fields selects the fields of the object d, aliased with prefix.
func fields(h *rtHarness, s *ast.Schema, d *ast.Definition, depth int, prefix string) string {
	var b strings.Builder
	for _, fd := range d.Fields {
		if strings.HasPrefix(fd.Name, "__") {
			continue
		}
		leaf := s.Types[fd.Type.Name()].Kind == ast.Scalar || s.Types[fd.Type.Name()].Kind == ast.Enum
		if !leaf && depth+1 >= maxQueryDepth+1 {
			continue
		}
		if prefix != "" {
			b.WriteString(prefix + fd.Name + ": ")
		}
		b.WriteString(fieldQuery(h, s, fd, depth+1) + " ")
	}
	return b.String()
}

// conforms checks an object value of the type def; "" when it conforms.
func conforms(s *ast.Schema, def *ast.Definition, v any, path string) string {
	m, ok := v.(map[string]any)
	if !ok {
		return path + ": not an object"
	}
	concrete := def
	if tn, ok := m["__typename"].(string); ok {
		concrete = s.Types[tn]
		if concrete == nil || concrete.Kind != ast.Object || def.Kind != ast.Object && !possible(s, def, tn) || def.Kind == ast.Object && tn != def.Name {
			return fmt.Sprintf("%s: __typename %q is not a type of %s", path, tn, def.Name)
		}
	} else if def.Kind != ast.Object {
		return path + ": an abstract value without __typename"
	}
	for k, x := range m {
		if k == "__typename" {
			continue
		}
		name := k
		if i := strings.Index(k, "__"); i > 0 {
			name = k[i+2:]
		}
		fd := concrete.Fields.ForName(name)
		if fd == nil {
			return fmt.Sprintf("%s.%s: %s has no such field", path, k, concrete.Name)
		}
		if e := conformsType(s, fd.Type, x, path+"."+k); e != "" {
			return e
		}
	}
	return ""
}

func possible(s *ast.Schema, def *ast.Definition, name string) bool {
	for _, p := range s.GetPossibleTypes(def) {
		if p.Name == name {
			return true
		}
	}
	return false
}

// conformsType checks a value of the type t.
func conformsType(s *ast.Schema, t *ast.Type, x any, path string) string {
	if x == nil {
		if t.NonNull {
			return path + ": null for a non-null " + t.String()
		}
		return ""
	}
	if t.Elem != nil {
		list, ok := x.([]any)
		if !ok {
			return path + ": not a list"
		}
		for i, item := range list {
			if e := conformsType(s, t.Elem, item, fmt.Sprintf("%s[%d]", path, i)); e != "" {
				return e
			}
		}
		return ""
	}
	d := s.Types[t.NamedType]
	switch d.Kind {
	case ast.Enum:
		if name, _ := x.(string); d.EnumValues.ForName(name) == nil {
			return fmt.Sprintf("%s: %v is not a value of %s", path, x, d.Name)
		}
		return ""
	case ast.Scalar:
		return scalarConforms(d.Name, x, path)
	}
	return conforms(s, d, x, path)
}

// scalarConforms checks a built-in scalar; custom scalars take any value.
func scalarConforms(name string, x any, path string) string {
	ok := true
	switch name {
	case "Int":
		f, isNum := x.(float64)
		ok = isNum && f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32
	case "Float":
		_, ok = x.(float64)
	case "String", "ID":
		_, ok = x.(string)
	case "Boolean":
		_, ok = x.(bool)
	}
	if !ok {
		return fmt.Sprintf("%s: %v is not a %s", path, x, name)
	}
	return ""
}
