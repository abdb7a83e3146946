package contract

import (
	"slices"
	"strings"

	"github.com/mockgql/mockgql/model"
)

// An editor's mappings (model.ContractMapping, docs/using/contract.md)
// change how root fields are served after the import. CheckMapping
// refuses one that does not fit the plan; ApplyMappings applies them.

// shapes are the shapes a mapping may name.
var shapes = []Shape{ShapeLookup, ShapeLookupMany, ShapeNode, ShapeList, ShapeConnection, ShapePage, ShapeAggregate,
	ShapeFirst, ShapeCreate, ShapeUpdate, ShapeUpsert, ShapeDelete, ShapeEvent, ShapeGenerated}

// roleOps are the roles a mapping may give an argument, with the
// operators each takes ("" none).
var roleOps = map[Role][]string{
	RoleKey: {""}, RoleKeys: {""}, RoleEq: {""}, RoleIn: {""}, RoleSearch: {""}, RoleSort: {""}, RoleInput: {""}, RoleIgnored: {""},
	RoleRange: {"gt", "gte", "lt", "lte"}, RoleRelay: {"first", "after", "last", "before"},
	RoleOffset: {"limit", "offset"}, RolePage: {"page", "size"}, RoleFilter: {"hasura", "prisma", "plain"},
}

// rootOf finds the root field m names ("Query.books", "Mutation.x" or a
// query's bare name) in p.
func (p *Plan) rootOf(field string) (*RootField, string) {
	kind, name, ok := strings.Cut(field, ".")
	if !ok {
		kind, name = "Query", field
	}
	list := map[string][]*RootField{"Query": p.Queries, "Mutation": p.Mutations, "Subscription": p.Subscriptions}[kind]
	for _, r := range list {
		if r.Name == name {
			return r, kind + "." + name
		}
	}
	return nil, ""
}

// CheckMapping refuses, with BAD_USER_INPUT naming it, a mapping that does
// not fit p: an unknown root field, shape, entity or argument, a role or
// operator that does not exist, a field the entity does not have, or an
// argument mapped twice (so a mapping is as small as its field). It
// returns the mapping with its Field in the form "Query.books".
func (p *Plan) CheckMapping(m model.ContractMapping) (model.ContractMapping, error) {
	r, full := p.rootOf(m.Field)
	if r == nil {
		return m, model.Errorf(model.CodeBadUserInput, "%q is no root field of the schema (Query.books, Mutation.createBook)", m.Field)
	}
	m.Field = full
	if m.Shape != "" && !slices.Contains(shapes, Shape(m.Shape)) {
		return m, model.Errorf(model.CodeBadUserInput, "shape %q: one of %s", m.Shape, joinShapes())
	}
	entity := cmpOr(m.Entity, r.Entity)
	if m.Entity != "" && p.entity(m.Entity) == nil && p.Abstract[m.Entity] == nil {
		return m, model.Errorf(model.CodeBadUserInput, "%q is not a type served as a table, nor an interface or union of them", m.Entity)
	}
	seen := map[string]bool{}
	for _, a := range m.Args {
		if seen[a.Name] {
			return m, model.Errorf(model.CodeBadUserInput, "argument %s is mapped twice", a.Name)
		}
		seen[a.Name] = true
		if err := p.checkArg(r, entity, a); err != nil {
			return m, err
		}
	}
	return m, nil
}

// checkArg refuses an argument mapping that does not fit r.
func (p *Plan) checkArg(r *RootField, entity string, a model.ContractArg) error {
	if !slices.ContainsFunc(r.Args, func(x *Arg) bool { return x.Name == a.Name }) {
		return model.Errorf(model.CodeBadUserInput, "%s has no argument %q", r.Name, a.Name)
	}
	ops, ok := roleOps[Role(a.Role)]
	if !ok {
		return model.Errorf(model.CodeBadUserInput, "argument %s: role %q is not one of key, keys, eq, range, in, search, relay, offset, page, sort, filter, input, ignored", a.Name, a.Role)
	}
	if !slices.Contains(ops, a.Op) {
		return model.Errorf(model.CodeBadUserInput, "argument %s: role %s takes the operator %s, not %q", a.Name, a.Role, strings.Join(ops, ", "), a.Op)
	}
	switch Role(a.Role) {
	case RoleEq, RoleRange, RoleIn:
		if e := p.entity(entity); e == nil || !slices.ContainsFunc(e.Fields, func(f *Field) bool { return f.Name == a.Field }) {
			return model.Errorf(model.CodeBadUserInput, "argument %s: %q is not a field of %s", a.Name, a.Field, entity)
		}
	}
	return nil
}

// entity returns the entity typ, or nil.
func (p *Plan) entity(typ string) *Entity {
	for _, e := range p.Entities {
		if e.Type == typ {
			return e
		}
	}
	return nil
}

func joinShapes() string {
	out := make([]string, len(shapes))
	for i, s := range shapes {
		out[i] = string(s)
	}
	return strings.Join(out, ", ")
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// ApplyMappings replaces p's interpretation of root fields by maps; names
// p does not know are left (CheckMapping refuses them on the way in). It
// returns the root fields it changed, as "Query.books".
func (p *Plan) ApplyMappings(maps []model.ContractMapping) map[string]bool {
	changed := map[string]bool{}
	for _, m := range maps {
		r, full := p.rootOf(m.Field)
		if r == nil {
			continue
		}
		changed[full] = true
		if m.Shape != "" {
			r.Shape = Shape(m.Shape)
		}
		if m.Entity != "" {
			r.Entity = m.Entity
		}
		for _, ma := range m.Args {
			for _, a := range r.Args {
				if a.Name != ma.Name {
					continue
				}
				a.Role, a.Field, a.Op, a.Style = Role(ma.Role), ma.Field, ma.Op, ""
				if a.Role == RoleFilter {
					a.Style, a.Op = ma.Op, ""
				}
			}
		}
	}
	return changed
}

// Report is the plan's root fields with maps applied, as the APIs answer
// them (Project.contract.report): each marked Mapped when maps change it.
func Report(plan *Plan, maps []model.ContractMapping) []model.ContractField {
	changed := plan.ApplyMappings(maps)
	out := plan.Fields()
	for i := range out {
		kind := map[string]string{model.RootQuery: "Query", model.RootMutation: "Mutation", model.RootSubscription: "Subscription"}[out[i].Root]
		out[i].Mapped = changed[kind+"."+out[i].Name]
	}
	return out
}
