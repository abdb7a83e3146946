package graphql

import (
	"context"
	"sort"
	"strings"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/graphql/internal/answer"
	"github.com/mockgql/mockgql/model"
)

// resolvers returns the resolver of every field the runtime computes:
// operations on Query and Mutation, and the id, attribute and relation
// fields of each table type. Page types are maps, served by the executor's
// default resolver.
func (rt *Runtime) resolvers() map[string]exec.Resolver {
	m := map[string]exec.Resolver{}
	queries := 0
	for _, o := range rt.model.ops {
		switch o.kind {
		case model.OpList:
			m["Query."+o.name] = rt.listResolver(o)
			if o.relay {
				m["Query."+o.name+model.ConnectionSuffix] = rt.connectionResolver(o)
			}
			queries++
		case model.OpAggregate:
			m["Query."+o.name] = rt.aggregateResolver(o)
			queries++
		case model.OpSingle:
			m["Query."+o.name] = singleResolver(o)
			queries++
		case model.OpCreate:
			m["Mutation."+o.name] = mutationResolver(o, createRow)
		case model.OpUpdate:
			m["Mutation."+o.name] = mutationResolver(o, updateRow)
		case model.OpDelete:
			m["Mutation."+o.name] = mutationResolver(o, removeRow)
		}
	}
	for _, s := range rt.model.subs {
		m["Subscription."+s.name] = subResolver(s)
	}
	if queries == 0 {
		m["Query."+placeholderField] = func(context.Context, *exec.Field) (any, error) { return nil, nil }
	}
	for _, t := range rt.model.tables {
		m[t.Name+".id"] = idResolver
		for _, a := range t.Attrs {
			if !a.IsID {
				m[t.Name+"."+a.Name] = attrResolver(a)
			}
		}
		for _, r := range t.Rels {
			m[t.Name+"."+r.Name] = relResolver(r)
		}
	}
	return m
}

// looseArgs lists the query operations: their unknown arguments reach the
// resolver, which ignores them when the operation has no parameters (single
// operations never have any) and refuses them otherwise (docs/using/
// runtime.md, "Query rules"). Mutations stay strict.
func (rt *Runtime) looseArgs() map[string]bool {
	m := map[string]bool{}
	for _, o := range rt.model.ops {
		if o.kind == model.OpList || o.kind == model.OpSingle {
			m["Query."+o.name] = true
		}
	}
	return m
}

func idResolver(_ context.Context, f *exec.Field) (any, error) {
	ro := f.Parent.(*answer.RowObj)
	return ro.TV.ID(ro.Row), nil
}

func attrResolver(a *engine.Attr) exec.Resolver {
	return func(_ context.Context, f *exec.Field) (any, error) {
		ro := f.Parent.(*answer.RowObj)
		return answer.Output(a.Type, ro.TV.Value(a, ro.Row)), nil
	}
}

func relResolver(rf *engine.Rel) exec.Resolver {
	return func(_ context.Context, f *exec.Field) (any, error) {
		ro := f.Parent.(*answer.RowObj)
		target, rows := ro.TV.Related(rf, ro.Row)
		if rf.List {
			return answer.Objects(target, engine.RowList{Rows: rows}, 0, len(rows)), nil
		}
		if len(rows) == 0 {
			return nil, nil
		}
		return &answer.RowObj{TV: target, Row: rows[0]}, nil
	}
}

func singleResolver(o *operation) exec.Resolver {
	return func(_ context.Context, f *exec.Field) (any, error) {
		tv := answer.RootView(f).TableView(o.t)
		if tv.NotReady != nil {
			return nil, tv.NotReady
		}
		id, _ := f.Args["id"].(string)
		if r := tv.ByID(id); r >= 0 {
			return &answer.RowObj{TV: tv, Row: r}, nil
		}
		return nil, nil
	}
}

