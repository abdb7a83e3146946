package contract

import (
	"fmt"
	"hash/fnv"

	"github.com/mockgql/mockgql/model"
)

// Build materialises plan as the model tables and relations of the project
// projectID whose contract is c: one table per entity (named after its
// type, its ID derived from the type's name so that a re-import keeps the
// IDs and the overlay's rows), an attribute per scalar, enum and embedded
// field bound by its name (hidden keys and foreign keys included), and a
// relation per to-one link, both ways when the schema has both fields.
// A table reads its entity's generated rows (TableSource.Generated, under
// model.ContractImportCode) unless c binds the entity to a pool dataset.
// Many-to-many links and lists with no field back are not relations of
// the model: the runtime serves them from the rows (docs/using/contract.md).
//
// The error is a *model.Error from model.Contract.Check: BAD_USER_INPUT
// when c's settings name types that are not entities of plan or a count
// is out of bounds, LIMIT_REACHED past the project's total of rows; or
// from Plan.CheckCells: LIMIT_REACHED past the values a row or the
// project's rows may hold.
func Build(projectID string, plan *Plan, c *model.Contract) ([]*model.Table, []*model.Relation, error) {
	entities := map[string]bool{}
	for _, e := range plan.Entities {
		entities[e.Type] = true
	}
	if err := c.Check(entities); err != nil {
		return nil, nil, err
	}
	if err := plan.CheckCells(c.GeneratedRows); err != nil {
		return nil, nil, err
	}
	plan.UseGenerators(c.Generators)
	byType := map[string]*model.Table{}
	var tables []*model.Table
	for _, e := range plan.Entities {
		t := buildTable(projectID, plan, e, c.Table(e.Type))
		byType[e.Type] = t
		tables = append(tables, t)
	}
	var rels []*model.Relation
	for _, r := range plan.Relations {
		if mr := buildRelation(projectID, plan, r, byType); mr != nil {
			rels = append(rels, mr)
		}
	}
	return tables, rels, nil
}

// TableID returns the ID of the table of the entity typ in project
// projectID: the same for every import of the same type name.
func TableID(projectID, typ string) string { return childID(projectID, 't', typ) }

// childID derives a model child ID from a name (see ids.NewChildID for the
// shape "<project>.<letter><8 characters>").
func childID(projectID string, letter byte, name string) string {
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("%s.%c%08x", projectID, letter, h.Sum32())
}

// buildTable makes the table of e, reading generated rows or the dataset
// ct binds.
func buildTable(projectID string, plan *Plan, e *Entity, ct *model.ContractTable) *model.Table {
	id := TableID(projectID, e.Type)
	t := &model.Table{ID: id, Name: e.Type, Source: &model.TableSource{ImportCode: model.ContractImportCode(e.Type), Generated: true}}
	if ct != nil && ct.ImportCode != "" {
		t.Source = &model.TableSource{ImportCode: ct.ImportCode}
	}
	add := func(name string, typ model.ScalarType, required bool) *model.Attribute {
		a := &model.Attribute{
			ID: childID(projectID, 'a', e.Type+"."+name), TableID: id, Name: name, Type: typ,
			Sortable: typ != model.TypeJSON, Filterable: typ != model.TypeJSON, Required: required,
			Mapping: model.MappingSource, SourcePath: name,
		}
		t.Attributes = append(t.Attributes, a)
		return a
	}
	if e.Key == "" {
		add(HiddenKey, model.TypeID, true)
	}
	for _, f := range e.Fields {
		// The rows are read by name (SOURCE); the generator that makes the
		// field's values, when the document or an editor chose it, is shown.
		add(f.Name, attributeType(f), f.NonNull).Generator = attributeGenerator(f)
	}
	for _, r := range plan.Relations {
		if r.From == e.Type && !r.Many && r.Key == "" {
			add(r.Column(), model.TypeID, false)
		}
	}
	return t
}

// attributeType is the model type that holds f's values.
func attributeType(f *Field) model.ScalarType {
	switch {
	case f.List || f.Embedded || f.Value.Kind == "scalar.json":
		return model.TypeJSON
	case f.Type == "String": // whatever the generator, rows hold text (Conform)
		return model.TypeString
	case f.Type == "Int":
		return model.TypeInt
	case f.Type == "Float" || f.Value.Kind == "number.float" || f.Value.Kind == "number.int":
		return model.TypeFloat
	case f.Type == "Boolean":
		return model.TypeBoolean
	case f.Value.Kind == "key" || f.Value.Kind == "ref" || f.Type == "ID":
		return model.TypeID
	case f.Value.Kind == "date.past" && f.Type != "String":
		return model.TypeDateTime
	}
	return model.TypeString
}

// buildRelation makes the model relation of a to-one link r: the entity
// r.To is the source whose key the foreign key of r.From's rows names.
// It returns nil for links held by no foreign key (r.Many).
func buildRelation(projectID string, plan *Plan, r *Relation, byType map[string]*model.Table) *model.Relation {
	from, to := byType[r.From], byType[r.To]
	if r.Many || from == nil || to == nil {
		return nil
	}
	key := keyAttribute(plan, r.To)
	mr := &model.Relation{
		ID: childID(projectID, 'r', r.From+"."+r.FromField), SourceTableID: from.ID, TargetTableID: to.ID,
		Direction: model.SourceToTarget, Cardinality: model.OneToOne,
		SourceAttribute: r.Column(), TargetAttribute: key, FieldName: r.FromField,
	}
	if r.ToField == "" {
		return mr
	}
	if !r.ToMany {
		mr.Direction, mr.InverseFieldName = model.Bidirectional, r.ToField
		return mr
	}
	// Author.books lists the books whose foreign key is the author's key;
	// Book.author is the inverse, to-one.
	return &model.Relation{
		ID: mr.ID, SourceTableID: to.ID, TargetTableID: from.ID,
		Direction: model.Bidirectional, Cardinality: model.OneToMany,
		SourceAttribute: key, TargetAttribute: r.Column(), FieldName: r.ToField, InverseFieldName: r.FromField,
	}
}

// keyAttribute is the attribute that identifies the rows of typ.
func keyAttribute(plan *Plan, typ string) string {
	for _, e := range plan.Entities {
		if e.Type == typ && e.Key != "" {
			return e.Key
		}
	}
	return HiddenKey
}
