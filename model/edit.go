package model

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The methods in this file change a project's model. Each one checks its
// input completely before it changes anything, so a refused edit leaves the
// project as it was; a successful one increments Version.

// listArgs are the arguments every LIST operation has; parameters may not reuse them.
var listArgs = map[string]bool{"page": true, "pageSize": true, "sortField": true, "sortDirection": true}

// AddTable adds t (with no attributes yet, or with attributes whose TableID is t.ID).
func (p *Project) AddTable(t *Table) error {
	if err := p.checkTableName(t.Name, ""); err != nil {
		return err
	}
	if err := checkSource(t.Source); err != nil {
		return err
	}
	if t.Attributes == nil {
		t.Attributes = []*Attribute{}
	}
	p.Tables = append(p.Tables, t)
	p.Version++
	return nil
}

func (p *Project) checkTableName(name, selfID string) error {
	if err := CheckName("table name", name); err != nil {
		return err
	}
	if reservedTypeNames[name] {
		return Errorf(CodeBadUserInput, "table name %q is reserved by the runtime schema", name)
	}
	return p.checkTypeNames(fmt.Sprintf("table name %q", name), selfID, name, p.powerOf(selfID, nil))
}

func checkSource(s *TableSource) error {
	if s == nil {
		return nil
	}
	if strings.TrimSpace(s.ImportCode) == "" {
		return Errorf(CodeBadUserInput, "source.importCode is empty")
	}
	return nil
}

// TablePatch is a partial update of a table; nil fields stay as they are.
type TablePatch struct {
	Name   *string
	Source *TableSource
}

// UpdateTable renames and rebinds a table.
func (p *Project) UpdateTable(id string, patch TablePatch) (*Table, error) {
	t := p.Table(id)
	if t == nil {
		return nil, Errorf(CodeNotFound, "table %q not found", id)
	}
	if patch.Name != nil && *patch.Name != t.Name {
		if err := p.checkTableName(*patch.Name, t.ID); err != nil {
			return nil, err
		}
	}
	if err := checkSource(patch.Source); err != nil {
		return nil, err
	}
	if patch.Name != nil {
		t.Name = *patch.Name
	}
	if patch.Source != nil {
		s := *patch.Source
		t.Source = &s
	}
	p.Version++
	return t, nil
}

// RemoveTable removes a table with its attributes, operations, views and
// the relations that touch it.
func (p *Project) RemoveTable(id string) error {
	if p.Table(id) == nil {
		return Errorf(CodeNotFound, "table %q not found", id)
	}
	p.Tables = filter(p.Tables, func(t *Table) bool { return t.ID != id })
	p.Relations = filter(p.Relations, func(r *Relation) bool { return r.SourceTableID != id && r.TargetTableID != id })
	p.Operations = filter(p.Operations, func(o *Operation) bool { return o.TableID != id })
	p.Views = filter(p.Views, func(v *View) bool { return v.TableID != id })
	p.Version++
	return nil
}

// fieldOwner names what already uses field name on table t ("" if free),
// ignoring the attribute and relation with the given IDs.
func (p *Project) fieldOwner(t *Table, name, skipAttr, skipRel string) string {
	if name == "id" {
		if a := t.Attribute("id"); a != nil && a.ID != skipAttr {
			return "attribute id"
		}
		if skipAttr == "" || t.Attribute("id") == nil {
			return "the id field every type has"
		}
	}
	for _, a := range t.Attributes {
		if a.Name == name && a.ID != skipAttr {
			return "attribute " + a.Name
		}
	}
	for _, r := range p.Relations {
		if r.ID == skipRel {
			continue
		}
		if r.SourceTableID == t.ID && r.FieldName == name {
			return "relation field " + r.FieldName
		}
		if r.TargetTableID == t.ID && r.InverseFieldName == name {
			return "relation field " + r.InverseFieldName
		}
	}
	return ""
}

// AddAttribute adds a to its table (a.TableID).
func (p *Project) AddAttribute(a *Attribute) error {
	t := p.Table(a.TableID)
	if t == nil {
		return Errorf(CodeNotFound, "table %q not found", a.TableID)
	}
	if err := CheckName("attribute name", a.Name); err != nil {
		return err
	}
	if err := checkWhereAttr(t, a.Name, p.powerOf(t.ID, nil)); err != nil {
		return err
	}
	if a.Name != "id" || t.Attribute("id") != nil {
		if owner := p.fieldOwner(t, a.Name, "", ""); owner != "" {
			return Errorf(CodeConflict, "attribute %q clashes with %s of table %s", a.Name, owner, t.Name)
		}
	}
	if err := checkMapping(a); err != nil {
		return err
	}
	t.Attributes = append(t.Attributes, a)
	p.Version++
	return nil
}

