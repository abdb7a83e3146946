package graphql

import (
	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/model"
)

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
	path     string         // SOURCE
	constant dataset.Value  // CONSTANT
	gen      valueGenerator // GENERATED; nil if the kind is unknown
	isID     bool           // the id field: its value is the row's id
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

// valueGenerator makes the value of a GENERATED attribute for a row: the
// same attribute and row id always give the same value.
type valueGenerator interface {
	Value(attrID, rowID string) dataset.Value
}

// param is a parameter of a LIST operation. A nil attr (COMPUTED) is null.
type param struct {
	name string
	attr *attribute
	op   model.Operator
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

// sortAttr returns the attribute a list may sort by: a SOURCE attribute
// named name (case-sensitive), or nil (rows stay in storage order: docs/using/runtime.md).
func (t *table) sortAttr(name string) *attribute {
	if a := t.byName[name]; a != nil && a.mapping == model.MappingSource && a.path != "" {
		return a
	}
	return nil
}

// newTables describes the tables of p and the relation fields between
// them, by table and by table ID; gen makes a GENERATED attribute's
// generator (nil: null values). Nothing points back into p.
func newTables(p *model.Project, gen func(*model.Generator) valueGenerator) ([]*table, map[string]*table) {
	var tables []*table
	byID := map[string]*table{}
	for _, mt := range p.Tables {
		t := newTable(mt, gen)
		tables = append(tables, t)
		byID[t.id] = t
	}
	for _, r := range p.Relations {
		addRelation(byID, r)
	}
	return tables, byID
}

func newTable(mt *model.Table, gen func(*model.Generator) valueGenerator) *table {
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
		a := newAttribute(ma, gen)
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

func newAttribute(ma *model.Attribute, gen func(*model.Generator) valueGenerator) *attribute {
	a := &attribute{id: ma.ID, name: ma.Name, typ: ma.Type, mapping: ma.Mapping}
	switch ma.Mapping {
	case model.MappingSource:
		a.path = ma.SourcePath
	case model.MappingConstant:
		a.constant = engine.ValueOfJSON(ma.Constant)
	case model.MappingGenerated:
		if gen != nil {
			a.gen = gen(ma.Generator)
		}
	}
	return a
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
