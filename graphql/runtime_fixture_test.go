package graphql

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// This file holds the fixed test model and its small datasets, shared by
// the runtime's golden and table-driven tests.

// memPool is a test-only Pool over a map.
type memPool map[string]*dataset.Dataset

func (p memPool) Dataset(code string) *dataset.Dataset { return p[code] }

const productsJSON = `[
 {"id": 1, "name": "Widget", "price": 10, "category": "tools", "sku": "10", "inStock": true, "tags": ["a", "b"], "dims": {"w": 1, "h": 2}, "kind": "A", "supplierId": 7},
 {"id": 2, "name": "Gadget", "price": 25.5, "category": "toys", "sku": "9", "inStock": false, "kind": "B", "supplierId": 8},
 {"id": 3, "name": "gizmo", "price": "10", "category": "tools", "sku": "100", "inStock": true, "kind": "A"},
 {"id": 4, "name": "Doohickey", "price": 5, "category": null, "sku": "20", "kind": "B", "supplierId": "7"},
 {"id": 5, "name": "Thing", "price": 10, "category": "Tools", "sku": "3", "kind": "A", "supplierId": 9}
]`

const customersJSON = `[
 {"_id": "c1", "name": "Ann", "city": "Oslo"},
 {"_id": "c2", "name": "Bob", "city": "Rome"},
 {"_id": "c3", "name": "Cid", "city": "Oslo"}
]`

// Orders have no id field: their ids are positions.
const ordersNDJSON = `{"customerId": "c1", "productId": 1, "qty": 2, "placedAt": "2024-01-02T10:00:00Z"}
{"customerId": "c2", "productId": 2, "qty": 1, "placedAt": "2024-02-03T11:00:00Z"}
{"customerId": "c1", "productId": "3", "qty": 5, "placedAt": "2024-03-04T12:00:00Z"}
{"customerId": "c9", "productId": 4, "qty": 1, "placedAt": "2024-04-05T13:00:00Z"}
`

const suppliersJSON = `[
 {"id": "7", "name": "Acme"},
 {"id": "8", "name": "Globex"},
 {"id": "9", "name": "Initech"}
]`

func rtDataset(tb testing.TB, code string, format dataset.Format, variantField, data string) *dataset.Dataset {
	tb.Helper()
	d, err := dataset.Read(strings.NewReader(data), dataset.Options{ImportCode: code, Format: format, VariantField: variantField})
	if err != nil {
		tb.Fatalf("dataset %s: %v", code, err)
	}
	return d
}

func rtPool(tb testing.TB) memPool {
	tb.Helper()
	return memPool{
		"products":  rtDataset(tb, "products", dataset.JSON, "kind", productsJSON),
		"customers": rtDataset(tb, "customers", dataset.JSON, "", customersJSON),
		"orders":    rtDataset(tb, "orders", dataset.NDJSON, "", ordersNDJSON),
		"suppliers": rtDataset(tb, "suppliers", dataset.JSON, "", suppliersJSON),
	}
}

// rtModel builds a project through the model's own edit methods, so
// the test model is one the service could hold.
type rtModel struct {
	tb testing.TB
	p  *model.Project
	n  int
}

func (b *rtModel) id(prefix string) string {
	b.n++
	return fmt.Sprintf("%s%03d", prefix, b.n)
}

func (b *rtModel) must(err error) {
	b.tb.Helper()
	if err != nil {
		b.tb.Fatal(err)
	}
}

func (b *rtModel) table(name, code string, variant *string) *model.Table {
	b.tb.Helper()
	t := &model.Table{ID: "t_" + name, Name: name}
	if code != "" {
		t.Source = &model.TableSource{ImportCode: code, Variant: variant}
	}
	b.must(b.p.AddTable(t))
	return t
}

func (b *rtModel) attr(t *model.Table, a model.Attribute) {
	b.tb.Helper()
	a.ID, a.TableID = "a_"+t.Name+"_"+a.Name, t.ID
	b.must(b.p.AddAttribute(&a))
}

