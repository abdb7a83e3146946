package contractrt

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"math"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/graphql/internal/answer"
)

// This file answers the fields of a contract project that no row holds
// (docs/using/contract.md, "Generated fields"): a value generated from a
// seed — the field, its arguments and the row it belongs to — that
// conforms to the declared type: non-null positions get a value, lists
// one to three items, Int stays in 32 bits, enums take their values, an
// entity type one of its rows, an interface or union a row of one of its
// types, other objects a map whose fields are generated when selected.

// maxGenDepth bounds the nesting of generated objects that are not rows.
const maxGenDepth = 6

// mix hashes seed with the parts.
func mix(seed uint64, parts ...string) uint64 {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	h.Write(b[:])
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// argsSeed mixes a field's arguments into seed.
func argsSeed(seed uint64, name string, args map[string]any) uint64 {
	b, _ := json.Marshal(args) // maps marshal with sorted keys
	return mix(seed, name, string(b))
}

// genValue returns a value of type t for seed (owner names the type the
// field belongs to, for the choice of generator).
func (rt *Runtime) genValue(v *engine.View, owner, field string, t *ast.Type, seed uint64, depth int) any {
	if t.Elem != nil {
		if depth >= maxGenDepth {
			return []any{}
		}
		n := 1 + int(seed%3)
		if fd := rt.fieldDef(owner, field); fd != nil {
			if lo, hi, ok := contract.ListLength(fd); ok {
				n = (&contract.Field{Sized: true, ListMin: lo, ListMax: hi}).ListItems(seed)
			}
		}
		out := make([]any, 0, n)
		for i := 0; i < n; i++ {
			if x := rt.genValue(v, owner, field, t.Elem, mix(seed, "item", string(rune('0'+i))), depth+1); x != nil {
				out = append(out, x)
			}
		}
		return out
	}
	d := rt.schema.Types[t.NamedType]
	if d == nil {
		return nil
	}
	if d.Kind == ast.Enum || d.Kind == ast.Scalar {
		if x, ok := rt.genDirected(owner, field, d, seed); ok {
			return x
		}
	}
	switch d.Kind {
	case ast.Enum:
		if len(d.EnumValues) == 0 {
			return nil
		}
		return d.EnumValues[seed%uint64(len(d.EnumValues))].Name
	case ast.Scalar:
		return rt.genScalar(owner, field, d.Name, seed)
	}
	if row := rt.genRow(v, d.Name, seed); row != nil {
		return row
	}
	if depth >= maxGenDepth {
		return nil
	}
	return rt.genObject(v, rt.possibleObject(d, seed), seed, depth)
}

// fieldDef is the definition of the field of owner; nil for none.
func (rt *Runtime) fieldDef(owner, field string) *ast.FieldDefinition {
	if d := rt.schema.Types[owner]; d != nil {
		return d.Fields.ForName(field)
	}
	return nil
}

// genDirected is the value graphql-faker's directives give the field of
// owner (of the enum or scalar type d): ok is false without them.
func (rt *Runtime) genDirected(owner, field string, d *ast.Definition, seed uint64) (any, bool) {
	val, ok := rt.directed[[2]string{owner, field}]
	if !ok {
		return nil, false
	}
	x, err := rt.values(val.Kind, val.Options, seed)
	if err != nil || x == nil {
		return nil, false
	}
	return contract.Conform(d.Name, x), true
}

// isRow reports whether values of the object type name are rows (whose
// fields' resolvers read a row, so that a generated map cannot stand in).
func (rt *Runtime) isRow(name string) bool { return rt.tables[name] != nil }

// genScalar generates a scalar value: the generator contract.ValueOf
// picks, shaped to the built-in scalar's type.
func (rt *Runtime) genScalar(owner, field, typ string, seed uint64) any {
	switch typ {
	case "Int":
		return int(seed % 1000)
	case "Boolean":
		return seed%2 == 0
	}
	val := contract.ValueOf(owner, field, typ)
	x, err := rt.values(val.Kind, val.Options, seed)
	if err != nil || x == nil {
		x = "value-" + string(rune('a'+seed%26))
	}
	switch typ {
	case "Float":
		if f, ok := x.(float64); ok && !math.IsNaN(f) {
			return f
		}
		return float64(seed%100000) / 100
	case "String", "ID":
		if s, ok := x.(string); ok {
			return s
		}
		b, _ := json.Marshal(x)
		return string(b)
	}
	return x
}

// genRow returns a row of the entity (or of an entity of the interface or
// union) typ chosen by seed; nil when typ has no rows.
func (rt *Runtime) genRow(v *engine.View, typ string, seed uint64) any {
	tables := rt.tablesOf(typ)
	if len(tables) == 0 {
		return nil
	}
	for k := range tables {
		t := tables[(int(seed%uint64(len(tables)))+k)%len(tables)]
		tv := v.TableView(t)
		if tv.NotReady != nil {
			continue
		}
		l, err := (&ctQuery{where: &engine.Where{}, limit: -1}).rows(context.Background(), tv)
		if err != nil || l.Len() == 0 {
			continue
		}
		return &answer.RowObj{TV: tv, Row: l.At(int(seed % uint64(l.Len())))}
	}
	return nil
}

// possibleObject is the object type a generated value of d has: d, or
// one of an interface's or union's object types; nil when every candidate
// is an entity type without rows (its fields read rows: null is answered).
func (rt *Runtime) possibleObject(d *ast.Definition, seed uint64) *ast.Definition {
	if d.Kind == ast.Object {
		if rt.isRow(d.Name) {
			return nil
		}
		return d
	}
	var possible []*ast.Definition
	for _, p := range rt.schema.GetPossibleTypes(d) {
		if !rt.isRow(p.Name) {
			possible = append(possible, p)
		}
	}
	if len(possible) == 0 {
		return nil
	}
	return possible[seed%uint64(len(possible))]
}

// genObject returns a generated object of d whose fields are generated
// when selected.
func (rt *Runtime) genObject(v *engine.View, d *ast.Definition, seed uint64, depth int) any {
	if d == nil {
		return nil
	}
	m := map[string]any{"__typename": d.Name}
	for _, fd := range d.Fields {
		m[fd.Name] = rt.genLazy(v, d.Name, fd, seed, depth+1)
	}
	return m
}

// genLazy is the generated value of the field fd of owner, made when the
// field is selected, seeded by its arguments too.
func (rt *Runtime) genLazy(v *engine.View, owner string, fd *ast.FieldDefinition, seed uint64, depth int) exec.LazyField {
	return func(_ context.Context, args map[string]any) (any, error) {
		return rt.genValue(v, owner, fd.Name, fd.Type, argsSeed(mix(seed, fd.Name), fd.Name, args), depth), nil
	}
}
