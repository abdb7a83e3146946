package contractrt

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/graphql/internal/answer"
	"github.com/mockgql/mockgql/model"
)

// contractResolvers are the resolvers of a contract project's schema: the
// fields of each entity type (attributes, relations, generated values)
// and the root fields by their shape (contract.Shape).
func (rt *Runtime) contractResolvers() map[string]exec.Resolver {
	m := map[string]exec.Resolver{}
	for name, t := range rt.tables {
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
		for _, rf := range rt.plan.Queries {
			m[q.Name+"."+rf.Name] = rt.queryResolver(rf, q.Fields.ForName(rf.Name))
		}
	}
	if mu := rt.schema.Mutation; mu != nil {
		for _, rf := range rt.plan.Mutations {
			m[mu.Name+"."+rf.Name] = rt.mutationResolver(rf, mu.Fields.ForName(rf.Name))
		}
	}
	if su := rt.schema.Subscription; su != nil {
		for _, rf := range rt.plan.Subscriptions {
			m[su.Name+"."+rf.Name] = rt.subscriptionResolver(rf, su.Fields.ForName(rf.Name))
		}
	}
	return m
}

// entityField is the resolver of the field fd of the entity table t: its
// relation, its attribute, or a generated value.
func (rt *Runtime) entityField(t *engine.Table, fd *ast.FieldDefinition) exec.Resolver {
	if part := rt.parts[t.Name+"."+fd.Name]; part != nil {
		return rt.partsField(part, fd, rt.entityFieldOf(t, fd))
	}
	if total, ok := rt.partTotal(t, fd, rt.entityFieldOf(t, fd)); ok {
		return total
	}
	return rt.entityFieldOf(t, fd)
}

// entityFieldOf is entityField without parts.
func (rt *Runtime) entityFieldOf(t *engine.Table, fd *ast.FieldDefinition) exec.Resolver {
	for _, rf := range t.Rels {
		if rf.Name == fd.Name {
			return rt.relationField(rf, fd)
		}
	}
	if a := t.Field(fd.Name); a != nil {
		return rt.attributeField(a, fd)
	}
	if l := rt.links[t.Name+"."+fd.Name]; l != nil {
		return rt.listField(l.to, fd, func(ro *answer.RowObj) (*engine.TableView, []int32) { return rt.linked(l, ro.TV, ro.Row, nil) })
	}
	if link := t.ByName[contract.HiddenKey+fd.Name]; link != nil && fd.Type.Elem == nil {
		return rt.linkedField(link, fd, rt.generatedField(t.Name, fd))
	}
	return rt.generatedField(t.Name, fd)
}

// linkedField answers a to-one field of an interface or union type that a
// hidden link column holds for the rows a mutation gave one (Shopify's
// cartLinesAdd(lines: [{merchandiseId}])): the row of the type's tables
// with that id; else what generated answers.
func (rt *Runtime) linkedField(link *engine.Attr, fd *ast.FieldDefinition, generated exec.Resolver) exec.Resolver {
	tables := rt.tablesOf(fd.Type.Name())
	return func(ctx context.Context, f *exec.Field) (any, error) {
		ro := f.Parent.(*answer.RowObj)
		if v := ro.TV.Value(link, ro.Row); v.Kind == dataset.String && v.Str != "" {
			for _, t := range tables {
				if tv := ro.TV.View.TableView(t); tv.NotReady == nil {
					if r := tv.ByID(v.Str); r >= 0 {
						return &answer.RowObj{TV: tv, Row: r}, nil
					}
				}
			}
		}
		return generated(ctx, f)
	}
}

// attributeField answers an attribute as the schema types it: JSON
// (lists, embedded objects, JSON scalars) decoded, a missing non-null
// value generated.
func (rt *Runtime) attributeField(a *engine.Attr, fd *ast.FieldDefinition) exec.Resolver {
	return func(_ context.Context, f *exec.Field) (any, error) {
		ro := f.Parent.(*answer.RowObj)
		x := answer.Output(a.Type, ro.TV.Value(a, ro.Row))
		if raw, ok := x.(json.RawMessage); ok {
			var v any
			if json.Unmarshal(raw, &v) != nil {
				v = nil
			}
			x = v
		}
		if x == nil && fd.Type.NonNull {
			seed := mix(rt.seed, ro.TV.Table.Name, fd.Name, ro.TV.ID(ro.Row))
			return rt.genValue(ro.TV.View, ro.TV.Table.Name, fd.Name, fd.Type, seed, 0), nil
		}
		return x, nil
	}
}

