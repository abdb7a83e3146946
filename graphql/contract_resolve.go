package graphql

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// contractResolvers are the resolvers of a contract project's schema: the
// fields of each entity type (attributes, relations, generated values)
// and the root fields by their shape (contract.Shape).
func (rt *Runtime) contractResolvers() map[string]exec.Resolver {
	m := map[string]exec.Resolver{}
	for name, t := range rt.contract.tables {
		d := rt.schema.Types[name]
		if d == nil || d.Kind != ast.Object {
			continue
		}
		for _, fd := range d.Fields {
			if !strings.HasPrefix(fd.Name, "__") {
				m[name+"."+fd.Name] = rt.entityField(t, fd)
			}
		}
	}
	if q := rt.schema.Query; q != nil {
		for _, rf := range rt.contract.plan.Queries {
			m[q.Name+"."+rf.Name] = rt.queryResolver(rf, q.Fields.ForName(rf.Name))
		}
	}
	if mu := rt.schema.Mutation; mu != nil {
		for _, rf := range rt.contract.plan.Mutations {
			m[mu.Name+"."+rf.Name] = rt.mutationResolver(rf, mu.Fields.ForName(rf.Name))
		}
	}
	return m
}

// entityField is the resolver of the field fd of the entity table t: its
// relation, its attribute, or a generated value.
func (rt *Runtime) entityField(t *table, fd *ast.FieldDefinition) exec.Resolver {
	for _, rf := range t.rels {
		if rf.name == fd.Name {
			return rt.relationField(rf, fd)
		}
	}
	if a := t.field(fd.Name); a != nil {
		return rt.attributeField(a, fd)
	}
	return rt.generatedField(t.name, fd)
}

// attributeField answers an attribute as the schema types it: JSON
// (lists, embedded objects, JSON scalars) decoded, a missing non-null
// value generated.
func (rt *Runtime) attributeField(a *attribute, fd *ast.FieldDefinition) exec.Resolver {
	return func(_ context.Context, f *exec.Field) (any, error) {
		ro := f.Parent.(*rowObj)
		x := output(a.typ, ro.tv.value(a, ro.row))
		if raw, ok := x.(json.RawMessage); ok {
			var v any
			if json.Unmarshal(raw, &v) != nil {
				v = nil
			}
			x = v
		}
		if x == nil && fd.Type.NonNull {
			seed := mix(rt.contract.seed, ro.tv.t.name, fd.Name, ro.tv.id(ro.row))
			return rt.genValue(ro.tv.v, ro.tv.t.name, fd.Name, fd.Type, seed, 0), nil
		}
		return x, nil
	}
}

// relationField answers a relation: one row, a list, or a connection or
// page of the related rows cut by the field's arguments.
func (rt *Runtime) relationField(rf *relField, fd *ast.FieldDefinition) exec.Resolver {
	wrap := rt.schema.Types[fd.Type.Name()]
	if rt.wrapperKind(wrap.Name) == "" {
		wrap = nil
	}
	return func(ctx context.Context, f *exec.Field) (any, error) {
		ro := f.Parent.(*rowObj)
		target, rows := ro.tv.related(rf, ro.row)
		if !rf.list {
			if len(rows) == 0 {
				return rt.nullOrGenerated(ro, fd)
			}
			return &rowObj{tv: target, row: rows[0]}, nil
		}
		all := &ctRows{}
		all.add(target, rowList{rows: rows})
		if wrap == nil {
			return all.objects(0, all.n), nil
		}
		w, err := rt.relatedWindow(all, f.Args)
		if err != nil {
			return nil, err
		}
		return rt.fill(ro.tv.v, wrap, w, mix(rt.contract.seed, fd.Name, ro.tv.id(ro.row)), 0), nil
	}
}

// relatedWindow cuts the related rows by the paging arguments of a
// relation field, named as root fields name them.
func (rt *Runtime) relatedWindow(all *ctRows, args map[string]any) (*ctWindow, error) {
	q := &ctQuery{limit: -1}
	for name, v := range args {
		switch fold(name) {
		case "first", "last", "after", "before":
			q.relay = true
		case "limit", "take", "count", "top":
			q.window("limit", v)
		case "offset", "skip":
			q.window("offset", v)
		case "page", "pagenumber":
			q.window("page", v)
		case "pagesize", "perpage", "size":
			q.window("size", v)
		}
	}
	if q.size > 0 || q.page > 0 {
		if q.size <= 0 {
			q.size = 20
		}
		q.offset, q.limit = max(q.page-1, 0)*q.size, q.size
	}
	return rt.windowOf(all, q, args)
}

