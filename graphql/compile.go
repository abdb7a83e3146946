package graphql

import (
	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/model"
)

// This file turns a project's model into the runtime's own immutable
// description of it: tables with their attributes, relation fields and
// operations. Nothing here points back into the model, so the caller may
// change the project after Compile.

// table is a model table as the runtime serves it.
type table struct {
	id, name   string
	importCode string
	variant    *string // nil = all variants
	ready      bool    // model.Table.Ready
	// attrs are the attributes in the schema (not COMPUTED), in model order;
	// attrs[i].idx == i.
	attrs  []*attribute
	byName map[string]*attribute
	byID   map[string]*attribute
	// idField is the attribute named id, or a stand-in with idx -1: the
	// value of either is the row's id.
	idField *attribute
	// idPath is the SOURCE path of the attribute named id, if any.
	idPath string
	rels   []*relField
	// inputs are the attributes of the <T>Input type (not CONSTANT).
	inputs []*attribute
}

// attribute is a model attribute as the runtime serves it.
type attribute struct {
	idx      int
	id, name string
	typ      model.ScalarType
	mapping  model.MappingType
	path     string        // SOURCE
	constant dataset.Value // CONSTANT
	gen      *generator    // GENERATED; nil if the kind is unknown
	isID     bool          // the id field: its value is the row's id
}

// relField is a field a relation adds to a type: the rows of table to whose
// attribute toAttr equals this row's attribute from (see model.Relation).
// A nil from or toAttr (a COMPUTED attribute) matches nothing.
type relField struct {
	name   string
	list   bool
	from   *attribute
	to     *table
	toAttr *attribute
}

// operation is an enabled operation of the runtime schema.
type operation struct {
	name   string
	kind   model.OperationKind
	t      *table
	params []param
	// The opt-in options of a LIST operation (model.OperationOptions).
	relay, where, orderBy, subs bool
}

// param is a parameter of a LIST operation. A nil attr (COMPUTED) is null.
type param struct {
	name string
	attr *attribute
	op   model.Operator
}

// compiled is the whole compiled model.
type compiled struct {
	tables []*table
	ops    []*operation
	subs   []*subField // the Subscription type's fields (subscription.go)
}

func compileModel(p *model.Project) *compiled {
	c := &compiled{}
	byID := map[string]*table{}
	for _, mt := range p.Tables {
		t := compileTable(mt)
		c.tables = append(c.tables, t)
		byID[t.id] = t
	}
	for _, r := range p.Relations {
		addRelation(byID, r)
	}
	for _, mo := range p.Operations {
		if t := byID[mo.TableID]; t != nil && mo.Enabled && mo.Kind.Valid() {
			c.ops = append(c.ops, compileOperation(t, mo))
		}
	}
	c.subs = compileSubscriptions(c)
	return c
}

func compileTable(mt *model.Table) *table {
	t := &table{id: mt.ID, name: mt.Name, ready: mt.Ready(), byName: map[string]*attribute{}, byID: map[string]*attribute{}}
	if mt.Source != nil {
		t.importCode = mt.Source.ImportCode
		if mt.Source.Variant != nil {
			v := *mt.Source.Variant
			t.variant = &v
		}
	}
	for _, ma := range mt.Attributes {
		if ma.Mapping == model.MappingComputed || t.byName[ma.Name] != nil {
			continue
		}
		a := compileAttribute(ma)
		a.idx = len(t.attrs)
		t.attrs = append(t.attrs, a)
		t.byName[a.name], t.byID[a.id] = a, a
		if a.mapping != model.MappingConstant {
			t.inputs = append(t.inputs, a)
		}
	}
	t.idField = t.byName["id"]
	if t.idField == nil {
		t.idField = &attribute{idx: -1, name: "id", typ: model.TypeID, isID: true}
	} else if t.idField.mapping == model.MappingSource {
		t.idPath = t.idField.path
	}
	t.idField.isID = true
	return t
}

func compileAttribute(ma *model.Attribute) *attribute {
	a := &attribute{id: ma.ID, name: ma.Name, typ: ma.Type, mapping: ma.Mapping}
	switch ma.Mapping {
	case model.MappingSource:
		a.path = ma.SourcePath
	case model.MappingConstant:
		a.constant = engine.ValueOfJSON(ma.Constant)
	case model.MappingGenerated:
		a.gen, _ = compileGenerator(ma.Generator) // unknown kind: null values
	}
	return a
}

// field returns the attribute of t named name (the id field for "id"), or nil.
func (t *table) field(name string) *attribute {
	if name == "id" {
		return t.idField
	}
	return t.byName[name]
}

// hasFieldName reports whether t's object type already has a field name.
func (t *table) hasFieldName(name string) bool {
	if name == "id" || t.byName[name] != nil {
		return true
	}
	for _, r := range t.rels {
		if r.name == name {
			return true
		}
	}
	return false
}

func addRelation(byID map[string]*table, r *model.Relation) {
	src, dst := byID[r.SourceTableID], byID[r.TargetTableID]
	if src == nil || dst == nil {
		return
	}
	if model.ValidName(r.FieldName) && !src.hasFieldName(r.FieldName) {
		src.rels = append(src.rels, &relField{
			name: r.FieldName, list: r.Cardinality == model.OneToMany,
			from: src.field(r.SourceAttribute), to: dst, toAttr: dst.field(r.TargetAttribute),
		})
	}
	if r.Direction == model.Bidirectional && model.ValidName(r.InverseFieldName) && !dst.hasFieldName(r.InverseFieldName) {
		dst.rels = append(dst.rels, &relField{
			name: r.InverseFieldName,
			from: dst.field(r.TargetAttribute), to: src, toAttr: src.field(r.SourceAttribute),
		})
	}
}

func compileOperation(t *table, mo *model.Operation) *operation {
	o := &operation{name: mo.Name, kind: mo.Kind, t: t}
	if mo.Kind != model.OpList {
		return o
	}
	if opt := mo.Options; opt != nil {
		o.relay, o.where, o.orderBy = opt.Relay, opt.Where, opt.OrderBy && len(t.sortable()) > 0
		o.subs = opt.Subscriptions
	}
	for _, mp := range mo.Parameters {
		o.params = append(o.params, param{name: mp.Name, attr: t.field(mp.Attribute), op: mp.Operator})
	}
	return o
}

// sortAttr returns the attribute a list may sort by: a SOURCE attribute
// named name (case-sensitive), or nil (rows stay in storage order: docs/using/runtime.md).
func (t *table) sortAttr(name string) *attribute {
	if a := t.byName[name]; a != nil && a.mapping == model.MappingSource && a.path != "" {
		return a
	}
	return nil
}

// sortable returns the attributes orderBy may name: those sortAttr accepts.
func (t *table) sortable() []*attribute {
	var out []*attribute
	for _, a := range t.attrs {
		if t.sortAttr(a.name) == a && enumSafe(a.name) {
			out = append(out, a)
		}
	}
	return out
}

// enumSafe reports whether name may be a GraphQL enum value.
func enumSafe(name string) bool { return name != "true" && name != "false" && name != "null" }
