package graphql

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// TestContractSubscriptionEvents: a contract project's Subscription fields
// render the events of its mutations in the document's types — the row,
// its key, a payload with the change's enum value, Prisma 1's
// previousValues and updatedFields — and skip the events they do not
// follow (another kind, another id, a filter that leaves the row out,
// Prisma 1's where on mutation_in and node).
func TestContractSubscriptionEvents(t *testing.T) {
	h := newContractHarness(t, "testdata/contract/subscriptions.graphql")
	evs := h.mutateEvents(`mutation { createBook(input: {title: "Zzyzx", price: 1.5}) { id } }`)
	if len(evs) != 1 || evs[0].Kind != EventCreated {
		t.Fatalf("events of a create: %+v", evs)
	}
	created := evs[0]
	id := created.RowID
	list := string(h.raw(`{ books { id title } }`, nil))
	if !strings.Contains(list, `{"id":"`+id+`","title":"Zzyzx"}`) {
		t.Fatalf("the created row %s is not listed: %s", id, list)
	}
	for _, c := range []struct{ query, want string }{
		{`subscription { bookCreated { id title } }`, `{"data":{"bookCreated":{"id":"` + id + `","title":"Zzyzx"}}}`},
		{`subscription { onBookAdded(title: "Zzyzx") { title } }`, `{"data":{"onBookAdded":{"title":"Zzyzx"}}}`},
		{`subscription { onBookAdded(title: "Other") { title } }`, ``},
		{`subscription { bookInserted { book { id } action } }`, `{"data":{"bookInserted":{"book":{"id":"` + id + `"},"action":"CREATED"}}}`},
		{`subscription { book { mutation node { title } previousValues { title } updatedFields } }`,
			`{"data":{"book":{"mutation":"CREATED","node":{"title":"Zzyzx"},"previousValues":null,"updatedFields":[]}}}`},
		{`subscription { bookUpdated(id: "x") { id } }`, ``},
		{`subscription { bookDeleted { id } }`, ``},
		{`subscription { book(where: {mutation_in: [CREATED, DELETED]}) { mutation } }`, `{"data":{"book":{"mutation":"CREATED"}}}`},
		{`subscription { book(where: {mutation_in: [UPDATED]}) { mutation } }`, ``},
		{`subscription { book(where: {node: {title: "Zzyzx"}}) { node { title } } }`, `{"data":{"book":{"node":{"title":"Zzyzx"}}}}`},
		{`subscription { book(where: {node: {title: "Other"}}) { mutation } }`, ``},
		{`subscription { book(where: {mutation_in: [CREATED], node: {title: "Other"}}) { mutation } }`, ``},
	} {
		if got := h.render(c.query, nil, created); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.query, got, c.want)
		}
	}

	evs = h.mutateEvents(`mutation { updateBook(id: "` + id + `", input: {title: "Renamed", price: 1.5}) { id } }`)
	if len(evs) != 1 || evs[0].Kind != EventUpdated {
		t.Fatalf("events of an update: %+v", evs)
	}
	for _, c := range []struct{ query, want string }{
		{`subscription { bookUpdated(id: "` + id + `") { title } }`, `{"data":{"bookUpdated":{"title":"Renamed"}}}`},
		{`subscription { bookChanged { title } }`, `{"data":{"bookChanged":{"title":"Renamed"}}}`},
		{`subscription { book { mutation node { title } previousValues { id title } updatedFields } }`,
			`{"data":{"book":{"mutation":"UPDATED","node":{"title":"Renamed"},"previousValues":{"id":"` + id + `","title":"Zzyzx"},"updatedFields":["title"]}}}`},
		{`subscription { bookCreated { id } }`, ``},
	} {
		if got := h.render(c.query, nil, evs[0]); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.query, got, c.want)
		}
	}

	evs = h.mutateEvents(`mutation { deleteBook(id: "` + id + `") { id } }`)
	if len(evs) != 1 || evs[0].Kind != EventDeleted {
		t.Fatalf("events of a delete: %+v", evs)
	}
	for _, c := range []struct{ query, want string }{
		{`subscription { bookDeleted { id title } }`, `{"data":{"bookDeleted":{"id":"` + id + `","title":"Renamed"}}}`},
		{`subscription { bookRemoved }`, `{"data":{"bookRemoved":"` + id + `"}}`},
		{`subscription { book { mutation previousValues { title } } }`, `{"data":{"book":{"mutation":"DELETED","previousValues":{"title":"Renamed"}}}}`},
		{`subscription { book(where: {mutation_in: DELETED, node: {title: "Renamed"}}) { mutation } }`, `{"data":{"book":{"mutation":"DELETED"}}}`},
		{`subscription { book(where: {mutation_in: [CREATED, UPDATED]}) { mutation } }`, ``},
	} {
		if got := h.render(c.query, nil, evs[0]); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.query, got, c.want)
		}
	}
}

