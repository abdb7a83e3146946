package contractrt

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/graphql/internal/answer"
)

// The subscriptions of a contract project (docs/using/contract.md,
// "Subscriptions"): a Subscription field the interpretation maps to a
// table's changes (contract.ShapeEvent: bookCreated: Book!, bookRemoved:
// ID!, { book, mutation } and Prisma 1's { mutation, node,
// previousValues }) renders the events of the mutations as the document
// types them; any other streams generated payloads, the nth seeded by the
// field, its arguments and n, one every contract.RootField.Every seconds.

// Target returns the target of the contract subscription field
// name, or ok false.
func (rt *Runtime) Target(name string) (answer.SubTarget, bool) {
	for _, rf := range rt.plan.Subscriptions {
		if rf.Name != name {
			continue
		}
		if rf.Shape == contract.ShapeEvent {
			if t := rt.tables[rf.Entity]; t != nil {
				return answer.SubTarget{TableID: t.ID, Kind: answer.EventKind(rf.Event)}, true
			}
		}
		every := rf.Every
		if every <= 0 {
			every = contract.DefaultEvery
		}
		return answer.SubTarget{Kind: answer.EventGenerated, Every: time.Duration(every) * time.Second}, true
	}
	return answer.SubTarget{}, false
}

// subscriptionResolver answers the Subscription field rf (definition fd)
// of a contract project for the event of its root.
func (rt *Runtime) subscriptionResolver(rf *contract.RootField, fd *ast.FieldDefinition) exec.Resolver {
	owner := rt.schema.Subscription.Name
	return func(ctx context.Context, f *exec.Field) (any, error) {
		er := f.Parent.(*answer.EventRoot)
		if er.Ev.Kind == answer.EventGenerated {
			seed := argsSeed(mix(rt.seed, "tick", strconv.FormatInt(er.Ev.N, 10)), rf.Name, f.Args)
			return rt.genValue(er.V, owner, fd.Name, fd.Type, seed, 0), nil
		}
		t := rt.tableByID(er.Ev.TableID)
		if t == nil {
			er.Skipped = true
			return nil, nil
		}
		tv, row, err := er.Row(t)
		if err != nil || row < 0 {
			return nil, err
		}
		args, kinds, node := subscriptionWhere(f.Args)
		if kinds != nil && !slices.Contains(kinds, any(string(er.Ev.Kind))) {
			er.Skipped = true
			return nil, nil
		}
		q, err := rt.readQuery(t, rf, args)
		if err != nil {
			return nil, err
		}
		if node != nil {
			budget := engine.MaxWhereNodes
			if err := q.filter(t, "", node, &budget); err != nil {
				return nil, err
			}
		}
		kept, err := q.narrow(ctx, tv, []int32{row})
		if err != nil {
			return nil, err
		}
		if len(kept) == 0 { // another row than id, or one the filters leave out
			er.Skipped = true
			return nil, nil
		}
		return rt.eventPayload(er, rf, fd, tv, row), nil
	}
}

// subscriptionWhere splits Prisma 1's <T>SubscriptionWhereInput off
// args: the event kinds mutation_in names (nil: every kind) and node, the
// filter of the event's row, which the caller applies as a where; args
// without where. Any other where is left in args for readQuery.
// (updatedFields_contains* and AND/OR/NOT of subscription filters are not
// applied: docs/using/contract.md.)
func subscriptionWhere(args map[string]any) (rest map[string]any, kinds []any, node map[string]any) {
	w, ok := args["where"].(map[string]any)
	if !ok {
		return args, nil, nil
	}
	in, hasKinds := w["mutation_in"]
	n, hasNode := w["node"]
	if !hasKinds && !hasNode {
		return args, nil, nil
	}
	if hasKinds && in != nil {
		kinds, _ = in.([]any)
		if kinds == nil {
			kinds = []any{in} // one value for a list: GraphQL's input coercion
		}
	}
	node, _ = n.(map[string]any)
	rest = make(map[string]any, len(args))
	for k, v := range args {
		if k != "where" {
			rest[k] = v
		}
	}
	return rest, kinds, node
}

// eventPayload is the value of the subscription field fd for the event of
// er on row of tv, as the document types it: the row, its key, or a
// payload object around it.
func (rt *Runtime) eventPayload(er *answer.EventRoot, rf *contract.RootField, fd *ast.FieldDefinition, tv *engine.TableView, row int32) any {
	d := rt.schema.Types[fd.Type.Name()]
	switch {
	case d == nil:
		return nil
	case len(rt.tablesOf(d.Name)) > 0:
		return &answer.RowObj{TV: tv, Row: row}
	case d.Kind == ast.Scalar:
		return keyAs(d.Name, tv.ID(row))
	case d.Kind != ast.Object:
		return nil
	}
	seed := mix(rt.seed, rf.Name, tv.ID(row), string(er.Ev.Kind))
	m := map[string]any{"__typename": d.Name}
	for _, pf := range d.Fields {
		pd := rt.schema.Types[pf.Type.Name()]
		list := pf.Type.Elem != nil
		switch {
		case pd == nil:
			m[pf.Name] = nil
		case len(rt.tablesOf(pd.Name)) > 0 && !list:
			m[pf.Name] = &answer.RowObj{TV: tv, Row: row}
		case contract.EventKindField(pf.Name) && !list && (pd.Kind == ast.Enum || pd.Name == "String"):
			m[pf.Name] = kindValue(pd, er.Ev.Kind)
		case rt.wrapperKind(pd.Name) == "previous" && !list:
			m[pf.Name] = rt.previousValues(er, pd, pf, tv.Table, tv.ID(row))
		case fold(pf.Name) == "updatedfields" && list:
			m[pf.Name] = rt.updatedFields(er, tv, row)
		default:
			m[pf.Name] = rt.genLazy(er.V, d.Name, pf, seed, 1)
		}
	}
	return m
}