// listResolver serves a LIST operation (docs/using/runtime.md). A table that
// is not ready gives an empty page and a NOT_READY error beside it.
func (rt *Runtime) listResolver(o *operation) exec.Resolver {
	return func(ctx context.Context, f *exec.Field) (any, error) {
		if err := o.checkExtra(f.Extra); err != nil {
			return nil, err
		}
		pg, size := rt.paging(f.Args)
		tv := answer.RootView(f).TableView(o.t)
		if tv.NotReady != nil {
			f.Report(tv.NotReady)
			return pageValue([]any{}, 0, pg, size), nil
		}
		pq, err := o.powerQuery(f.Args)
		if err != nil {
			return nil, err
		}
		rows, err := pq.Page(ctx, tv, pg, size)
		if err != nil {
			return nil, err
		}
		lo, hi := engine.PageBounds(rows.Len(), pg, size)
		return pageValue(answer.Objects(tv, rows, lo, hi), rows.Len(), pg, size), nil
	}
}

func pageValue(items []any, total, page, size int) map[string]any {
	return map[string]any{"items": items, "total": total, "page": page, "pageSize": size}
}

// paging reads page (less than 1 means 1) and pageSize (less than 1 means
// the default 20; more than MaxPageSize is clamped: docs/reference/bounds.md).
func (rt *Runtime) paging(args map[string]any) (page, size int) {
	page, _ = args["page"].(int)
	size, _ = args["pageSize"].(int)
	if page < 1 {
		page = 1
	}
	if size < 1 {
		size = 20
	}
	return page, min(size, rt.opt.MaxPageSize)
}

// listQuery reads the sort and parameter arguments.
func (o *operation) listQuery(args map[string]any) (*engine.ListQuery, error) {
	q := &engine.ListQuery{}
	if name, ok := args["sortField"].(string); ok {
		q.Sort = o.t.SortAttr(name)
	}
	q.Desc = args["sortDirection"] == "DESC"
	var scratch [64]byte
	spec := scratch[:0]
	if q.Sort != nil {
		spec = append(spec, q.Sort.Name...)
		if q.Desc {
			spec = append(spec, " desc"...)
		}
	}
	spec = append(spec, '|')
	preds, spec, err := engine.BuildPredicates(o.params, args, spec)
	if err != nil {
		return nil, err
	}
	q.Preds, q.Spec = preds, string(spec)
	return q, nil
}

// checkExtra applies the unknown-argument rule (docs/using/runtime.md) to arguments the operation does
// not define: ignored without parameters, refused with them.
func (o *operation) checkExtra(extra map[string]any) error {
	if len(extra) == 0 || len(o.params) == 0 {
		return nil
	}
	names := make([]string, 0, len(extra))
	for k := range extra {
		names = append(names, k)
	}
	sort.Strings(names)
	known := make([]string, len(o.params))
	for i, p := range o.params {
		known[i] = p.Name
	}
	return model.Errorf(model.CodeBadUserInput, "Unknown argument %q on %s; known parameters: %s", names[0], o.name, strings.Join(known, ", "))
}

// powerQuery reads the arguments of a LIST operation or its connection.
func (o *operation) powerQuery(args map[string]any) (*engine.Query, error) {
	q, err := o.listQuery(args)
	if err != nil {
		return nil, err
	}
	pq := &engine.Query{List: q}
	if o.where || o.kind == model.OpAggregate {
		w, err := engine.ParseWhere(o.t, args["where"])
		if err != nil {
			return nil, err
		}
		var preds []engine.Pred
		preds, pq.Rest = w.Split()
		q.Preds = append(q.Preds, preds...)
	}
	if o.orderBy {
		pq.Keys = orderKeys(o.t, args["orderBy"])
		if len(pq.Keys) > engine.MaxOrderKeys {
			return nil, model.Errorf(model.CodeBadUserInput, "orderBy takes at most %d keys", engine.MaxOrderKeys)
		}
	}
	if len(pq.Keys) > 0 {
		q.Sort, q.Desc = pq.Keys[0].Attr, pq.Keys[0].Desc
	} else if q.Sort != nil {
		pq.Keys = []engine.SortKey{{Attr: q.Sort, Desc: q.Desc}}
	}
	q.Spec = engine.QuerySpec(q)
	return pq, nil
}

// orderKeys reads an orderBy list; fields are enum values, so known.
func orderKeys(t *engine.Table, raw any) []engine.SortKey {
	list, _ := raw.([]any)
	var keys []engine.SortKey
	for _, x := range list {
		m, _ := x.(map[string]any)
		name, _ := m["field"].(string)
		if a := t.SortAttr(name); a != nil {
			keys = append(keys, engine.SortKey{Attr: a, Desc: m["direction"] == "DESC"})
		}
	}
	return keys
}