// relationField answers a relation: one row, or a list, connection or
// page of the related rows filtered, sorted and cut by the field's
// arguments (read as a root field's are: where, orderBy, first, take, …).
func (rt *Runtime) relationField(rf *engine.Rel, fd *ast.FieldDefinition) exec.Resolver {
	if rf.List {
		return rt.listField(rf.To, fd, func(ro *answer.RowObj) (*engine.TableView, []int32) { return ro.TV.Related(rf, ro.Row) })
	}
	return func(ctx context.Context, f *exec.Field) (any, error) {
		ro := f.Parent.(*answer.RowObj)
		target, rows := ro.TV.Related(rf, ro.Row)
		if len(rows) == 0 {
			return rt.nullOrGenerated(ro, fd)
		}
		return &answer.RowObj{TV: target, Row: rows[0]}, nil
	}
}

// listField answers a field that lists rows of the table to — those
// rowsOf gives for the parent row — as a list, connection or page,
// filtered, sorted and cut by the field's arguments.
func (rt *Runtime) listField(to *engine.Table, fd *ast.FieldDefinition, rowsOf func(*answer.RowObj) (*engine.TableView, []int32)) exec.Resolver {
	wrap := rt.schema.Types[fd.Type.Name()]
	if rt.wrapperKind(wrap.Name) == "" {
		wrap = nil
	}
	args := &contract.RootField{Name: fd.Name, Entity: to.Name, Args: fieldArgs(to, fd)}
	return func(ctx context.Context, f *exec.Field) (any, error) {
		ro := f.Parent.(*answer.RowObj)
		target, rows := rowsOf(ro)
		q, err := rt.readQuery(to, args, f.Args)
		if err != nil {
			return nil, err
		}
		kept, err := q.narrow(ctx, target, rows)
		if err != nil {
			return nil, err
		}
		all := &ctRows{}
		all.add(target, engine.RowList{Rows: kept})
		if wrap == nil && q.limit < 0 && q.size == 0 && !q.relay {
			return all.objects(0, all.n), nil
		}
		w, err := rt.windowOf(all, q, f.Args)
		if err != nil || wrap == nil {
			return w.rows.objects(w.lo, w.hi), err
		}
		return rt.fill(ro.TV.View, wrap, w, mix(rt.seed, fd.Name, ro.TV.ID(ro.Row)), 0), nil
	}
}

// fieldArgs gives the arguments of a relation field the roles a root
// field's arguments of the same names would have.
func fieldArgs(t *engine.Table, fd *ast.FieldDefinition) []*contract.Arg {
	var out []*contract.Arg
	for _, a := range fd.Arguments {
		arg := &contract.Arg{Name: a.Name, Role: contract.RoleIgnored}
		switch n := fold(a.Name); n {
		case "first", "last", "after", "before":
			arg.Role = contract.RoleRelay
		case "limit", "take", "top":
			arg.Role, arg.Op = contract.RoleOffset, "limit"
		case "offset", "skip":
			arg.Role, arg.Op = contract.RoleOffset, "offset"
		case "page", "pagenumber":
			arg.Role, arg.Op = contract.RolePage, "page"
		case "pagesize", "perpage", "size":
			arg.Role, arg.Op = contract.RolePage, "size"
		case "where", "filter", "filters", "condition":
			arg.Role = contract.RoleFilter
		case "orderby", "sort", "sortby", "order", "ordering":
			arg.Role = contract.RoleSort
		case "sortfield", "orderfield":
			arg.Role, arg.Op = contract.RoleSort, "field"
		case "sortdirection", "sortorder", "orderdirection", "direction":
			arg.Role, arg.Op = contract.RoleSort, "direction"
		case "search", "q", "query", "term", "keyword":
			arg.Role = contract.RoleSearch
		default:
			if at := foldedAttr(t, a.Name); at != nil {
				arg.Role, arg.Field = contract.RoleEq, at.Name
			} else if at := pluralOf(t, a); at != nil {
				arg.Role, arg.Field = contract.RoleIn, at.Name // GitHub's issues(states: [OPEN])
			}
		}
		out = append(out, arg)
	}
	return out
}

// pluralOf returns the attribute of t that the list argument a names in
// the plural (states for state, statuses for status), or nil.
func pluralOf(t *engine.Table, a *ast.ArgumentDefinition) *engine.Attr {
	if a.Type.Elem == nil {
		return nil
	}
	for _, suffix := range []string{"es", "s"} {
		if one, ok := strings.CutSuffix(a.Name, suffix); ok && one != "" {
			if at := foldedAttr(t, one); at != nil {
				return at
			}
		}
	}
	return nil
}

// narrow returns the rows of tv that q's conditions keep, in q's order.
func (q *ctQuery) narrow(ctx context.Context, tv *engine.TableView, rows []int32) ([]int32, error) {
	if err := q.resolveJoins(ctx, tv); err != nil {
		return nil, err
	}
	preds, rest := q.where.Split()
	if len(preds) == 0 && rest == nil && len(q.tests) == 0 && len(q.keys) == 0 {
		return rows, nil
	}
	out := make([]int32, 0, len(rows))
	for _, r := range rows {
		if tv.MatchLive(preds, r) && (rest == nil || rest.Match(tv, r)) && q.test(tv, r) {
			out = append(out, r)
		}
	}
	if len(q.keys) > 0 {
		pq := &engine.Query{Keys: q.keys}
		slices.SortStableFunc(out, pq.Compare(tv))
	}
	return out, nil
}

