package contract

import (
	"cmp"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/model"
)

// Override applies an editor's mappings (model.ContractMapping) to p, the
// plan of s: each replaces how one root field is served — its shape, its
// entity, the roles of its arguments. It checks every mapping first and
// changes nothing when one is wrong, returning BAD_USER_INPUT that names
// it: an unknown root field, shape, entity, argument or role, a field the
// entity does not have, or a shape the field's type cannot take (a list
// shape for a single row, a connection for a list).
func (p *Plan) Override(s *Schema, maps []model.ContractMapping) error {
	type change struct {
		r *RootField
		m model.ContractMapping
	}
	var changes []change
	for _, m := range maps {
		r, fd := p.rootOf(s, m.Field)
		if r == nil {
			return model.Errorf(model.CodeBadUserInput, "mapping %q: no such root field (write Query.name, Mutation.name or Subscription.name)", m.Field)
		}
		if err := p.checkMapping(s, r, fd, m); err != nil {
			return err
		}
		changes = append(changes, change{r, m})
	}
	for _, c := range changes {
		c.r.override(c.m)
		if strings.HasPrefix(c.m.Field, "Subscription.") && c.r.Shape == ShapeGenerated {
			c.r.Every = cmp.Or(c.m.EverySeconds, c.r.Every, DefaultEvery)
		}
	}
	return nil
}

// rootOf returns the root field named "Query.books" (Mutation.…,
// Subscription.…; a bare name is a query) and its definition.
func (p *Plan) rootOf(s *Schema, field string) (*RootField, *ast.FieldDefinition) {
	kind, name, ok := strings.Cut(field, ".")
	if !ok {
		kind, name = "Query", field
	}
	list, def := p.Queries, s.AST.Query
	switch kind {
	case "Mutation":
		list, def = p.Mutations, s.AST.Mutation
	case "Subscription":
		list, def = p.Subscriptions, s.AST.Subscription
	case "Query":
	default:
		return nil, nil
	}
	for _, r := range list {
		if r.Name == name && def != nil {
			return r, def.Fields.ForName(name)
		}
	}
	return nil, nil
}

// shapeFits says which shapes a field's type can take.
func shapeFits(shape Shape, list, wrapper bool) bool {
	switch shape {
	case ShapeList, ShapeLookupMany:
		return list
	case ShapeConnection, ShapePage, ShapeAggregate:
		return wrapper && !list
	case ShapeLookup, ShapeFirst, ShapeNode:
		return !list && !wrapper
	case ShapeCreate, ShapeUpdate, ShapeUpsert, ShapeDelete, ShapeEvent, ShapeGenerated:
		return true
	}
	return false
}

// checkMapping checks one mapping against r and its definition fd.
func (p *Plan) checkMapping(s *Schema, r *RootField, fd *ast.FieldDefinition, m model.ContractMapping) error {
	entity := r.Entity
	if m.Entity != "" {
		entity = m.Entity
		if p.entity(entity) == nil && p.Abstract[entity] == nil {
			return model.Errorf(model.CodeBadUserInput, "mapping %s: %q is not a table of rows", m.Field, m.Entity)
		}
	}
	if m.Shape != "" {
		d := s.AST.Types[fd.Type.Name()]
		wrapper := d != nil && d.Kind == ast.Object && p.entity(d.Name) == nil
		if !shapeFits(Shape(m.Shape), isList(fd.Type), wrapper) {
			return model.Errorf(model.CodeBadUserInput, "mapping %s: the shape %q does not fit the type %s", m.Field, m.Shape, fd.Type.String())
		}
	}
	if m.EverySeconds != 0 {
		shape := r.Shape
		if m.Shape != "" {
			shape = Shape(m.Shape)
		}
		switch {
		case !strings.HasPrefix(m.Field, "Subscription.") || shape != ShapeGenerated:
			return model.Errorf(model.CodeBadUserInput, "mapping %s: everySeconds is the rate of a subscription that streams generated payloads", m.Field)
		case m.EverySeconds < MinEvery || m.EverySeconds > MaxEvery:
			return model.Errorf(model.CodeBadUserInput, "mapping %s: everySeconds is from %d to %d, not %d", m.Field, MinEvery, MaxEvery, m.EverySeconds)
		}
	}
	for _, a := range m.Args {
		if err := p.checkArg(s, fd, r, entity, m.Field, a); err != nil {
			return err
		}
	}
	return nil
}

// roles are the roles a mapping may give an argument.
var roles = map[Role]bool{RoleKey: true, RoleKeys: true, RoleEq: true, RoleRange: true, RoleIn: true, RoleSearch: true,
	RoleRelay: true, RoleOffset: true, RolePage: true, RoleSort: true, RoleFilter: true, RoleInput: true, RoleIgnored: true}

// checkArg checks an argument's mapping: a is an argument of r, or the
// path of a field inside one's input object ("input.id").
func (p *Plan) checkArg(s *Schema, fd *ast.FieldDefinition, r *RootField, entity, field string, a model.ContractArg) error {
	found := InputPath(s, fd, a.Name)
	for _, x := range r.Args {
		found = found || x.Name == a.Name
	}
	switch role := Role(a.Role); {
	case !found:
		return model.Errorf(model.CodeBadUserInput, "mapping %s: no argument %q (an input object's field is named by its path, as input.id)", field, a.Name)
	case !roles[role]:
		return model.Errorf(model.CodeBadUserInput, "mapping %s(%s): unknown role %q", field, a.Name, a.Role)
	case (role == RoleEq || role == RoleRange || role == RoleIn) && !p.hasField(entity, a.Field):
		return model.Errorf(model.CodeBadUserInput, "mapping %s(%s): %s has no field %q", field, a.Name, entity, a.Field)
	case role == RoleRange && a.Op != "gt" && a.Op != "gte" && a.Op != "lt" && a.Op != "lte":
		return model.Errorf(model.CodeBadUserInput, "mapping %s(%s): a range's op is gt, gte, lt or lte, not %q", field, a.Name, a.Op)
	}
	return nil
}

// arg returns r's argument named name, or nil.
func (r *RootField) arg(name string) *Arg {
	for _, a := range r.Args {
		if a.Name == name {
			return a
		}
	}
	return nil
}

func (p *Plan) entity(typ string) *Entity {
	for _, e := range p.Entities {
		if e.Type == typ {
			return e
		}
	}
	return nil
}

// hasField reports whether the entity typ (or each entity of an interface
// or union) has the field name.
func (p *Plan) hasField(typ, name string) bool {
	types := []string{typ}
	if p.entity(typ) == nil {
		types = p.Abstract[typ]
	}
	for _, t := range types {
		e := p.entity(t)
		if e == nil || fieldOf(e, norm(name)) == "" {
			return false
		}
	}
	return len(types) > 0
}

// override applies m to r.
func (r *RootField) override(m model.ContractMapping) {
	if m.Shape != "" {
		r.Shape, r.Why, r.Flag, r.Link = Shape(m.Shape), "", "", ""
	}
	if m.Entity != "" {
		r.Entity = m.Entity
	}
	for _, ma := range m.Args {
		a := r.arg(ma.Name)
		if a == nil { // a field inside an input object, named by its path
			a = &Arg{Name: ma.Name}
			r.Args = append(r.Args, a)
		}
		a.Role, a.Field, a.Op, a.Style = Role(ma.Role), ma.Field, ma.Op, ""
		if a.Role == RoleFilter {
			a.Style, a.Op = ma.Op, ""
		}
	}
}
