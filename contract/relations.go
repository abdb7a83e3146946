package contract

import (
	"github.com/vektah/gqlparser/v2/ast"
)

// target returns the row type a field of an entity leads to — directly,
// as a list, or through a connection or page wrapper — and whether it
// leads to many rows; "" when the field holds no rows.
func (in *interpreter) target(f *ast.FieldDefinition) (string, bool) {
	d := in.def(f.Type)
	if d == nil {
		return "", false
	}
	if w := in.wrappers[d.Name]; w != nil && (w.Kind == "connection" || w.Kind == "page") {
		return w.Entity, true
	}
	if in.entities[d.Name] != nil || in.isRowType(d) && d.Kind != ast.Object {
		return d.Name, isList(f.Type)
	}
	return "", false
}

// relations pairs the row-holding fields of the entities: Book.author and
// Author.books are one relation, held as a foreign key on Book. A field
// with no field back is a relation of its own.
func (in *interpreter) relations(entities []*Entity) []*Relation {
	var out []*Relation
	paired := map[string]bool{}
	for _, e := range entities {
		for _, f := range in.s.Types[e.Type].Fields {
			to, many := in.target(f)
			if to == "" || paired[e.Type+"."+f.Name] {
				continue
			}
			r := &Relation{From: e.Type, FromField: f.Name, To: to, Many: many}
			if back := in.fieldBack(e.Type, f.Name, to); back != nil {
				_, r.ToMany = in.target(back)
				r.ToField = back.Name
				paired[to+"."+back.Name] = true
			}
			r = r.canonical()
			r.Key = foreignKey(in.entities[r.From], r)
			in.sized(r)
			out = append(out, r)
		}
	}
	return out
}

// sized reads @listLength on the list side of a to-one relation r
// (Company.employees for Employee.company) into r.
func (in *interpreter) sized(r *Relation) {
	if r.Many || r.ToField == "" || !r.ToMany {
		return
	}
	fd := in.s.Types[r.To].Fields.ForName(r.ToField)
	if fd == nil {
		return
	}
	lo, hi, ok := ListLength(fd)
	if !ok {
		return
	}
	r.ToSized, r.ToMin, r.ToMax = true, lo, hi
	if from := in.s.Types[r.From].Fields.ForName(r.FromField); from != nil {
		r.FromNonNull = from.Type.NonNull
	}
}

// fieldBack returns the field of to that leads back to from's rows, other
// than from.field itself: the only one, or among several the one named
// after from (Author.books for Book).
func (in *interpreter) fieldBack(from, field, to string) *ast.FieldDefinition {
	d := in.s.Types[to]
	if d == nil || d.Kind != ast.Object {
		return nil
	}
	var found []*ast.FieldDefinition
	for _, f := range d.Fields {
		if t, _ := in.target(f); t == from && !(to == from && f.Name == field) {
			found = append(found, f)
		}
	}
	if len(found) == 1 {
		return found[0]
	}
	for _, f := range found {
		if sameEntity(f.Name, from) {
			return f
		}
	}
	return nil
}

// canonical puts the to-one side first, so that From holds the foreign
// key: Author.books ↔ Book.author becomes Book.author ↔ Author.books.
func (r *Relation) canonical() *Relation {
	if r.Many && r.ToField != "" && !r.ToMany {
		return &Relation{From: r.To, FromField: r.ToField, To: r.From, ToField: r.FromField, Many: false, ToMany: true}
	}
	return r
}

// foreignKey returns the field of from that holds r's key (authorId,
// author_id for Book.author), marking its value as a reference to r.To,
// or "" when from shows none or r is not to-one.
func foreignKey(from *Entity, r *Relation) string {
	if from == nil || r.Many {
		return ""
	}
	for _, f := range from.Fields {
		if n := norm(f.Name); !f.List && (n == norm(r.FromField)+"id" || n == norm(r.FromField)+"key") {
			f.Value = Value{Kind: "ref", Options: map[string]any{"table": r.To}}
			return f.Name
		}
	}
	return ""
}