// nullOrGenerated is a missing row: null, or for a non-null field a
// generated value (a row of the type).
func (rt *Runtime) nullOrGenerated(ro *answer.RowObj, fd *ast.FieldDefinition) (any, error) {
	if !fd.Type.NonNull {
		return nil, nil
	}
	seed := mix(rt.seed, ro.TV.Table.Name, fd.Name, ro.TV.ID(ro.Row))
	return rt.genValue(ro.TV.View, ro.TV.Table.Name, fd.Name, fd.Type, seed, 0), nil
}

// generatedField answers a field of a row that no attribute or relation
// holds (a list of rows without a field back, a computed value): a value
// generated from the row and the arguments.
func (rt *Runtime) generatedField(owner string, fd *ast.FieldDefinition) exec.Resolver {
	return func(_ context.Context, f *exec.Field) (any, error) {
		ro := f.Parent.(*answer.RowObj)
		seed := argsSeed(mix(rt.seed, owner, ro.TV.ID(ro.Row)), fd.Name, f.Args)
		return rt.genValue(ro.TV.View, owner, fd.Name, fd.Type, seed, 0), nil
	}
}

// queryResolver answers a root field of the query type by its shape.
func (rt *Runtime) queryResolver(rf *contract.RootField, fd *ast.FieldDefinition) exec.Resolver {
	return func(ctx context.Context, f *exec.Field) (any, error) {
		v := answer.RootView(f)
		switch rf.Shape {
		case contract.ShapeGenerated, contract.ShapeEvent:
			seed := argsSeed(rt.seed, rf.Name, f.Args)
			return rt.genValue(v, rt.schema.Query.Name, fd.Name, fd.Type, seed, 0), nil
		case contract.ShapeNode:
			return rt.node(v, rf, f.Args)
		case contract.ShapeService, contract.ShapeEntities:
			return rt.federation(v, rf, f.Args)
		}
		q, err := rt.readRootQuery(rf, f.Args)
		if err != nil {
			return nil, err
		}
		rows, err := rt.selectRows(ctx, v, rf, f.Args)
		if err != nil {
			return nil, err
		}
		return rt.shaped(v, rf, fd, q, rows, f.Args)
	}
}

// shaped answers the rows of a root field in its shape.
func (rt *Runtime) shaped(v *engine.View, rf *contract.RootField, fd *ast.FieldDefinition, q *ctQuery, rows *ctRows, args map[string]any) (any, error) {
	seed := func() uint64 { return argsSeed(rt.seed, rf.Name, args) }
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
		return rt.fill(v, rt.schema.Types[fd.Type.Name()], w, seed(), 0), nil
	}
	if (rf.Shape == contract.ShapeList || rf.Shape == contract.ShapePage) && q.limit < 0 && !q.relay {
		q.limit = rt.opt.MaxPageSize
	}
	w, err := rt.windowOf(rows, q, args)
	if err != nil {
		return nil, err
	}
	if rf.Shape == contract.ShapeLookupMany {
		return inKeyOrder(rf, fd, args, w), nil
	}
	if rf.Shape == contract.ShapeList {
		return w.rows.objects(w.lo, w.hi), nil
	}
	return rt.fill(v, rt.schema.Types[fd.Type.Name()], w, seed(), 0), nil
}

// inKeyOrder lists the rows of a lookup by keys (nodes(ids:)) in the
// order of the keys asked, null (or nothing, for non-null items) where no
// row has the key.
func inKeyOrder(rf *contract.RootField, fd *ast.FieldDefinition, args map[string]any, w *ctWindow) []any {
	var keys []any
	for _, a := range rf.Args {
		if a.Role == contract.RoleKeys {
			keys, _ = args[a.Name].([]any)
		}
	}
	byKey := map[string]any{}
	for _, x := range w.rows.objects(w.lo, w.hi) {
		ro := x.(*answer.RowObj)
		byKey[ro.TV.ID(ro.Row)] = ro
	}
	out := make([]any, 0, len(keys))
	for _, k := range keys {
		if ro, ok := byKey[keyText(k)]; ok {
			out = append(out, ro)
		} else if !fd.Type.Elem.NonNull {
			out = append(out, nil)
		}
	}
	return out
}

// node answers Relay's node(id:): the row with that key in any entity of
// the interface.
func (rt *Runtime) node(v *engine.View, rf *contract.RootField, args map[string]any) (any, error) {
	id, _ := args["id"].(string)
	for _, t := range rt.tablesOf(rf.Entity) {
		tv := v.TableView(t)
		if tv.NotReady != nil {
			continue
		}
		if r := tv.ByID(id); r >= 0 {
			return &answer.RowObj{TV: tv, Row: r}, nil
		}
	}
	return nil, nil
}