func checkMapping(a *Attribute) error {
	if !a.Type.Valid() {
		return Errorf(CodeBadUserInput, "attribute %q: unknown type %q", a.Name, a.Type)
	}
	if a.Mapping == "" {
		a.Mapping = MappingNone
	}
	switch a.Mapping {
	case MappingNone:
	case MappingSource:
		if strings.TrimSpace(a.SourcePath) == "" {
			return Errorf(CodeBadUserInput, "attribute %q: SOURCE mapping needs sourceMapping.path", a.Name)
		}
		for _, part := range strings.Split(a.SourcePath, ".") {
			if part == "" {
				return Errorf(CodeBadUserInput, "attribute %q: sourceMapping.path %q has an empty segment", a.Name, a.SourcePath)
			}
		}
	case MappingConstant:
		if len(a.Constant) == 0 || !json.Valid(a.Constant) {
			return Errorf(CodeBadUserInput, "attribute %q: CONSTANT mapping needs constantValue", a.Name)
		}
	case MappingComputed:
		if strings.TrimSpace(a.Computed) == "" {
			return Errorf(CodeBadUserInput, "attribute %q: COMPUTED mapping needs computedExpression", a.Name)
		}
	case MappingGenerated:
		if a.Generator == nil || a.Generator.Kind == "" {
			return Errorf(CodeBadUserInput, "attribute %q: GENERATED mapping needs generator.kind", a.Name)
		}
		if len(a.Generator.Options) > 0 && !json.Valid(a.Generator.Options) {
			return Errorf(CodeBadUserInput, "attribute %q: generator.options is not JSON", a.Name)
		}
	default:
		return Errorf(CodeBadUserInput, "attribute %q: unknown mappingType %q", a.Name, a.Mapping)
	}
	return nil
}

// AttributePatch is a partial update of an attribute; nil fields stay.
type AttributePatch struct {
	Name                           *string
	Type                           *ScalarType
	Sortable, Filterable, Required *bool
	Mapping                        *MappingType
	SourcePath                     *string
	Constant                       json.RawMessage
	Computed                       *string
	Generator                      *Generator
}

// UpdateAttribute changes an attribute. Renaming an attribute that a relation
// or a parameter refers to is refused: those references are by name.
func (p *Project) UpdateAttribute(id string, patch AttributePatch) (*Attribute, error) {
	t, a := p.Attribute(id)
	if a == nil {
		return nil, Errorf(CodeNotFound, "attribute %q not found", id)
	}
	next := *a
	if patch.Name != nil && *patch.Name != a.Name {
		if err := CheckName("attribute name", *patch.Name); err != nil {
			return nil, err
		}
		if err := checkWhereAttr(t, *patch.Name, p.powerOf(t.ID, nil)); err != nil {
			return nil, err
		}
		if owner := p.fieldOwner(t, *patch.Name, a.ID, ""); owner != "" && !(*patch.Name == "id" && t.Attribute("id") == nil) {
			return nil, Errorf(CodeConflict, "attribute %q clashes with %s of table %s", *patch.Name, owner, t.Name)
		}
		if ref := p.attributeUse(t, a.Name); ref != "" {
			return nil, Errorf(CodeConflict, "attribute %q is used by %s; change that first", a.Name, ref)
		}
		next.Name = *patch.Name
	}
	applyAttributePatch(&next, patch)
	if err := checkMapping(&next); err != nil {
		return nil, err
	}
	*a = next
	p.Version++
	return a, nil
}

func applyAttributePatch(a *Attribute, patch AttributePatch) {
	if patch.Type != nil {
		a.Type = *patch.Type
	}
	if patch.Sortable != nil {
		a.Sortable = *patch.Sortable
	}
	if patch.Filterable != nil {
		a.Filterable = *patch.Filterable
	}
	if patch.Required != nil {
		a.Required = *patch.Required
	}
	if patch.Mapping != nil {
		a.Mapping = *patch.Mapping
	}
	if patch.SourcePath != nil {
		a.SourcePath = *patch.SourcePath
	}
	if patch.Constant != nil {
		a.Constant = patch.Constant
	}
	if patch.Computed != nil {
		a.Computed = *patch.Computed
	}
	if patch.Generator != nil {
		g := *patch.Generator
		a.Generator = &g
	}
}

