package contract

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"strings"
)

// Values makes one generated value of a runtime generator kind with its
// options, deterministically from seed (the runtime's generators; the
// caller passes them in, so that this package stays free of them).
type Values func(kind string, options map[string]any, seed uint64) (any, error)

// HiddenKey is the column that identifies the rows of an entity whose type
// has no ID field; hidden foreign keys are named after their relation
// field (HiddenKey + "author" for a hidden Book.author link).
const HiddenKey = "__key"

// maxEmbedDepth bounds how deep embedded objects nest in a generated row
// (a type may embed itself).
const maxEmbedDepth = 3

// Rows generates count(entity) rows of each entity of p, the same for the
// same seed: keys, the values of gen for each field, and a foreign key
// for each to-one relation that points at an existing row of its target,
// so that Book.author is the author whose books list the book.
func (p *Plan) Rows(count func(entity string) int, seed uint64, gen Values) (map[string][]map[string]any, error) {
	g := &rowGen{p: p, seed: seed, gen: gen, counts: map[string]int{}}
	for _, e := range p.Entities {
		g.counts[e.Type] = count(e.Type)
	}
	out := map[string][]map[string]any{}
	for _, e := range p.Entities {
		rows := make([]map[string]any, g.counts[e.Type])
		for i := range rows {
			row, err := g.row(e, i)
			if err != nil {
				return nil, err
			}
			rows[i] = row
		}
		out[e.Type] = rows
	}
	return out, nil
}

// rowGen holds what Rows needs while it generates.
type rowGen struct {
	p      *Plan
	seed   uint64
	gen    Values
	counts map[string]int
}

// row generates row i of e.
func (g *rowGen) row(e *Entity, i int) (map[string]any, error) {
	row, err := g.object(e, e.Type, i, 0)
	if err != nil {
		return nil, err
	}
	if e.Key == "" {
		row[HiddenKey] = Key(e.Type, "", i)
	}
	for _, r := range g.p.Relations {
		if r.From != e.Type || r.Many || g.counts[r.To] == 0 {
			continue
		}
		target := int(g.hash(e.Type, r.FromField, i) % uint64(g.counts[r.To]))
		row[r.Column()] = g.keyOf(r.To, target)
	}
	return row, nil
}

// object generates the fields of e (an entity or an embedded type) for the
// row i of owner; depth counts embedded levels.
func (g *rowGen) object(e *Entity, owner string, i, depth int) (map[string]any, error) {
	row := make(map[string]any, len(e.Fields)+2)
	for _, f := range e.Fields {
		v, err := g.field(e, f, owner, i, depth)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", e.Type, f.Name, err)
		}
		if v != nil {
			row[f.Name] = v
		}
	}
	return row, nil
}

// field generates one field's value: a list of one to three values for a
// list field.
func (g *rowGen) field(e *Entity, f *Field, owner string, i, depth int) (any, error) {
	if f.Value.Kind == "key" {
		return g.keyOf(e.Type, i), nil
	}
	if f.Value.Kind == "ref" {
		return nil, nil // the relation's foreign key, set by row
	}
	if !f.List {
		return g.one(e, f, owner, i, 0, depth)
	}
	n := 1 + int(g.hash(owner, e.Type+"."+f.Name+"#", i)%3)
	list := make([]any, 0, n)
	for k := 0; k < n; k++ {
		v, err := g.one(e, f, owner, i, k+1, depth)
		if err != nil {
			return nil, err
		}
		if v != nil {
			list = append(list, v)
		}
	}
	return list, nil
}

// one generates one value of f; k tells the items of a list apart.
func (g *rowGen) one(e *Entity, f *Field, owner string, i, k, depth int) (any, error) {
	h := g.hash(owner, fmt.Sprintf("%s.%s.%d.%d", e.Type, f.Name, k, depth), i)
	switch f.Value.Kind {
	case "enum":
		if len(f.Value.Enum) == 0 {
			return nil, nil
		}
		return f.Value.Enum[h%uint64(len(f.Value.Enum))], nil
	case "object":
		if depth >= maxEmbedDepth {
			return nil, nil
		}
		for _, emb := range g.p.Embedded {
			if emb.Type == f.Type {
				return g.object(emb, owner, int(h%1_000_000), depth+1)
			}
		}
		return nil, nil
	}
	return g.gen(f.Value.Kind, f.Value.Options, h)
}

// keyOf returns the key of row i of the entity typ.
func (g *rowGen) keyOf(typ string, i int) any {
	for _, e := range g.p.Entities {
		if e.Type == typ {
			return Key(typ, g.keyType(e), i)
		}
	}
	return Key(typ, "", i)
}

// keyType is the GraphQL type of e's key field.
func (g *rowGen) keyType(e *Entity) string {
	for _, f := range e.Fields {
		if f.Name == e.Key {
			return f.Type
		}
	}
	return ""
}

// Key returns the key of row i (0-based) of the entity typ whose key field
// has the GraphQL type keyType: 1, 2, … for Int keys; a UUID made from the
// type and row for uuid keys; "book-1", "book-2", … otherwise, unique
// across types so that Relay's node(id:) finds the type from the key.
func Key(typ, keyType string, i int) any {
	switch strings.ToLower(keyType) {
	case "int", "bigint", "long", "int64":
		return i + 1
	case "uuid", "guid":
		h := fnv.New128a()
		fmt.Fprintf(h, "%s/%d", typ, i)
		b := h.Sum(nil)
		b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
		return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
	}
	return fmt.Sprintf("%s-%d", strings.ToLower(typ), i+1)
}

// hash mixes the plan's seed with a row's owner, a field and the row.
func (g *rowGen) hash(owner, field string, i int) uint64 {
	h := fnv.New64a()
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], g.seed)
	binary.LittleEndian.PutUint64(b[8:], uint64(i))
	h.Write(b[:])
	h.Write([]byte(owner))
	h.Write([]byte{0})
	h.Write([]byte(field))
	return h.Sum64()
}

// Column returns the column of From's rows that holds r's foreign key: the
// schema's own field (authorId) or a hidden one.
func (r *Relation) Column() string {
	if r.Key != "" {
		return r.Key
	}
	return HiddenKey + r.FromField
}