func (b *rtModel) src(t *model.Table, name string, typ model.ScalarType, path string) {
	b.tb.Helper()
	b.attr(t, model.Attribute{Name: name, Type: typ, Mapping: model.MappingSource, SourcePath: path})
}

func (b *rtModel) defaults(t *model.Table) {
	b.tb.Helper()
	_, err := b.p.GenerateDefaultOperations(t.ID, func() string { return b.id("o") })
	b.must(err)
}

func (b *rtModel) op(t *model.Table, name string, kind model.OperationKind, params ...model.Parameter) *model.Operation {
	b.tb.Helper()
	o := &model.Operation{ID: b.id("o"), TableID: t.ID, Name: name, Kind: kind, Enabled: true, Parameters: params}
	b.must(b.p.AddOperation(o))
	return o
}

func (b *rtModel) relation(r model.Relation) {
	b.tb.Helper()
	r.ID = b.id("r")
	b.must(b.p.AddRelation(&r))
}

func rtParam(name, attr string, op model.Operator) model.Parameter {
	return model.Parameter{Name: name, Attribute: attr, Operator: op}
}

// rtProject is the fixed test model: Product (all mapping kinds and all
// operators), Customer (_id ids), Order (positional ids), Supplier (text
// ids), variant tables and tables that are not ready.
func rtProject(tb testing.TB) *model.Project {
	tb.Helper()
	b := &rtModel{tb: tb, p: &model.Project{ID: "p1", Slug: "shop", Name: "Shop", Kind: model.KindAccount}}
	product := b.table("Product", "products", nil)
	b.src(product, "name", model.TypeString, "name")
	b.src(product, "price", model.TypeFloat, "price")
	b.src(product, "category", model.TypeString, "category")
	b.src(product, "sku", model.TypeString, "sku")
	b.src(product, "inStock", model.TypeBoolean, "inStock")
	b.src(product, "tags", model.TypeJSON, "tags")
	b.src(product, "dims", model.TypeJSON, "dims")
	b.src(product, "priceInt", model.TypeInt, "price")
	b.src(product, "supplierId", model.TypeInt, "supplierId")
	b.attr(product, model.Attribute{Name: "currency", Type: model.TypeString, Mapping: model.MappingConstant, Constant: json.RawMessage(`"EUR"`)})
	b.attr(product, model.Attribute{Name: "rating", Type: model.TypeInt, Mapping: model.MappingGenerated, Generator: &model.Generator{Kind: "number.int", Options: json.RawMessage(`{"min":1,"max":5}`)}})
	b.attr(product, model.Attribute{Name: "contact", Type: model.TypeString, Mapping: model.MappingGenerated, Generator: &model.Generator{Kind: "person.email"}})
	b.attr(product, model.Attribute{Name: "margin", Type: model.TypeFloat, Mapping: model.MappingComputed, Computed: "price * 0.2"})
	b.attr(product, model.Attribute{Name: "note", Type: model.TypeString, Mapping: model.MappingNone})
	b.defaults(product)
	b.op(product, "searchProducts", model.OpList,
		rtParam("priceEq", "price", model.OpEq), rtParam("priceNeq", "price", model.OpNeq),
		rtParam("priceGt", "price", model.OpGt), rtParam("minPrice", "price", model.OpGte),
		rtParam("priceLt", "price", model.OpLt), rtParam("maxPrice", "price", model.OpLte),
		rtParam("categories", "category", model.OpIn), rtParam("nameLike", "name", model.OpLike),
		rtParam("category", "category", model.OpEq), rtParam("inStock", "inStock", model.OpEq),
		rtParam("productId", "id", model.OpEq))
	hidden := b.op(product, "hiddenProducts", model.OpList)
	_, err := b.p.UpdateOperation(hidden.ID, model.OperationPatch{Enabled: ptrTo(false)})
	b.must(err)

	customer := b.table("Customer", "customers", nil)
	b.src(customer, "name", model.TypeString, "name")
	b.src(customer, "city", model.TypeString, "city")
	b.defaults(customer)

	order := b.table("Order", "orders", nil)
	b.src(order, "customerId", model.TypeString, "customerId")
	b.src(order, "productId", model.TypeID, "productId")
	b.src(order, "qty", model.TypeInt, "qty")
	b.src(order, "placedAt", model.TypeDateTime, "placedAt")
	b.defaults(order)

	supplier := b.table("Supplier", "suppliers", nil)
	b.src(supplier, "id", model.TypeID, "id")
	b.src(supplier, "name", model.TypeString, "name")
	b.defaults(supplier)

	b.relation(model.Relation{SourceTableID: customer.ID, TargetTableID: order.ID, Cardinality: model.OneToMany,
		Direction: model.Bidirectional, SourceAttribute: "id", TargetAttribute: "customerId", FieldName: "orders", InverseFieldName: "customer"})
	b.relation(model.Relation{SourceTableID: order.ID, TargetTableID: product.ID, Cardinality: model.OneToOne,
		SourceAttribute: "productId", TargetAttribute: "id", FieldName: "product"})
	b.relation(model.Relation{SourceTableID: product.ID, TargetTableID: supplier.ID, Cardinality: model.OneToOne,
		Direction: model.Bidirectional, SourceAttribute: "supplierId", TargetAttribute: "id", FieldName: "supplier", InverseFieldName: "products"})

	variantA, variantZ := "A", "Z"
	pa := b.table("ProductA", "products", &variantA)
	b.src(pa, "name", model.TypeString, "name")
	b.op(pa, "productAs", model.OpList)
	b.op(pa, "productA", model.OpSingle)
	pz := b.table("ProductZ", "products", &variantZ)
	b.src(pz, "name", model.TypeString, "name")
	b.op(pz, "productZs", model.OpList)

	draft := b.table("Draft", "", nil)
	b.attr(draft, model.Attribute{Name: "title", Type: model.TypeString, Mapping: model.MappingNone})
	b.defaults(draft)
	ghost := b.table("Ghost", "missing", nil)
	b.src(ghost, "name", model.TypeString, "name")
	b.op(ghost, "ghosts", model.OpList, rtParam("name", "name", model.OpEq))
	b.op(ghost, "ghost", model.OpSingle)
	return b.p
}