// attributeUse names a relation or operation parameter that refers to
// attribute name of table t, or "".
func (p *Project) attributeUse(t *Table, name string) string {
	for _, r := range p.Relations {
		if (r.SourceTableID == t.ID && r.SourceAttribute == name) || (r.TargetTableID == t.ID && r.TargetAttribute == name) {
			return "relation " + r.FieldName
		}
	}
	for _, o := range p.Operations {
		if o.TableID != t.ID {
			continue
		}
		for _, prm := range o.Parameters {
			if prm.Attribute == name {
				return "parameter " + prm.Name + " of operation " + o.Name
			}
		}
	}
	return ""
}

// RemoveAttribute removes an attribute that no relation or parameter uses.
func (p *Project) RemoveAttribute(id string) error {
	t, a := p.Attribute(id)
	if a == nil {
		return Errorf(CodeNotFound, "attribute %q not found", id)
	}
	if ref := p.attributeUse(t, a.Name); ref != "" {
		return Errorf(CodeConflict, "attribute %q is used by %s; remove that first", a.Name, ref)
	}
	t.Attributes = filter(t.Attributes, func(x *Attribute) bool { return x.ID != id })
	p.Version++
	return nil
}

// hasField reports whether t has an attribute called name or name is "id".
func hasField(t *Table, name string) bool { return name == "id" || t.Attribute(name) != nil }

// AddRelation adds r after checking its tables, linking attributes and field names.
func (p *Project) AddRelation(r *Relation) error {
	src, dst := p.Table(r.SourceTableID), p.Table(r.TargetTableID)
	switch {
	case src == nil:
		return Errorf(CodeNotFound, "source table %q not found", r.SourceTableID)
	case dst == nil:
		return Errorf(CodeNotFound, "target table %q not found", r.TargetTableID)
	case r.Cardinality != OneToOne && r.Cardinality != OneToMany:
		return Errorf(CodeBadUserInput, "cardinality %q is not ONE_TO_ONE or ONE_TO_MANY", r.Cardinality)
	case !hasField(src, r.SourceAttribute):
		return Errorf(CodeBadUserInput, "sourceAttribute %q is not an attribute of table %s", r.SourceAttribute, src.Name)
	case !hasField(dst, r.TargetAttribute):
		return Errorf(CodeBadUserInput, "targetAttribute %q is not an attribute of table %s", r.TargetAttribute, dst.Name)
	}
	if r.Direction == "" {
		r.Direction = SourceToTarget
		if r.InverseFieldName != "" {
			r.Direction = Bidirectional
		}
	}
	if r.Direction != SourceToTarget && r.Direction != Bidirectional {
		return Errorf(CodeBadUserInput, "direction %q is not SOURCE_TO_TARGET or BIDIRECTIONAL", r.Direction)
	}
	if err := p.checkRelationField(src, r.FieldName, "fieldName"); err != nil {
		return err
	}
	if r.Direction == Bidirectional {
		if r.InverseFieldName == "" {
			r.InverseFieldName = LowerCamel(src.Name)
		}
		if err := p.checkRelationField(dst, r.InverseFieldName, "inverseFieldName"); err != nil {
			return err
		}
		if src.ID == dst.ID && r.InverseFieldName == r.FieldName {
			return Errorf(CodeConflict, "fieldName and inverseFieldName are both %q on table %s", r.FieldName, src.Name)
		}
	} else {
		r.InverseFieldName = ""
	}
	p.Relations = append(p.Relations, r)
	p.Version++
	return nil
}

func (p *Project) checkRelationField(t *Table, name, what string) error {
	if err := CheckName(what, name); err != nil {
		return err
	}
	if owner := p.fieldOwner(t, name, "", ""); owner != "" {
		return Errorf(CodeConflict, "%s %q shadows %s of table %s", what, name, owner, t.Name)
	}
	return nil
}

// RemoveRelation removes a relation.
func (p *Project) RemoveRelation(id string) error {
	if p.Relation(id) == nil {
		return Errorf(CodeNotFound, "relation %q not found", id)
	}
	p.Relations = filter(p.Relations, func(r *Relation) bool { return r.ID != id })
	p.Version++
	return nil
}

func filter[T any](in []T, keep func(T) bool) []T {
	out := in[:0:0]
	for _, v := range in {
		if keep(v) {
			out = append(out, v)
		}
	}
	return out
}
