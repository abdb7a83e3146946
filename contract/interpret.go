package contract

import (
	"sort"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Interpret works out how s is served. It never fails: a root field it
// does not recognise is served with generated values (ShapeGenerated, with
// the reason in Why).
func Interpret(s *Schema) *Plan {
	in := &interpreter{s: s.AST, wrappers: map[string]*Wrapper{}, entities: map[string]*Entity{}}
	in.findWrappers()
	in.findPayloads()
	in.pageInfoParts()
	in.findEntities()
	in.payloadEntities()
	p := &Plan{Abstract: in.abstract()}
	for _, name := range sortedTypes(in.s) {
		if e := in.entities[name]; e != nil {
			in.fillFields(e)
			p.Entities = append(p.Entities, e)
		} else if in.embedded(name) {
			e := &Entity{Type: name}
			in.fillFields(e)
			p.Embedded = append(p.Embedded, e)
		}
		if w := in.wrappers[name]; w != nil {
			p.Wrappers = append(p.Wrappers, w)
		}
	}
	p.Relations = in.relations(p.Entities)
	in.rels = p.Relations
	p.Queries = in.rootFields(in.s.Query, in.queryField)
	p.Mutations = in.rootFields(in.s.Mutation, in.mutationField)
	p.Subscriptions = in.rootFields(in.s.Subscription, in.subscriptionField)
	return p
}

// interpreter holds what Interpret has found so far.
type interpreter struct {
	s        *ast.Schema
	wrappers map[string]*Wrapper
	entities map[string]*Entity
	rels     []*Relation // once found, for arguments that name a relation's key
}

// userObjects returns the object types of the document that are not root
// types, in name order.
func (in *interpreter) userObjects() []*ast.Definition {
	var out []*ast.Definition
	for _, name := range sortedTypes(in.s) {
		d := in.s.Types[name]
		if d.Kind != ast.Object || d.BuiltIn || strings.HasPrefix(name, "__") || in.isRoot(d) {
			continue
		}
		out = append(out, d)
	}
	return out
}

func (in *interpreter) isRoot(d *ast.Definition) bool {
	return d == in.s.Query || d == in.s.Mutation || d == in.s.Subscription
}

// def returns the definition of the named type of t (nil when unknown).
func (in *interpreter) def(t *ast.Type) *ast.Definition {
	return in.s.Types[t.Name()]
}

func isList(t *ast.Type) bool { return t.Elem != nil }

// findWrappers marks page info, edges, connections, page wrappers and
// aggregates: types that hold rows rather than being rows.
func (in *interpreter) findWrappers() {
	objs := in.userObjects()
	for _, d := range objs {
		if d.Fields.ForName("hasNextPage") != nil && d.Fields.ForName("id") == nil {
			in.wrappers[d.Name] = &Wrapper{Type: d.Name, Kind: "pageInfo"}
		}
	}
	for _, d := range objs {
		if n := d.Fields.ForName("node"); n != nil && !isList(n.Type) && d.Fields.ForName("id") == nil && in.isRowType(in.def(n.Type)) {
			in.wrappers[d.Name] = &Wrapper{Type: d.Name, Kind: "edge", Entity: n.Type.Name()}
		}
	}
	for _, d := range objs {
		// Prisma 1's subscription payloads hold the row as it was in
		// previousValues: a BookPreviousValues, not a table of its own.
		if pv := d.Fields.ForName("previousValues"); pv != nil && !isList(pv.Type) && in.wrappers[d.Name] != nil {
			if t := in.def(pv.Type); t != nil && t.Kind == ast.Object && in.wrappers[t.Name] == nil {
				in.wrappers[t.Name] = &Wrapper{Type: t.Name, Kind: "previous", Entity: in.wrappers[d.Name].Entity}
			}
		}
	}
	for _, d := range objs {
		if in.wrappers[d.Name] != nil || d.Fields.ForName("id") != nil {
			continue
		}
		if e := d.Fields.ForName("edges"); e != nil && isList(e.Type) {
			if w := in.wrappers[e.Type.Name()]; w != nil && w.Kind == "edge" {
				in.wrappers[d.Name] = &Wrapper{Type: d.Name, Kind: "connection", Entity: w.Entity}
				continue
			}
		}
		if w := in.aggregateOrPage(d); w != nil {
			in.wrappers[d.Name] = w
		}
	}
	in.aggregateParts()
}

// aggregateParts marks the object types an aggregate holds (Hasura's
// products_aggregate_fields, products_sum_fields) as parts of it.
func (in *interpreter) aggregateParts() {
	for changed := true; changed; {
		changed = false
		for _, name := range sortedTypes(in.s) {
			w := in.wrappers[name]
			if w == nil || w.Kind != "aggregate" {
				continue
			}
			for _, f := range in.s.Types[name].Fields {
				d := in.def(f.Type)
				if d != nil && d.Kind == ast.Object && !isList(f.Type) && in.wrappers[d.Name] == nil && keyOf(d) == "" {
					in.wrappers[d.Name] = &Wrapper{Type: d.Name, Kind: "aggregate", Entity: w.Entity}
					changed = true
				}
			}
		}
	}
}

// pageItems are the names page wrappers give their list of rows; pageTotals
// and pageInfos the names of their counts and navigation.
var (
	pageItems  = []string{"items", "results", "nodes", "data", "records", "rows", "list", "entries", "returning"}
	pageExtras = []string{"total", "count", "totalcount", "totalitems", "totalresults", "info", "pageinfo", "hasmore", "hasnext", "page", "pagesize", "perpage", "affectedrows", "aggregate", "next", "cursor", "nextcursor"}
)

// aggregateOrPage returns the wrapper d is when it is an aggregate (count,
// sum, avg, min, max) or a page (a list of rows beside a total or page
// info), else nil.
func (in *interpreter) aggregateOrPage(d *ast.Definition) *Wrapper {
	aggs := 0
	for _, f := range d.Fields {
		switch norm(f.Name) {
		case "count", "sum", "avg", "min", "max", "stddev", "variance":
			aggs++
		}
	}
	if aggs >= 2 || strings.HasSuffix(norm(d.Name), "aggregatefields") {
		return &Wrapper{Type: d.Name, Kind: "aggregate"}
	}
	var items *ast.FieldDefinition
	extras := 0
	for _, f := range d.Fields {
		n := norm(f.Name)
		if items == nil && isList(f.Type) && in.isRowType(in.def(f.Type)) && contains(pageItems, n) {
			items = f
		} else if contains(pageExtras, n) {
			extras++
		}
	}
	if items == nil || (extras == 0 && len(d.Fields) > 1) {
		return nil
	}
	kind := "page"
	if strings.HasSuffix(norm(d.Name), "aggregate") {
		kind = "aggregate"
	}
	return &Wrapper{Type: d.Name, Kind: kind, Entity: items.Type.Name()}
}

// isRowType reports whether d could be rows: an object, interface or
// union type of the document.
func (in *interpreter) isRowType(d *ast.Definition) bool {
	return d != nil && !d.BuiltIn && (d.Kind == ast.Object || d.Kind == ast.Interface || d.Kind == ast.Union) && !in.isRoot(d)
}

// findEntities marks the object types that are tables: those with an ID
// field, and those reached as the items of a list anywhere (root fields,
// wrappers, other types), followed through interfaces and unions.
func (in *interpreter) findEntities() {
	for _, d := range in.userObjects() {
		if in.wrappers[d.Name] == nil && keyOf(d) != "" {
			in.entities[d.Name] = &Entity{Type: d.Name, Key: keyOf(d)}
		}
	}
	for _, d := range in.allFieldHolders() {
		for _, f := range d.Fields {
			if isList(f.Type) {
				in.markRows(in.def(f.Type))
			}
		}
	}
	for _, w := range in.wrappers {
		if w.Entity != "" {
			in.markRows(in.s.Types[w.Entity])
		}
	}
}

// allFieldHolders returns every object and interface type, roots included.
func (in *interpreter) allFieldHolders() []*ast.Definition {
	var out []*ast.Definition
	for _, name := range sortedTypes(in.s) {
		d := in.s.Types[name]
		if (d.Kind == ast.Object || d.Kind == ast.Interface) && !d.BuiltIn && !strings.HasPrefix(name, "__") {
			out = append(out, d)
		}
	}
	return out
}

// markRows makes d an entity if it is an object that is no wrapper, or
// each of its possible types if it is an interface or a union.
func (in *interpreter) markRows(d *ast.Definition) {
	if !in.isRowType(d) {
		return
	}
	if d.Kind != ast.Object {
		for _, p := range in.s.PossibleTypes[d.Name] {
			in.markRows(p)
		}
		return
	}
	if in.wrappers[d.Name] == nil && in.entities[d.Name] == nil {
		in.entities[d.Name] = &Entity{Type: d.Name, Key: keyOf(d)}
	}
}

// keyOf returns the field that identifies d's rows: "id" when it is a
// scalar (ID, Int, uuid …), else the first field of type ID, else "".
func keyOf(d *ast.Definition) string {
	if f := d.Fields.ForName("id"); f != nil && !isList(f.Type) && len(f.Arguments) == 0 && isScalarName(f.Type.Name()) {
		return "id"
	}
	for _, f := range d.Fields {
		if f.Type.Name() == "ID" && !isList(f.Type) && len(f.Arguments) == 0 {
			return f.Name
		}
	}
	return ""
}

// isScalarName reports whether name is a built-in scalar or looks like a
// custom scalar (lower-case names such as uuid, bigint are scalars in
// generated schemas); object types are excluded by the caller's context.
func isScalarName(name string) bool {
	switch name {
	case "ID", "Int", "String", "Float":
		return true
	}
	return strings.ToLower(name) == name
}

// embedded reports whether name is an object type that is neither a table
// nor a wrapper: a value generated inside its row.
func (in *interpreter) embedded(name string) bool {
	d := in.s.Types[name]
	return d.Kind == ast.Object && !d.BuiltIn && !strings.HasPrefix(name, "__") && !in.isRoot(d) &&
		in.entities[name] == nil && in.wrappers[name] == nil && !in.payload(d)
}

// payload reports whether d is returned by a mutation only, around rows:
// { book: Book, errors } or { affected_rows, returning }.
func (in *interpreter) payload(d *ast.Definition) bool {
	if in.s.Mutation == nil {
		return false
	}
	returned := false
	for _, f := range in.s.Mutation.Fields {
		returned = returned || f.Type.Name() == d.Name
	}
	if !returned {
		return false
	}
	for _, f := range d.Fields {
		if in.entities[f.Type.Name()] != nil {
			return true
		}
	}
	return false
}

// abstract maps interfaces and unions to the entities among their possible
// types.
func (in *interpreter) abstract() map[string][]string {
	out := map[string][]string{}
	for _, name := range sortedTypes(in.s) {
		d := in.s.Types[name]
		if d.BuiltIn || (d.Kind != ast.Interface && d.Kind != ast.Union) {
			continue
		}
		var rows []string
		for _, p := range in.s.PossibleTypes[name] {
			if in.entities[p.Name] != nil {
				rows = append(rows, p.Name)
			}
		}
		sort.Strings(rows)
		out[name] = rows
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
