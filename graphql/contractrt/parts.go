package contractrt

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/graphql/internal/answer"
	"github.com/mockgql/mockgql/model"
)

// A row's parts are the rows of one of its list fields that mutations on
// the row add, change and remove (contract.RolePart): Shopify's
// cartLinesAdd(cartId:, lines:) adds CartLine rows to Cart.lines,
// cartLinesUpdate(lines: [{id, quantity}]) changes them and
// cartLinesRemove(lineIds:) removes them. A part has no column that names
// its parent (CartLine has no field back to its cart), so its id does:
// "<parent id>/<field>/<n>" (partPrefix). Once a row has parts, or when
// a mutation created it, its list field answers its parts alone, in the
// order they were added; before that, what the schema's list answers
// for any row (linked or generated rows).

// partPrefix is the start of the ids of the parts of field of the row id.
func partPrefix(id, field string) string { return id + "/" + field + "/" }

// partTable returns the table the parts of the list field field of the
// type parent are rows of: the field's entity, or for an interface or
// union the table named by the part input's type (CartLineInput: CartLine),
// else its first table; nil when the field lists no rows.
func (rt *Runtime) partTable(parent, field, input string) *engine.Table {
	d := rt.schema.Types[parent]
	if d == nil || d.Fields.ForName(field) == nil {
		return nil
	}
	typ := d.Fields.ForName(field).Type.Name()
	for _, w := range rt.plan.Wrappers {
		if w.Type == typ && w.Entity != "" {
			typ = w.Entity
		}
	}
	tables := rt.tablesOf(typ)
	if len(tables) == 0 {
		return nil
	}
	for _, t := range tables {
		if strings.TrimSuffix(input, "Input") == t.Name {
			return t
		}
	}
	return tables[0]
}

// partTables returns the tables of the list fields that mutations add
// parts to, by "Type.field".
func (rt *Runtime) partTables() map[string]*engine.Table {
	out := map[string]*engine.Table{}
	mu := rt.schema.Mutation
	for _, rf := range rt.plan.Mutations {
		for _, a := range rf.Args {
			if a.Role != contract.RolePart || a.Op != "add" || mu == nil || mu.Fields.ForName(rf.Name) == nil {
				continue
			}
			input := ""
			if ad := mu.Fields.ForName(rf.Name).Arguments.ForName(a.Name); ad != nil {
				input = ad.Type.Name()
			}
			if t := rt.partTable(rf.Entity, a.Field, input); t != nil {
				out[rf.Entity+"."+a.Field] = t
			}
		}
	}
	return out
}

// writeParts applies the part arguments of rf to each row of parents.
func (rt *Runtime) writeParts(m *answer.Mutation, rf *contract.RootField, fd *ast.FieldDefinition, parents []*answer.RowObj, args map[string]any) error {
	for _, a := range rf.Args {
		v, ok := argValue(args, a.Name)
		items, list := v.([]any)
		if a.Role != contract.RolePart || !ok || !list {
			continue
		}
		input := ""
		if ad := fd.Arguments.ForName(a.Name); ad != nil {
			input = ad.Type.Name()
		}
		t := rt.partTable(rf.Entity, a.Field, input)
		if t == nil {
			continue
		}
		if len(items)*len(parents) > maxMutationRows {
			return model.Errorf(model.CodeLimitReached, "one mutation field changes at most %d rows", maxMutationRows)
		}
		for _, p := range parents {
			prefix := partPrefix(p.TV.ID(p.Row), a.Field)
			if err := rt.writePart(m, t, a, strings.ToLower(rf.Entity), prefix, items); err != nil {
				return err
			}
		}
	}
	return nil
}