func ptrTo[T any](v T) *T { return &v }

func rtCompile(tb testing.TB, p *model.Project, opt Options) *Runtime {
	tb.Helper()
	rt, err := Compile(p, opt)
	if err != nil {
		tb.Fatal(err)
	}
	return rt
}

// rtHarness runs requests against one runtime, pool and overlay.
type rtHarness struct {
	tb   testing.TB
	rt   *Runtime
	pool engine.Pool
	ov   *engine.Overlay
}

func newRTHarness(tb testing.TB) *rtHarness {
	tb.Helper()
	return &rtHarness{tb: tb, rt: rtCompile(tb, rtProject(tb), Options{}), pool: rtPool(tb), ov: engine.NewOverlay()}
}

// do runs a query, or a mutation whose changes it applies, and returns the
// result as generic JSON.
func (h *rtHarness) do(query string, vars map[string]any) map[string]any {
	h.tb.Helper()
	var out map[string]any
	if err := json.Unmarshal(h.raw(query, vars), &out); err != nil {
		h.tb.Fatal(err)
	}
	return out
}

// raw is do without decoding.
func (h *rtHarness) raw(query string, vars map[string]any) []byte {
	h.tb.Helper()
	prep, refused := h.rt.Prepare(exec.Request{Query: query, Variables: vars})
	if refused != nil {
		return refused.AppendJSON(nil)
	}
	var res *exec.Result
	var err error
	if prep.Mutation() {
		var changes []engine.Change
		res, changes, err = h.rt.Mutate(context.Background(), prep, h.pool, h.ov)
		h.ov.Apply(changes)
	} else {
		res, err = h.rt.Query(context.Background(), prep, h.pool, h.ov)
	}
	if err != nil {
		h.tb.Fatal(err)
	}
	return res.AppendJSON(nil)
}
