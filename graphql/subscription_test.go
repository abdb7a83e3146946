package graphql

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// subHarness is the runtime test model with the subscriptions (and where)
// option on searchProducts.
func subHarness(t *testing.T) *rtHarness {
	t.Helper()
	p := rtProject(t)
	for _, o := range p.Operations {
		if o.Name == "searchProducts" {
			_, err := p.UpdateOperation(o.ID, model.OperationPatch{Options: &model.OperationOptions{Where: true, Subscriptions: true}})
			mustNoErr(t, err)
		}
	}
	return &rtHarness{tb: t, rt: rtCompile(t, p, Options{}), pool: rtPool(t), ov: engine.NewOverlay()}
}

// mutateEvents runs a mutation and returns its events.
func (h *rtHarness) mutateEvents(query string) []Event {
	h.tb.Helper()
	prep, refused := h.rt.Prepare(exec.Request{Query: query})
	if refused != nil {
		h.tb.Fatalf("%s: %s", query, refused.AppendJSON(nil))
	}
	before := h.ov.Snapshot()
	_, changes, err := h.rt.Mutate(context.Background(), prep, h.pool, h.ov)
	if err != nil {
		h.tb.Fatal(err)
	}
	h.ov.Apply(changes)
	return EventsOf(changes, before, h.ov.Snapshot())
}

// render runs a subscription for ev: its JSON, or "" when ev is not for it.
func (h *rtHarness) render(query string, vars map[string]any, ev Event) string {
	h.tb.Helper()
	prep, refused := h.rt.Prepare(exec.Request{Query: query, Variables: vars})
	if refused != nil {
		h.tb.Fatalf("%s: %s", query, refused.AppendJSON(nil))
	}
	res, ok, err := h.rt.RenderEvent(context.Background(), prep, h.pool, ev)
	if err != nil {
		h.tb.Fatal(err)
	}
	if !ok {
		return ""
	}
	return string(res.AppendJSON(nil))
}

// TestSubscriptionSchema: the option adds the three fields, with where
// when the operation has it, and only SAFE changes.
func TestSubscriptionSchema(t *testing.T) {
	base := rtCompile(t, rtProject(t), Options{})
	h := subHarness(t)
	sdl := h.rt.SDL()
	for _, want := range []string{
		"productCreated(where: ProductWhere): Product!",
		"productUpdated(id: ID, where: ProductWhere): Product!",
		"productDeleted(where: ProductWhere): Product!",
	} {
		if !strings.Contains(sdl, want) {
			t.Errorf("SDL lacks %q", want)
		}
	}
	if strings.Contains(base.SDL(), "Subscription") {
		t.Errorf("a model without the option has a Subscription type")
	}
	changes, err := DiffSchemas(base.SDL(), sdl)
	mustNoErr(t, err)
	for _, c := range changeKeys(changes) {
		if !strings.HasPrefix(c, "SAFE ") {
			t.Errorf("change %s is not SAFE", c)
		}
	}
	if again := subHarness(t).rt.SDL(); again != sdl {
		t.Errorf("the SDL is not deterministic")
	}
	// A subscription over a plain request is refused, not run.
	prep, refused := h.rt.Prepare(exec.Request{Query: `subscription { productCreated { id } }`})
	if refused != nil {
		t.Fatal(string(refused.AppendJSON(nil)))
	}
	if _, err := h.rt.Query(context.Background(), prep, h.pool, h.ov); model.ErrorCode(err) != model.CodeBadRequest {
		t.Errorf("Query of a subscription: %v, want Bad Request", err)
	}
}

// TestRenderEvent renders each kind of event with relations, id and where.
func TestRenderEvent(t *testing.T) {
	h := subHarness(t)
	created := h.mutateEvents(`mutation { createProduct(input: {name: "Nine", price: 99, supplierId: 7}) { id } }`)
	updated := h.mutateEvents(`mutation { updateProduct(id: "2", input: {name: "Gadget 2"}) { id } }`)
	deleted := h.mutateEvents(`mutation { deleteProduct(id: "1") { id } }`)
	if len(created) != 1 || created[0].Kind != EventCreated || updated[0].Kind != EventUpdated || deleted[0].Kind != EventDeleted {
		t.Fatalf("events %+v %+v %+v", created, updated, deleted)
	}
	for _, tc := range []struct {
		name, query string
		vars        map[string]any
		ev          Event
		want        string // "" : not for this subscription
	}{
		{"created with relation", `subscription { productCreated { id name supplier { name } } }`, nil, created[0],
			`{"data":{"productCreated":{"id":"` + created[0].RowID + `","name":"Nine","supplier":{"name":"Acme"}}}}`},
		{"created, other kind", `subscription { productUpdated { id } }`, nil, created[0], ""},
		{"updated", `subscription { productUpdated { id name } }`, nil, updated[0], `{"data":{"productUpdated":{"id":"2","name":"Gadget 2"}}}`},
		{"updated, its id", `subscription($id: ID) { productUpdated(id: $id) { name } }`, map[string]any{"id": "2"}, updated[0], `{"data":{"productUpdated":{"name":"Gadget 2"}}}`},
		{"updated, other id", `subscription { productUpdated(id: "3") { name } }`, nil, updated[0], ""},
		{"where holds", `subscription { productCreated(where: {price: {gt: 50}}) { id } }`, nil, created[0], `{"data":{"productCreated":{"id":"` + created[0].RowID + `"}}}`},
		{"where fails", `subscription { productCreated(where: {price: {lt: 50}}) { id } }`, nil, created[0], ""},
		{"deleted: the row as it was", `subscription { productDeleted { id name supplier { name } } }`, nil, deleted[0],
			`{"data":{"productDeleted":{"id":"1","name":"Widget","supplier":{"name":"Acme"}}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := h.render(tc.query, tc.vars, tc.ev); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	// The list query agrees with the created event.
	var list struct {
		Data struct {
			SearchProducts struct{ Items []map[string]any } `json:"searchProducts"`
		}
	}
	mustNoErr(t, json.Unmarshal(h.raw(`{ searchProducts(nameLike: "Nine") { items { id name } } }`, nil), &list))
	if len(list.Data.SearchProducts.Items) != 1 || list.Data.SearchProducts.Items[0]["name"] != "Nine" {
		t.Errorf("list after create: %+v", list)
	}
}
