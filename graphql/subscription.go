package graphql

import (
	"context"
	"errors"
	"fmt"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/graphql/internal/answer"
	"github.com/mockgql/mockgql/model"
)

// This file is the runtime's side of subscriptions (docs/using/
// realtime.md). A LIST operation with the subscriptions option gives its
// table the Subscription fields <table>Created, <table>Updated(id) and
// <table>Deleted (with where: <T>Where when such an operation also has the
// where option). A mutation's changes become Events (EventsOf); a
// subscription runs once per event with RenderEvent, which answers the
// subscriber's selection on the event's row in the overlay version the
// event names: after the change for CREATED and UPDATED, before it for
// DELETED (the row as it was, relations included).

// EventsOf returns the events of a mutation's changes, in their order:
// before is the overlay's version before the changes were applied, after
// the one after.
func EventsOf(changes []engine.Change, before, after engine.Snapshot) []Event {
	out := make([]Event, 0, len(changes))
	for _, c := range changes {
		e := Event{TableID: c.TableID, RowID: c.RowID, Kind: EventUpdated, At: after}
		switch {
		case c.Deleted:
			e.Kind, e.At = EventDeleted, before
		case c.Created && !before.Has(c.TableID, c.RowID):
			e.Kind = EventCreated
		default: // a change of a row, also of one an earlier mutation created
			e.Prev = before
		}
		out = append(out, e)
	}
	return out
}

// subField is a field of the Subscription type.
type subField struct {
	name  string
	t     *engine.Table
	kind  EventKind
	where bool
}

// compileSubscriptions returns the Subscription fields of the tables that
// an enabled LIST operation with the subscriptions option asks them for,
// in table order, then Created, Updated, Deleted: a deterministic SDL.
func compileSubscriptions(c *compiled) []*subField {
	on, where := map[*engine.Table]bool{}, map[*engine.Table]bool{}
	for _, o := range c.ops {
		if o.kind == model.OpList && o.subs {
			on[o.t] = true
			where[o.t] = where[o.t] || o.where
		}
	}
	var out []*subField
	for _, t := range c.tables {
		if !on[t] {
			continue
		}
		for _, k := range []EventKind{EventCreated, EventUpdated, EventDeleted} {
			out = append(out, &subField{name: model.LowerCamel(t.Name) + k.Suffix(), t: t, kind: k, where: where[t]})
		}
	}
	return out
}

// subscription writes the Subscription type.
func (w *sdlWriter) subscription(subs []*subField) {
	if len(subs) == 0 {
		return
	}
	w.line(`type Subscription {`)
	for _, s := range subs {
		var args []string
		doc := fmt.Sprintf("A %s row was created by a mutation (or sent as an event); the payload is the new row.", s.t.Name)
		switch s.kind {
		case EventUpdated:
			args = append(args, "id: ID")
			doc = fmt.Sprintf("A %s row was changed by a mutation (or sent as an event); the payload is the row as changed. id follows one row only.", s.t.Name)
		case EventDeleted:
			doc = fmt.Sprintf("A %s row was deleted by a mutation (or sent as an event); the payload is the row as it was before, relations included.", s.t.Name)
		}
		if s.where {
			args = append(args, "where: "+s.t.Name+"Where")
			doc += " where keeps only rows that match it."
		}
		sig := ""
		if len(args) > 0 {
			sig = "(" + joinArgs(args) + ")"
		}
		w.line(`  %s %s%s: %s!`, gqlString(doc), s.name, sig, s.t.Name)
	}
	w.line(`}`)
}

func joinArgs(args []string) string {
	out := args[0]
	for _, a := range args[1:] {
		out += ", " + a
	}
	return out
}

// subResolver answers a Subscription field for the event of its root: the
// row, or nothing (skipped) when the event is of another row than id or
// does not match where. The table and kind were matched before it ran.
func subResolver(s *subField) exec.Resolver {
	return func(_ context.Context, f *exec.Field) (any, error) {
		er := f.Parent.(*answer.EventRoot)
		if id, ok := f.Args["id"].(string); ok && id != er.Ev.RowID {
			er.Skipped = true
			return nil, nil
		}
		tv, row, err := er.Row(s.t)
		if err != nil || row < 0 {
			return nil, err
		}
		w, err := engine.ParseWhere(s.t, f.Args["where"])
		if err != nil {
			return nil, err
		}
		if w != nil && !w.Match(tv, row) {
			er.Skipped = true
			return nil, nil
		}
		return &answer.RowObj{TV: tv, Row: row}, nil
	}
}

