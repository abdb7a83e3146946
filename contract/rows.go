package contract

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
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
	out := map[string][]map[string]any{}
	err := p.EachRow(count, seed, gen, nil, func(entity string, row map[string]any) error {
		out[entity] = append(out[entity], maps.Clone(row))
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, e := range p.Entities {
		if out[e.Type] == nil {
			out[e.Type] = []map[string]any{}
		}
	}
	return out, nil
}

// EachRow generates the rows Rows returns and passes each to fn, entity
// after entity in the plan's order and rows in order, without holding
// them: the map fn gets is valid during the call only (the next row
// reuses it), its embedded objects and lists stay fn's. Entities for
// which skip (nil: none) is true are left out, though the foreign keys of
// the others still point at their rows. The first error of gen or fn
// stops it.
func (p *Plan) EachRow(count func(entity string) int, seed uint64, gen Values, skip func(entity string) bool, fn func(entity string, row map[string]any) error) error {
	g := &rowGen{p: p, seed: seed, gen: gen, counts: map[string]int{}}
	for _, e := range p.Entities {
		g.counts[e.Type] = count(e.Type)
	}
	for _, e := range p.Entities {
		if skip != nil && skip(e.Type) {
			continue
		}
		row := make(map[string]any, len(e.Fields)+2)
		for i := range g.counts[e.Type] {
			clear(row)
			err := g.row(row, e, i)
			if err != nil {
				return err
			}
			if err := fn(e.Type, row); err != nil {
				return err
			}
		}
	}
	return nil
}

// rowGen holds what Rows needs while it generates.
type rowGen struct {
	p      *Plan
	seed   uint64
	gen    Values
	counts map[string]int
	// harmonies are the entities' harmonize rules, found on first use.
	harmonies map[*Entity]*harmony
	// prefix is the hash state of the last owner and row (hashBytes).
	prefix      uint64
	prefixRow   int
	prefixOwner string
	prefixSet   bool
	// runs are the ends of the runs of From's rows each row of To lists,
	// by sized relation (runTarget).
	runs map[*Relation][]int
}

// runTarget is the row of r.To that row i of r.From names when r is
// sized: To's row j lists a run of ToMin to ToMax of From's rows, one run
// after the other. ok is false for a row past every run whose field may
// be null; a non-null one goes to the rows of To in turn.
func (g *rowGen) runTarget(r *Relation, i int) (int, bool) {
	ends, ok := g.runs[r]
	if !ok {
		if g.runs == nil {
			g.runs = map[*Relation][]int{}
		}
		ends = make([]int, g.counts[r.To])
		end := 0
		for j := range ends {
			end += r.ToMin + int(g.hash(r.To, r.ToField+"#", j)%uint64(r.ToMax-r.ToMin+1))
			ends[j] = end
		}
		g.runs[r] = ends
	}
	j, _ := slices.BinarySearch(ends, i+1)
	if j < len(ends) {
		return j, true
	}
	if !r.FromNonNull || len(ends) == 0 {
		return 0, false
	}
	return i % len(ends), true
}

// row generates row i of e into row, an empty map.
func (g *rowGen) row(row map[string]any, e *Entity, i int) error {
	if err := g.fill(row, e, e.Type, i, 0); err != nil {
		return err
	}
	if e.Key == "" {
		row[HiddenKey] = Key(e.Type, "", i)
	}
	for _, r := range g.p.Relations {
		if r.From != e.Type || r.Many || g.counts[r.To] == 0 {
			continue
		}
		target := int(g.hash(e.Type, r.FromField, i) % uint64(g.counts[r.To]))
		if r.ToSized {
			var ok bool
			if target, ok = g.runTarget(r, i); !ok {
				continue // past the runs: names no row, so no list passes ToMax
			}
		}
		row[r.Column()] = g.keyOf(r.To, target)
	}
	return nil
}

// object generates the fields of e (an entity or an embedded type) for the
// row i of owner; depth counts embedded levels.
func (g *rowGen) object(e *Entity, owner string, i, depth int) (map[string]any, error) {
	row := make(map[string]any, len(e.Fields)+2)
	return row, g.fill(row, e, owner, i, depth)
}

// fill sets the fields of object in row, agreeing with each other
// (harmonize).
func (g *rowGen) fill(row map[string]any, e *Entity, owner string, i, depth int) error {
	for _, f := range e.Fields {
		v, err := g.field(e, f, owner, i, depth)
		if err != nil {
			return fmt.Errorf("%s.%s: %w", e.Type, f.Name, err)
		}
		if v != nil {
			row[f.Name] = v
		}
	}
	g.harmonyOf(e).harmonize(row)
	return nil
}

// harmonyOf returns e's harmonize rules, reading e's fields once.
func (g *rowGen) harmonyOf(e *Entity) *harmony {
	h, ok := g.harmonies[e]
	if !ok {
		if g.harmonies == nil {
			g.harmonies = map[*Entity]*harmony{}
		}
		h = newHarmony(e)
		g.harmonies[e] = h
	}
	return h
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
	n := f.ListItems(g.hash(owner, e.Type+"."+f.Name+"#", i))
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
	var b [128]byte // e.Type.f.Name.k.depth, as the hash has always read it
	name := append(append(append(append(b[:0], e.Type...), '.'), f.Name...), '.')
	name = append(strconv.AppendInt(name, int64(k), 10), '.')
	h := g.hashBytes(owner, strconv.AppendInt(name, int64(depth), 10), i)
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
	v, err := g.gen(f.Value.Kind, f.Value.Options, h)
	if err != nil || f.Source == SourceMeaning {
		return v, err
	}
	return Conform(f.Type, v), nil
}

// ListItems is how many items a generated list of f holds for the hash h:
// ListMin to ListMax when Sized, else one to three.
func (f *Field) ListItems(h uint64) int {
	if !f.Sized {
		return 1 + int(h%3)
	}
	return f.ListMin + int(h%uint64(f.ListMax-f.ListMin+1))
}

// Conform shapes a value a directive or an editor chose for a field of
// the built-in scalar type typ: text for String and ID, a whole number
// for Int, a number for Float (a generator of another type, such as a
// price for a String field, gives the field's type); other types as they
// are.
func Conform(typ string, v any) any {
	switch typ {
	case "String", "ID":
		switch x := v.(type) {
		case string, nil:
			return v
		case float64:
			return strconv.FormatFloat(x, 'f', -1, 64)
		default:
			return fmt.Sprint(x)
		}
	case "Int":
		switch x := v.(type) {
		case float64:
			return int(max(min(x, 1<<31-1), -1<<31))
		case int:
			return x
		case string:
			if n, err := strconv.Atoi(x); err == nil {
				return n
			}
			return len(x)
		}
	case "Float":
		switch x := v.(type) {
		case int:
			return float64(x)
		case string:
			if f, err := strconv.ParseFloat(x, 64); err == nil {
				return f
			}
			return float64(len(x))
		}
	case "Boolean":
		if _, ok := v.(bool); !ok {
			return v != nil && v != "" && v != 0.0
		}
	}
	return v
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
	var b [128]byte
	return g.hashBytes(owner, append(b[:0], field...), i)
}

// fnvPrime is FNV-1a's 64-bit prime.
const fnvPrime = 1099511628211

// hashBytes is hash of a field name held in bytes. It is FNV-1a written
// out, so that it allocates nothing (one call per generated value), and
// it starts from the state after the seed, row and owner, which the
// fields of one row share (kept from the last call).
func (g *rowGen) hashBytes(owner string, field []byte, i int) uint64 {
	if !g.prefixSet || i != g.prefixRow || owner != g.prefixOwner {
		g.prefix, g.prefixRow, g.prefixOwner, g.prefixSet = g.rowPrefix(owner, i), i, owner, true
	}
	h := g.prefix
	for _, c := range field {
		h = (h ^ uint64(c)) * fnvPrime
	}
	return h
}

// rowPrefix is the FNV-1a state after the seed, the row i, owner and the
// 0 that ends it.
func (g *rowGen) rowPrefix(owner string, i int) uint64 {
	h := uint64(14695981039346656037)
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], g.seed)
	binary.LittleEndian.PutUint64(b[8:], uint64(i))
	for _, c := range b {
		h = (h ^ uint64(c)) * fnvPrime
	}
	for i := 0; i < len(owner); i++ {
		h = (h ^ uint64(owner[i])) * fnvPrime
	}
	return h * fnvPrime // the 0 between owner and field
}

// Column returns the column of From's rows that holds r's foreign key: the
// schema's own field (authorId) or a hidden one.
func (r *Relation) Column() string {
	if r.Key != "" {
		return r.Key
	}
	return HiddenKey + r.FromField
}
