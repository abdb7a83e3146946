package engine

import (
	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/model"
)

// Table is a model table as the runtime serves it.
type Table struct {
	ID, Name   string
	importCode string
	Variant    *string // nil = all variants
	ready      bool    // model.Table.Ready
	// Attrs are the attributes in the schema (not COMPUTED), in model order;
	// attrs[i].idx == i.
	Attrs  []*Attr
	ByName map[string]*Attr
	byID   map[string]*Attr
	// IDField is the attribute named id, or a stand-in with idx -1: the
	// value of either is the row's id.
	IDField *Attr
	// IDPath is the SOURCE path of the attribute named id, if any.
	IDPath string
	Rels   []*Rel
	// Inputs are the attributes of the <T>Input type (not CONSTANT).
	Inputs []*Attr
}

// Attr is a model attribute as the runtime serves it.
type Attr struct {
	Idx      int
	ID, Name string
	Type     model.ScalarType
	Mapping  model.MappingType
	Path     string        // SOURCE
	constant dataset.Value // CONSTANT
	Gen      Generator     // GENERATED; nil if the kind is unknown
	IsID     bool          // the id field: its value is the row's id
}

// Rel is a field a relation adds to a type: the rows of table to whose
// attribute toAttr equals this row's attribute from (see model.Relation).
// A nil from or toAttr (a COMPUTED attribute) matches nothing.
type Rel struct {
	Name   string
	List   bool
	From   *Attr
	To     *Table
	ToAttr *Attr
}

// Generator makes the value of a GENERATED attribute for a row: the
// same attribute and row id always give the same value.
type Generator interface {
	Value(attrID, rowID string) dataset.Value
}

// Param is a parameter of a LIST operation. A nil attr (COMPUTED) is null.
type Param struct {
	Name string
	Attr *Attr
	Op   model.Operator
}

// Field returns the attribute of t named name (the id field for "id"), or nil.
func (t *Table) Field(name string) *Attr {
	if name == "id" {
		return t.IDField
	}
	return t.ByName[name]
}

// hasFieldName reports whether t's object type already has a field name.
func (t *Table) hasFieldName(name string) bool {
	if name == "id" || t.ByName[name] != nil {
		return true
	}
	for _, r := range t.Rels {
		if r.Name == name {
			return true
		}
	}
	return false
}

// SortAttr returns the attribute a list may sort by: a SOURCE attribute
// named name (case-sensitive), or nil (rows stay in storage order: docs/using/runtime.md).
func (t *Table) SortAttr(name string) *Attr {
	if a := t.ByName[name]; a != nil && a.Mapping == model.MappingSource && a.Path != "" {
		return a
	}
	return nil
}

// NewTables describes the tables of p and the relation fields between
// them, by table and by table ID; gen makes a GENERATED attribute's
// generator (nil: null values). Nothing points back into p.
func NewTables(p *model.Project, gen func(*model.Generator) Generator) ([]*Table, map[string]*Table) {
	var tables []*Table
	byID := map[string]*Table{}
	for _, mt := range p.Tables {
		t := newTable(mt, gen)
		tables = append(tables, t)
		byID[t.ID] = t
	}
	for _, r := range p.Relations {
		addRelation(byID, r)
	}
	return tables, byID
}

func newTable(mt *model.Table, gen func(*model.Generator) Generator) *Table {
	t := &Table{ID: mt.ID, Name: mt.Name, ready: mt.Ready(), ByName: map[string]*Attr{}, byID: map[string]*Attr{}}
	if mt.Source != nil {
		t.importCode = mt.Source.ImportCode
		if mt.Source.Variant != nil {
			v := *mt.Source.Variant
			t.Variant = &v
		}
	}
	for _, ma := range mt.Attributes {
		if ma.Mapping == model.MappingComputed || t.ByName[ma.Name] != nil {
			continue
		}
		a := newAttribute(ma, gen)
		a.Idx = len(t.Attrs)
		t.Attrs = append(t.Attrs, a)
		t.ByName[a.Name], t.byID[a.ID] = a, a
		if a.Mapping != model.MappingConstant {
			t.Inputs = append(t.Inputs, a)
		}
	}
	t.IDField = t.ByName["id"]
	if t.IDField == nil {
		t.IDField = &Attr{Idx: -1, Name: "id", Type: model.TypeID, IsID: true}
	} else if t.IDField.Mapping == model.MappingSource {
		t.IDPath = t.IDField.Path
	}
	t.IDField.IsID = true
	return t
}

func newAttribute(ma *model.Attribute, gen func(*model.Generator) Generator) *Attr {
	a := &Attr{ID: ma.ID, Name: ma.Name, Type: ma.Type, Mapping: ma.Mapping}
	switch ma.Mapping {
	case model.MappingSource:
		a.Path = ma.SourcePath
	case model.MappingConstant:
		a.constant = valueOfJSON(ma.Constant)
	case model.MappingGenerated:
		if gen != nil {
			a.Gen = gen(ma.Generator)
		}
	}
	return a
}

func addRelation(byID map[string]*Table, r *model.Relation) {
	src, dst := byID[r.SourceTableID], byID[r.TargetTableID]
	if src == nil || dst == nil {
		return
	}
	if model.ValidName(r.FieldName) && !src.hasFieldName(r.FieldName) {
		src.Rels = append(src.Rels, &Rel{
			Name: r.FieldName, List: r.Cardinality == model.OneToMany,
			From: src.Field(r.SourceAttribute), To: dst, ToAttr: dst.Field(r.TargetAttribute),
		})
	}
	if r.Direction == model.Bidirectional && model.ValidName(r.InverseFieldName) && !dst.hasFieldName(r.InverseFieldName) {
		dst.Rels = append(dst.Rels, &Rel{
			Name: r.InverseFieldName,
			From: dst.Field(r.TargetAttribute), To: src, ToAttr: src.Field(r.SourceAttribute),
		})
	}
}