// writePart adds, changes or removes the parts items of the row whose
// parts' ids start with prefix.
func (rt *Runtime) writePart(m *answer.Mutation, t *engine.Table, a *contract.Arg, parent, prefix string, items []any) error {
	op := a.Op
	if op == "update" && !allHaveIDs(items) {
		// Items that name no part (Shopify's cartAttributesUpdate(attributes:
		// [{key, value}])) are the row's parts from now on.
		tv := m.View().TableView(t)
		var old []*answer.RowObj
		for r := tv.N; r < tv.End(); r++ {
			if rec := tv.Record(r); (rec == nil || !rec.Deleted) && strings.HasPrefix(tv.ID(r), prefix) {
				old = append(old, &answer.RowObj{TV: tv, Row: r})
			}
		}
		removeRows(m, old)
		op = "add"
	}
	for i, item := range items {
		switch op {
		case "add":
			in, _ := item.(map[string]any)
			if in == nil {
				continue
			}
			seq := int64(1)
			if ts := m.St.Table(t.ID); ts != nil {
				seq = ts.MaxSeq() + 1
			}
			in = cloneWith(in, keyName(t), fmt.Sprintf("%s%d", prefix, seq))
			if _, err := rt.createRow(m, t, in); err != nil {
				return err
			}
		case "update", "remove":
			id, in, path := "", map[string]any(nil), []string{a.Name, fmt.Sprint(i)}
			switch x := item.(type) {
			case string:
				id = x
			case map[string]any:
				id, _ = x["id"].(string)
				in = cloneWith(x, "id", nil)
				delete(in, "id")
				path = append(path, "id")
			}
			tv := m.View().TableView(t)
			r, ok := tv.CreatedRow(id)
			if !ok || !strings.HasPrefix(id, prefix) {
				return &keyRefusal{err: model.Errorf(model.CodeNotFound, "%s %q is not one of this %s's %s", t.Name, id, parent, a.Field), path: path}
			}
			ro := []*answer.RowObj{{TV: tv, Row: r}}
			if op == "remove" {
				removeRows(m, ro)
				continue
			}
			if _, err := rt.updateRows(m, t, ro, in, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// partRows returns the function that finds a row's parts of field: the
// created rows of part whose ids name the row.
func (rt *Runtime) partRows(part *engine.Table, field string) func(*answer.RowObj) (*engine.TableView, []int32) {
	return func(ro *answer.RowObj) (*engine.TableView, []int32) {
		tv := ro.TV.View.TableView(part)
		prefix := partPrefix(ro.TV.ID(ro.Row), field)
		var rows []int32
		for r := tv.N; r < tv.End(); r++ {
			if rec := tv.Record(r); (rec == nil || !rec.Deleted) && strings.HasPrefix(tv.ID(r), prefix) {
				rows = append(rows, r)
			}
		}
		return tv, rows
	}
}

// partTotal returns the resolver of fd when it totals a number of t's
// parts (Shopify's Cart.totalQuantity over its lines' quantity): the sum
// over the row's parts once it has some or when a mutation created it,
// else what base answers.
func (rt *Runtime) partTotal(t *engine.Table, fd *ast.FieldDefinition, base exec.Resolver) (exec.Resolver, bool) {
	name, ok := strings.CutPrefix(fd.Name, "total")
	if !ok || name == "" || fd.Type.Elem != nil || (fd.Type.Name() != "Int" && fd.Type.Name() != "Float") {
		return nil, false
	}
	for _, key := range slices.Sorted(maps.Keys(rt.parts)) {
		part := rt.parts[key]
		field, ok := strings.CutPrefix(key, t.Name+".")
		a := foldedAttr(part, name)
		if !ok || a == nil || (a.Type != model.TypeInt && a.Type != model.TypeFloat) {
			continue
		}
		parts := rt.partRows(part, field)
		return func(ctx context.Context, f *exec.Field) (any, error) {
			ro := f.Parent.(*answer.RowObj)
			tv, rows := parts(ro)
			if ro.Row < ro.TV.N && len(rows) == 0 {
				return base(ctx, f)
			}
			sum := 0.0
			for _, r := range rows {
				if n, ok := engine.NumberOf(tv.Value(a, r)); ok {
					sum += n
				}
			}
			if fd.Type.Name() == "Int" {
				return int(sum), nil
			}
			return sum, nil
		}, true
	}
	return nil, false
}

// isPartTotal reports whether the field fd of t totals a number of its parts.
func (rt *Runtime) isPartTotal(t *engine.Table, fd *ast.FieldDefinition) bool {
	_, ok := rt.partTotal(t, fd, nil)
	return ok
}

// allHaveIDs reports whether every item names a part: an id, or an
// object with one.
func allHaveIDs(items []any) bool {
	for _, item := range items {
		if m, ok := item.(map[string]any); ok {
			if id, _ := m["id"].(string); id == "" {
				return false
			}
		}
	}
	return true
}

// cloneWith returns a copy of in with key set to v.
func cloneWith(in map[string]any, key string, v any) map[string]any {
	out := make(map[string]any, len(in)+1)
	for k, x := range in {
		out[k] = x
	}
	out[key] = v
	return out
}

// partsField answers the list field fd of t whose rows mutations add as
// parts: a row's parts once it has some or when a mutation created it,
// else what base answers.
func (rt *Runtime) partsField(part *engine.Table, fd *ast.FieldDefinition, base exec.Resolver) exec.Resolver {
	parts := rt.partRows(part, fd.Name)
	list := rt.listField(part, fd, rt.partRows(part, fd.Name))
	return func(ctx context.Context, f *exec.Field) (any, error) {
		ro := f.Parent.(*answer.RowObj)
		if ro.Row < ro.TV.N {
			if _, rows := parts(ro); len(rows) == 0 {
				return base(ctx, f)
			}
		}
		return list(ctx, f)
	}
}
