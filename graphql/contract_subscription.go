package graphql

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
)

// The subscriptions of a contract project (docs/using/contract.md,
// "Subscriptions"): a Subscription field the interpretation maps to a
// table's changes (contract.ShapeEvent: bookCreated: Book!, bookRemoved:
// ID!, { book, mutation } and Prisma 1's { mutation, node,
// previousValues }) renders the events of the mutations as the document
// types them; any other streams generated payloads, the nth seeded by the
// field, its arguments and n, one every contract.RootField.Every seconds.

// EventGenerated is the kind of the ticks of a generated subscription:
// its payload number n is Event.N.
const EventGenerated EventKind = "GENERATED"

// SubTarget is what a prepared subscription follows: the events of one
// table (TableID), of one kind (Kind; "" every kind), or, for a generated
// stream (Kind EventGenerated), a tick every Every.
type SubTarget struct {
	TableID string
	Kind    EventKind
	Every   time.Duration
}

// contractTarget returns the target of the contract subscription field
// name, or ok false.
func (rt *Runtime) contractTarget(name string) (SubTarget, bool) {
	for _, rf := range rt.contract.plan.Subscriptions {
		if rf.Name != name {
			continue
		}
		if rf.Shape == contract.ShapeEvent {
			if t := rt.contract.tables[rf.Entity]; t != nil {
				return SubTarget{TableID: t.ID, Kind: EventKind(rf.Event)}, true
			}
		}
		every := rf.Every
		if every <= 0 {
			every = contract.DefaultEvery
		}
		return SubTarget{Kind: EventGenerated, Every: time.Duration(every) * time.Second}, true
	}
	return SubTarget{}, false
}

// subscriptionResolver answers the Subscription field rf (definition fd)
// of a contract project for the event of its root.
func (rt *Runtime) subscriptionResolver(rf *contract.RootField, fd *ast.FieldDefinition) exec.Resolver {
	owner := rt.schema.Subscription.Name
	return func(ctx context.Context, f *exec.Field) (any, error) {
		er := f.Parent.(*eventRoot)
		if er.ev.Kind == EventGenerated {
			seed := argsSeed(mix(rt.contract.seed, "tick", strconv.FormatInt(er.ev.N, 10)), rf.Name, f.Args)
			return rt.genValue(er.v, owner, fd.Name, fd.Type, seed, 0), nil
		}
		t := rt.tableByID(er.ev.TableID)
		if t == nil {
			er.skipped = true
			return nil, nil
		}
		tv, row, err := er.row(t)
		if err != nil || row < 0 {
			return nil, err
		}
		args, kinds, node := subscriptionWhere(f.Args)
		if kinds != nil && !slices.Contains(kinds, any(string(er.ev.Kind))) {
			er.skipped = true
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
			er.skipped = true
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
func (rt *Runtime) eventPayload(er *eventRoot, rf *contract.RootField, fd *ast.FieldDefinition, tv *engine.TableView, row int32) any {
	d := rt.schema.Types[fd.Type.Name()]
	switch {
	case d == nil:
		return nil
	case len(rt.contract.tablesOf(d.Name)) > 0:
		return &rowObj{tv: tv, row: row}
	case d.Kind == ast.Scalar:
		return keyAs(d.Name, tv.ID(row))
	case d.Kind != ast.Object:
		return nil
	}
	seed := mix(rt.contract.seed, rf.Name, tv.ID(row), string(er.ev.Kind))
	m := map[string]any{"__typename": d.Name}
	for _, pf := range d.Fields {
		pd := rt.schema.Types[pf.Type.Name()]
		list := pf.Type.Elem != nil
		switch {
		case pd == nil:
			m[pf.Name] = nil
		case len(rt.contract.tablesOf(pd.Name)) > 0 && !list:
			m[pf.Name] = &rowObj{tv: tv, row: row}
		case contract.EventKindField(pf.Name) && !list && (pd.Kind == ast.Enum || pd.Name == "String"):
			m[pf.Name] = kindValue(pd, er.ev.Kind)
		case rt.wrapperKind(pd.Name) == "previous" && !list:
			m[pf.Name] = rt.previousValues(er, pd, pf, tv.Table, tv.ID(row))
		case fold(pf.Name) == "updatedfields" && list:
			m[pf.Name] = rt.updatedFields(er, tv, row)
		default:
			m[pf.Name] = rt.genLazy(er.v, d.Name, pf, seed, 1)
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
func kindWords(kind EventKind) []string {
	switch kind {
	case EventCreated:
		return []string{"creat", "insert", "add", "new"}
	case EventUpdated:
		return []string{"updat", "chang", "modif", "edit"}
	case EventDeleted:
		return []string{"delet", "remov", "destr"}
	}
	return nil
}

// kindValue is the value of the enum (or String) d that names kind:
// CREATED, INSERT, added …; the kind itself for a String or an enum
// without such a value.
func kindValue(d *ast.Definition, kind EventKind) any {
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
func (rt *Runtime) previousValues(er *eventRoot, d *ast.Definition, pf *ast.FieldDefinition, t *engine.Table, id string) any {
	at := er.ev.At
	switch {
	case er.ev.Kind == EventCreated && !pf.Type.NonNull:
		return nil
	case er.ev.Kind == EventUpdated && er.ev.Prev.Overlay() != nil:
		at = er.ev.Prev
	}
	tv := rt.newView(er.v.Pool, at.Overlay(), at.State(), true).TableView(t)
	row := int32(-1)
	if tv.NotReady == nil {
		row = tv.ByID(id)
	}
	if row < 0 && !pf.Type.NonNull {
		return nil
	}
	seed := mix(rt.contract.seed, d.Name, id)
	m := map[string]any{"__typename": d.Name}
	for _, fd := range d.Fields {
		a := foldedAttr(t, fd.Name)
		if row < 0 || a == nil {
			m[fd.Name] = rt.genLazy(er.v, d.Name, fd, seed, 1)
			continue
		}
		x := attrOut(a, tv.Value(a, row))
		if x == nil && fd.Type.NonNull {
			x = rt.genValue(er.v, d.Name, fd.Name, fd.Type, mix(seed, fd.Name), 1)
		}
		m[fd.Name] = x
	}
	return m
}

// attrOut is an attribute's value as the runtime answers it, JSON
// (lists, embedded objects, JSON scalars) decoded.
func attrOut(a *engine.Attr, v dataset.Value) any {
	x := output(a.Type, v)
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
func (rt *Runtime) updatedFields(er *eventRoot, tv *engine.TableView, row int32) []any {
	out := []any{}
	if er.ev.Kind != EventUpdated || er.ev.Prev.Overlay() == nil {
		return out
	}
	before := rt.newView(er.v.Pool, er.ev.Prev.Overlay(), er.ev.Prev.State(), true).TableView(tv.Table)
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