// keyAs is a row's key as the scalar typ: a number for Int and Float, else
// the text.
func keyAs(typ, id string) any {
	if typ == "Int" || typ == "Float" {
		if n, err := strconv.ParseFloat(id, 64); err == nil {
			if typ == "Int" {
				return int(n)
			}
			return n
		}
	}
	return id
}

// kindWords are the starts of the words enums use for kind.
func kindWords(kind answer.EventKind) []string {
	switch kind {
	case answer.EventCreated:
		return []string{"creat", "insert", "add", "new"}
	case answer.EventUpdated:
		return []string{"updat", "chang", "modif", "edit"}
	case answer.EventDeleted:
		return []string{"delet", "remov", "destr"}
	}
	return nil
}

// kindValue is the value of the enum (or String) d that names kind:
// CREATED, INSERT, added …; the kind itself for a String or an enum
// without such a value.
func kindValue(d *ast.Definition, kind answer.EventKind) any {
	if d.Kind != ast.Enum {
		return string(kind)
	}
	for _, v := range d.EnumValues {
		for _, w := range kindWords(kind) {
			if strings.HasPrefix(fold(v.Name), w) {
				return v.Name
			}
		}
	}
	if len(d.EnumValues) > 0 {
		return d.EnumValues[0].Name
	}
	return nil
}

// previousValues is Prisma 1's previousValues (the object type d, of the
// field pf): the row as it was before an update or delete, each field from
// the attribute of its name; null (or the row, where non-null) for a
// creation.
func (rt *Runtime) previousValues(er *answer.EventRoot, d *ast.Definition, pf *ast.FieldDefinition, t *engine.Table, id string) any {
	at := er.Ev.At
	switch {
	case er.Ev.Kind == answer.EventCreated && !pf.Type.NonNull:
		return nil
	case er.Ev.Kind == answer.EventUpdated && er.Ev.Prev.Overlay() != nil:
		at = er.Ev.Prev
	}
	tv := rt.newView(er.V.Pool, at.Overlay(), at.State(), true).TableView(t)
	row := int32(-1)
	if tv.NotReady == nil {
		row = tv.ByID(id)
	}
	if row < 0 && !pf.Type.NonNull {
		return nil
	}
	seed := mix(rt.seed, d.Name, id)
	m := map[string]any{"__typename": d.Name}
	for _, fd := range d.Fields {
		a := foldedAttr(t, fd.Name)
		if row < 0 || a == nil {
			m[fd.Name] = rt.genLazy(er.V, d.Name, fd, seed, 1)
			continue
		}
		x := attrOut(a, tv.Value(a, row))
		if x == nil && fd.Type.NonNull {
			x = rt.genValue(er.V, d.Name, fd.Name, fd.Type, mix(seed, fd.Name), 1)
		}
		m[fd.Name] = x
	}
	return m
}

// attrOut is an attribute's value as the runtime answers it, JSON
// (lists, embedded objects, JSON scalars) decoded.
func attrOut(a *engine.Attr, v dataset.Value) any {
	x := answer.Output(a.Type, v)
	if raw, ok := x.(json.RawMessage); ok {
		var y any
		if json.Unmarshal(raw, &y) != nil {
			y = nil
		}
		x = y
	}
	return x
}

// updatedFields names, for an update, the fields of the row's type whose
// values the update changed, in the table's order; none for other events.
func (rt *Runtime) updatedFields(er *answer.EventRoot, tv *engine.TableView, row int32) []any {
	out := []any{}
	if er.Ev.Kind != answer.EventUpdated || er.Ev.Prev.Overlay() == nil {
		return out
	}
	before := rt.newView(er.V.Pool, er.Ev.Prev.Overlay(), er.Ev.Prev.State(), true).TableView(tv.Table)
	if before.NotReady != nil {
		return out
	}
	prow := before.ByID(tv.ID(row))
	if prow < 0 {
		return out
	}
	d := rt.schema.Types[tv.Table.Name]
	for _, a := range tv.Table.Attrs {
		if d == nil || d.Fields.ForName(a.Name) == nil {
			continue // a hidden key: the schema shows no such field
		}
		x, _ := json.Marshal(attrOut(a, tv.Value(a, row)))
		y, _ := json.Marshal(attrOut(a, before.Value(a, prow)))
		if string(x) != string(y) {
			out = append(out, a.Name)
		}
	}
	return out
}