// nullOrGenerated is a missing row: null, or for a non-null field a
// generated value (a row of the type).
func (rt *Runtime) nullOrGenerated(ro *rowObj, fd *ast.FieldDefinition) (any, error) {
	if !fd.Type.NonNull {
		return nil, nil
	}
	seed := mix(rt.contract.seed, ro.tv.t.name, fd.Name, ro.tv.id(ro.row))
	return rt.genValue(ro.tv.v, ro.tv.t.name, fd.Name, fd.Type, seed, 0), nil
}

// generatedField answers a field of a row that no attribute or relation
// holds (a list of rows without a field back, a computed value): a value
// generated from the row and the arguments.
func (rt *Runtime) generatedField(owner string, fd *ast.FieldDefinition) exec.Resolver {
	return func(_ context.Context, f *exec.Field) (any, error) {
		ro := f.Parent.(*rowObj)
		seed := argsSeed(mix(rt.contract.seed, owner, ro.tv.id(ro.row)), fd.Name, f.Args)
		return rt.genValue(ro.tv.v, owner, fd.Name, fd.Type, seed, 0), nil
	}
}

// queryResolver answers a root field of the query type by its shape.
func (rt *Runtime) queryResolver(rf *contract.RootField, fd *ast.FieldDefinition) exec.Resolver {
	return func(ctx context.Context, f *exec.Field) (any, error) {
		v := f.Parent.(*view)
		seed := argsSeed(rt.contract.seed, rf.Name, f.Args)
		switch rf.Shape {
		case contract.ShapeGenerated, contract.ShapeEvent:
			return rt.genValue(v, rt.schema.Query.Name, fd.Name, fd.Type, seed, 0), nil
		case contract.ShapeNode:
			return rt.node(v, rf, f.Args)
		}
		q, err := rt.readRootQuery(rf, f.Args)
		if err != nil {
			return nil, err
		}
		rows, err := rt.selectRows(ctx, v, rf, f.Args)
		if err != nil {
			return nil, err
		}
		return rt.shaped(v, rf, fd, q, rows, f.Args, seed)
	}
}

// shaped answers the rows of a root field in its shape.
func (rt *Runtime) shaped(v *view, rf *contract.RootField, fd *ast.FieldDefinition, q *ctQuery, rows *ctRows, args map[string]any, seed uint64) (any, error) {
	switch rf.Shape {
	case contract.ShapeLookup, contract.ShapeFirst:
		if rows.n == 0 {
			if fd.Type.NonNull {
				return nil, model.Errorf(model.CodeNotFound, "%s: no row matches the arguments", rf.Name)
			}
			return nil, nil
		}
		return rows.at(0), nil
	case contract.ShapeAggregate:
		w := &ctWindow{rows: rows, lo: 0, hi: min(rows.n, rt.opt.MaxPageSize), page: 1}
		return rt.fill(v, rt.schema.Types[fd.Type.Name()], w, seed, 0), nil
	}
	if rf.Shape == contract.ShapeList && q.limit < 0 && !q.relay {
		q.limit = rt.opt.MaxPageSize
	}
	w, err := rt.windowOf(rows, q, args)
	if err != nil {
		return nil, err
	}
	if rf.Shape == contract.ShapeList || rf.Shape == contract.ShapeLookupMany {
		return w.rows.objects(w.lo, w.hi), nil
	}
	return rt.fill(v, rt.schema.Types[fd.Type.Name()], w, seed, 0), nil
}

// node answers Relay's node(id:): the row with that key in any entity of
// the interface.
func (rt *Runtime) node(v *view, rf *contract.RootField, args map[string]any) (any, error) {
	id, _ := args["id"].(string)
	for _, t := range rt.contract.tablesOf(rf.Entity) {
		tv := v.tableView(t)
		if tv.notReady != nil {
			continue
		}
		if r := tv.byID(id); r >= 0 {
			return &rowObj{tv: tv, row: r}, nil
		}
	}
	return nil, nil
}