// SubscriptionTarget returns what a prepared subscription follows: the ID
// of its table and the kind of its events; ok is false for a prepared
// request that is no subscription of this runtime.
func (rt *Runtime) SubscriptionTarget(prep *exec.Prepared) (tableID string, kind EventKind, ok bool) {
	t, ok := rt.Target(prep)
	return t.TableID, t.Kind, ok
}

// Target returns what a prepared subscription follows; ok is false for a
// prepared request that is no subscription of this runtime.
func (rt *Runtime) Target(prep *exec.Prepared) (SubTarget, bool) {
	if prep.Executor() != rt.exec || !prep.Subscription() || len(prep.RootFields()) != 1 {
		return SubTarget{}, false
	}
	if rt.contract != nil {
		return rt.contract.Target(prep.RootFields()[0])
	}
	for _, s := range rt.model.subs {
		if s.name == prep.RootFields()[0] {
			return SubTarget{TableID: s.t.ID, Kind: s.kind}, true
		}
	}
	return SubTarget{}, false
}

var errNotSubscription = errors.New("graphql: RenderEvent given no subscription of this runtime")

// ErrSubscriptionOverHTTP refuses a subscription sent as a plain GraphQL
// over HTTP request: it needs a WebSocket or an event stream.
var ErrSubscriptionOverHTTP = model.Errorf(model.CodeBadRequest, "subscriptions run over a WebSocket (graphql-transport-ws) or Server-Sent Events (Accept: text/event-stream), not a plain POST")

// RenderEvent runs a prepared subscription for ev: the result, and
// whether ev is for it at all (its table and kind, its id argument, its
// where filter); a result is only meaningful when ok. The work is one
// row's selection, bounded as a query's (Options). Safe for concurrent use.
func (rt *Runtime) RenderEvent(ctx context.Context, prep *exec.Prepared, pool engine.Pool, ev Event) (res *exec.Result, ok bool, err error) {
	target, sub := rt.Target(prep)
	if !sub {
		return nil, false, errNotSubscription
	}
	if !target.Matches(ev.TableID, ev.Kind) {
		return nil, false, nil
	}

	root := &answer.EventRoot{V: rt.newView(pool, ev.At.Overlay(), ev.At.State(), true), Ev: ev}
	res, err = prep.Execute(ctx, root)
	if err != nil || root.Skipped {
		return nil, false, err
	}
	return res, true, nil
}

// tableByID returns the compiled table tableID, or nil.
func (rt *Runtime) tableByID(tableID string) *engine.Table {
	for _, t := range rt.model.tables {
		if t.ID == tableID {
			return t
		}
	}
	return nil
}

// RowExists reports whether table tableID has a row id in ov's current
// version (a sent event must name one). A table that is not ready is
// NOT_READY; an unknown one NOT_FOUND.
func (rt *Runtime) RowExists(pool engine.Pool, ov *engine.Overlay, tableID, id string) error {
	t := rt.tableByID(tableID)
	if t == nil {
		return model.Errorf(model.CodeNotFound, "table %q not found", tableID)
	}
	tv := rt.newView(pool, ov, ov.State(), true).TableView(t)
	if tv.NotReady != nil {
		return tv.NotReady
	}
	if tv.ByID(id) < 0 {
		return model.Errorf(model.CodeNotFound, "table %s has no row %q", t.Name, id)
	}
	return nil
}

// SampleRow returns the id of the (n mod rows)-th row of table tableID in
// storage order, in ov's current version: the rows a demo event stream
// goes through; ok is false when the table has no rows (or is not ready).
func (rt *Runtime) SampleRow(ctx context.Context, pool engine.Pool, ov *engine.Overlay, tableID string, n int) (id string, ok bool) {
	t := rt.tableByID(tableID)
	if t == nil {
		return "", false
	}
	tv := rt.newView(pool, ov, ov.State(), true).TableView(t)
	if tv.NotReady != nil {
		return "", false
	}
	pq, err := (&operation{kind: model.OpList, t: t}).powerQuery(nil)
	if err != nil {
		return "", false
	}
	rows, err := pq.Page(ctx, tv, 1, 1)
	if err != nil || rows.Len() == 0 {
		return "", false
	}
	pg := n%rows.Len() + 1
	if rows, err = pq.Page(ctx, tv, pg, 1); err != nil || rows.Len() == 0 {
		return "", false
	}
	lo, hi := engine.PageBounds(rows.Len(), pg, 1)
	if lo >= hi {
		return "", false
	}
	return tv.ID(rows.At(lo)), true
}