// TestContractSubscriptionGenerated: a generated subscription follows the
// ticks at its rate; its nth payload is the same every time and conforms
// to the type, and it follows no row event.
func TestContractSubscriptionGenerated(t *testing.T) {
	h := newContractHarness(t, "testdata/contract/subscriptions.graphql")
	prep, refused := h.rt.Prepare(exec.Request{Query: `subscription { ticker }`})
	if refused != nil {
		t.Fatal(string(refused.AppendJSON(nil)))
	}
	target, ok := h.rt.Target(prep)
	if !ok || target.Kind != EventGenerated || target.Every != 2*time.Second {
		t.Fatalf("ticker's target: %+v %v", target, ok)
	}
	tick := func(n int64) Event { return Event{Kind: EventGenerated, N: n, At: h.ov.Snapshot()} }
	seen := map[string]bool{}
	for n := int64(1); n <= 5; n++ {
		a, b := h.render(`subscription { ticker }`, nil, tick(n)), h.render(`subscription { ticker }`, nil, tick(n))
		var out struct{ Data struct{ Ticker *int } }
		if a != b || json.Unmarshal([]byte(a), &out) != nil || out.Data.Ticker == nil {
			t.Fatalf("tick %d: %s then %s", n, a, b)
		}
		seen[a] = true
	}
	if len(seen) < 2 {
		t.Errorf("5 ticks gave %d payloads: %v", len(seen), seen)
	}
	if got := h.render(`subscription { randomBook { id title } }`, nil, tick(1)); !strings.Contains(got, `"id":"book-`) {
		t.Errorf("randomBook: %s, want a row of Book", got)
	}
	evs := h.mutateEvents(`mutation { createBook(input: {title: "Zzyzx"}) { id } }`)
	if got := h.render(`subscription { ticker }`, nil, evs[0]); got != "" {
		t.Errorf("ticker followed a row event: %s", got)
	}
	if got := h.render(`subscription { bookCreated { id } }`, nil, tick(1)); got != "" {
		t.Errorf("bookCreated followed a tick: %s", got)
	}
	if _, err := h.rt.Query(context.Background(), prep, h.pool, h.ov); err != ErrSubscriptionOverHTTP {
		t.Errorf("a subscription over HTTP: %v", err)
	}
}

// TestContractSubscriptionMapped: a mapping makes a generated field follow
// a table's events (all three kinds) and an event field generated.
func TestContractSubscriptionMapped(t *testing.T) {
	p := contractProject(t, "testdata/contract/subscriptions.graphql")
	p.Contract.Mappings = []model.ContractMapping{
		{Field: "Subscription.randomBook", Shape: "event", Entity: "Book"},
		{Field: "Subscription.bookCreated", Shape: "generated", EverySeconds: 7},
	}
	h := &rtHarness{tb: t, rt: rtCompile(t, p, Options{}), pool: memPool{}, ov: engine.NewOverlay()}
	created := h.mutateEvents(`mutation { createBook(input: {title: "Zzyzx"}) { id } }`)[0]
	deleted := h.mutateEvents(`mutation { deleteBook(id: "` + created.RowID + `") { id } }`)[0]
	for _, ev := range []Event{created, deleted} {
		if got, want := h.render(`subscription { randomBook { title } }`, nil, ev), `{"data":{"randomBook":{"title":"Zzyzx"}}}`; got != want {
			t.Errorf("randomBook mapped to events, %s: %s, want %s", ev.Kind, got, want)
		}
	}
	prep, _ := h.rt.Prepare(exec.Request{Query: `subscription { bookCreated { id } }`})
	if target, _ := h.rt.Target(prep); target.Kind != EventGenerated || target.Every != 7*time.Second {
		t.Errorf("bookCreated mapped to generated: %+v", target)
	}
}

// TestContractSubscriptionOfAField: a subscription named after an entity
// and one of its fields (orderStatusChanged(orderId:)) follows that
// entity's updates, filtered by its argument: it fires when that order
// changes, not for another order, and streams no generated orders.
func TestContractSubscriptionOfAField(t *testing.T) {
	h := newContractHarness(t, "testdata/conventions/order-status.graphql")
	evs := h.mutateEvents(`mutation { updateOrder(id: "order-2", status: SHIPPED) { id status } }`)
	if len(evs) != 1 || evs[0].Kind != EventUpdated {
		t.Fatalf("events of an update: %+v", evs)
	}
	for _, c := range []struct{ query, want string }{
		{`subscription { orderStatusChanged(orderId: "order-2") { id status } }`, `{"data":{"orderStatusChanged":{"id":"order-2","status":"SHIPPED"}}}`},
		{`subscription { orderStatusChanged(orderId: "order-3") { id status } }`, ``},
	} {
		if got := h.render(c.query, nil, evs[0]); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.query, got, c.want)
		}
	}
	if target, ok := h.rt.contract.Target("orderStatusChanged"); !ok || target.Kind != EventUpdated {
		t.Errorf("orderStatusChanged follows %+v, want the updates of Order", target)
	}
}
