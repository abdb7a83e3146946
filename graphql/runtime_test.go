package graphql

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// jsonAt walks a decoded JSON value along a dotted path; numbers index lists.
func jsonAt(v any, path string) any {
	for _, step := range strings.Split(path, ".") {
		switch t := v.(type) {
		case map[string]any:
			v = t[step]
		case []any:
			i, err := strconv.Atoi(step)
			if err != nil || i >= len(t) {
				return nil
			}
			v = t[i]
		default:
			return nil
		}
	}
	return v
}

// itemIDs returns the id of every item of the list at path.
func itemIDs(v any, path string) string {
	list, _ := jsonAt(v, path).([]any)
	out := make([]string, len(list))
	for i, item := range list {
		out[i] = fmt.Sprint(jsonAt(item, "id"))
	}
	return strings.Join(out, ",")
}

// errCodes returns the extensions.code of every error.
func errCodes(v any) string {
	list, _ := jsonAt(v, "errors").([]any)
	out := make([]string, len(list))
	for i, e := range list {
		out[i] = fmt.Sprint(jsonAt(e, "extensions.code"))
	}
	return strings.Join(out, ",")
}

// rtListCase is one list query and the ids (and error codes) it must give.
type rtListCase struct {
	name, query string
	want        string // ids of data.x.items
	total       int    // data.x.total, when not -1
	codes       string
}

func runRTListCases(t *testing.T, h *rtHarness, cases []rtListCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := h.do("{ x: "+c.query+" { total items { id } } }", nil)
			if got := itemIDs(res, "data.x.items"); got != c.want {
				t.Errorf("ids = %q, want %q", got, c.want)
			}
			if c.total >= 0 {
				if got, _ := jsonAt(res, "data.x.total").(float64); int(got) != c.total {
					t.Errorf("total = %v, want %d", got, c.total)
				}
			}
			if got := errCodes(res); got != c.codes {
				t.Errorf("error codes = %q, want %q (%v)", got, c.codes, res["errors"])
			}
		})
	}
}

func TestListPaging(t *testing.T) {
	h := newRTHarness(t)
	runRTListCases(t, h, []rtListCase{
		{"defaults", `products`, "1,2,3,4,5", 5, ""},
		{"page 2", `products(page: 2, pageSize: 2)`, "3,4", 5, ""},
		{"last partial page", `products(page: 3, pageSize: 2)`, "5", 5, ""},
		{"page past the end", `products(page: 4, pageSize: 2)`, "", 5, ""},
		{"page 0 is 1", `products(page: 0, pageSize: 2)`, "1,2", 5, ""},
		{"negative page is 1", `products(page: -3, pageSize: 1)`, "1", 5, ""},
		{"pageSize 0 is 20", `products(pageSize: 0)`, "1,2,3,4,5", 5, ""},
		{"huge page number", `products(page: 2147483647, pageSize: 1000)`, "", 5, ""},
	})
	res := h.do(`{ a: products(pageSize: 5000) { pageSize } b: products(page: -1, pageSize: -1) { page pageSize } }`, nil)
	if got := jsonAt(res, "data.a.pageSize"); got != 1000.0 {
		t.Errorf("clamped pageSize = %v, want 1000", got)
	}
	if jsonAt(res, "data.b.page") != 1.0 || jsonAt(res, "data.b.pageSize") != 20.0 {
		t.Errorf("defaulted page, pageSize = %v, %v", jsonAt(res, "data.b.page"), jsonAt(res, "data.b.pageSize"))
	}
}

func TestListSort(t *testing.T) {
	h := newRTHarness(t)
	runRTListCases(t, h, []rtListCase{
		{"number asc, text after numbers, ties in storage order", `products(sortField: "price")`, "4,1,5,2,3", 5, ""},
		{"number desc, ties still in storage order", `products(sortField: "price", sortDirection: DESC)`, "3,2,1,5,4", 5, ""},
		{"numbers stored as text sort lexicographically", `products(sortField: "sku")`, "1,3,4,5,2", 5, ""},
		{"lexicographic desc", `products(sortField: "sku", sortDirection: DESC)`, "2,5,4,3,1", 5, ""},
		{"nulls first asc", `products(sortField: "category")`, "4,5,1,3,2", 5, ""},
		{"nulls last desc", `products(sortField: "category", sortDirection: DESC)`, "2,1,3,5,4", 5, ""},
		{"sortField is case-sensitive", `products(sortField: "Price")`, "1,2,3,4,5", 5, ""},
		{"unknown sortField keeps storage order", `products(sortField: "nope", sortDirection: DESC)`, "1,2,3,4,5", 5, ""},
		{"CONSTANT attribute is not sortable", `products(sortField: "currency")`, "1,2,3,4,5", 5, ""},
		{"GENERATED attribute is not sortable", `products(sortField: "rating")`, "1,2,3,4,5", 5, ""},
		{"id attribute mapped by SOURCE sorts", `suppliers(sortField: "id", sortDirection: DESC)`, "9,8,7", 3, ""},
		{"sort then page", `products(sortField: "price", page: 2, pageSize: 2)`, "5,2", 5, ""},
	})
}

func TestListFilter(t *testing.T) {
	h := newRTHarness(t)
	runRTListCases(t, h, []rtListCase{
		{"eq number", `searchProducts(priceEq: 10)`, "1,5", 2, ""},
		{"eq text matches only text", `searchProducts(priceEq: "10")`, "3", 1, ""},
		{"neq", `searchProducts(priceNeq: 10)`, "2,4", 2, ""},
		{"neq wrong type matches nothing", `searchProducts(priceNeq: "x")`, "3", 1, ""},
		{"gt", `searchProducts(priceGt: 10)`, "2", 1, ""},
		{"gte", `searchProducts(minPrice: 10)`, "1,2,5", 3, ""},
		{"lt", `searchProducts(priceLt: 10)`, "4", 1, ""},
		{"lte", `searchProducts(maxPrice: 10)`, "1,4,5", 3, ""},
		{"gt on text compares text", `searchProducts(priceGt: "0")`, "3", 1, ""},
		{"in", `searchProducts(categories: ["toys", "Tools"])`, "2,5", 2, ""},
		{"in single value", `searchProducts(categories: "toys")`, "2", 1, ""},
		{"in refuses null elements", `searchProducts(categories: ["toys", null])`, "", -1, "GRAPHQL_VALIDATION_FAILED"},
		{"in null list does not filter", `searchProducts(categories: null)`, "1,2,3,4,5", 5, ""},
		{"like is case-insensitive contains", `searchProducts(nameLike: "G")`, "1,2,3,5", 4, ""},
		{"like unicode", `searchProducts(nameLike: "ÍDGET")`, "", 0, ""},
		{"like a number matches nothing", `searchProducts(nameLike: 5)`, "", 0, ""},
		{"wrong type: number for text", `searchProducts(category: 5)`, "", 0, ""},
		{"eq null matches null and absent", `searchProducts(category: null)`, "4", 1, ""},
		{"eq boolean", `searchProducts(inStock: true)`, "1,3", 2, ""},
		{"eq vBool false skips absent", `searchProducts(inStock: false)`, "2", 1, ""},
		{"gt vBool matches nothing", `searchProducts(priceGt: true)`, "", 0, ""},
		{"object value refused", `searchProducts(priceEq: {a: 1})`, "", -1, "BAD_USER_INPUT"},
		{"on id", `searchProducts(productId: 4)`, "4", 1, ""},
		{"on id wrong type", `searchProducts(productId: "4")`, "", 0, ""},
		{"combined with sort and paging", `searchProducts(minPrice: 5, category: "tools", sortField: "price", sortDirection: DESC)`, "1", 1, ""},
		{"omitted parameters do not filter", `searchProducts(pageSize: 2)`, "1,2", 5, ""},
	})
}

func TestUnknownArguments(t *testing.T) {
	h := newRTHarness(t)
	runRTListCases(t, h, []rtListCase{
		{"ignored without parameters", `products(color: "red", pageSize: 2)`, "1,2", 5, ""},
		{"refused with parameters", `searchProducts(color: "red")`, "", -1, "BAD_USER_INPUT"},
	})
	if res := h.do(`{ product(id: "2", color: "red") { id } }`, nil); jsonAt(res, "data.product.id") != "2" {
		t.Errorf("single operation: %v", res)
	}
	if _, refused := h.rt.Prepare(exec.Request{Query: `mutation { deleteProduct(id: "2", color: "red") { id } }`}); refused == nil {
		t.Error("unknown argument of a mutation passed validation")
	}
	res := h.do(`{ searchProducts(color: "red", minPrice: 1) { total } }`, nil)
	msg := fmt.Sprint(jsonAt(res, "errors.0.message"))
	if !strings.Contains(msg, `Unknown argument "color" on searchProducts; known parameters: priceEq,`) {
		t.Errorf("message = %q", msg)
	}
}

func TestNotReady(t *testing.T) {
	h := newRTHarness(t)
	runRTListCases(t, h, []rtListCase{
		{"unbound table", `drafts`, "", 0, "NOT_READY"},
		{"dataset not in the pool", `ghosts(name: "x")`, "", 0, "NOT_READY"},
	})
	res := h.do(`{ ghost(id: "1") { id } draft(id: "1") { id } }`, nil)
	if jsonAt(res, "data.ghost") != nil || errCodes(res) != "NOT_READY,NOT_READY" {
		t.Errorf("single on a table that is not ready: %v", res)
	}
	h.pool = nil
	res = h.do(`{ products { total } }`, nil)
	if errCodes(res) != "NOT_READY" {
		t.Errorf("nil pool: %v", res)
	}
}

func TestVariants(t *testing.T) {
	h := newRTHarness(t)
	runRTListCases(t, h, []rtListCase{
		{"variant A", `productAs`, "1,3,5", 3, ""},
		{"sorted within the variant", `productAs(sortField: "name", sortDirection: DESC)`, "3,1,5", 3, ""},
		{"unknown variant is empty without error", `productZs`, "", 0, ""},
	})
	res := h.do(`{ a: productA(id: "3") { id } b: productA(id: "2") { id } }`, nil)
	if jsonAt(res, "data.a.id") != "3" || jsonAt(res, "data.b") != nil {
		t.Errorf("single in variant: %v", res)
	}
}

func TestSingleByID(t *testing.T) {
	h := newRTHarness(t)
	cases := []struct{ query, want string }{
		{`product(id: "3")`, "3"},
		{`customer(id: "c2")`, "c2"},
		{`order(id: "4")`, "4"},
		{`supplier(id: "9")`, "9"},
		{`product(id: "99")`, "<nil>"},
		{`order(id: "0")`, "<nil>"},
		{`order(id: "04")`, "<nil>"},
		{`order(id: "5")`, "<nil>"},
		{`customer(id: "")`, "<nil>"},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			res := h.do("{ x: "+c.query+" { id } }", nil)
			if got := fmt.Sprint(jsonAt(res, "data.x.id")); got != c.want || errCodes(res) != "" {
				t.Errorf("id = %s, want %s (%v)", got, c.want, res)
			}
		})
	}
}

func TestRelations(t *testing.T) {
	h := newRTHarness(t)
	cases := []struct{ name, query, path, want string }{
		{"one-to-many list", `customer(id: "c1") { orders { id } }`, "data.x.orders", "1,3"},
		{"one-to-many empty list", `customer(id: "c3") { orders { id } }`, "data.x.orders", ""},
		{"inverse to-one", `order(id: "2") { customer { id } }`, "data.x.customer.id", "c2"},
		{"inverse to unknown key is null", `order(id: "4") { customer { id } }`, "data.x.customer", "<nil>"},
		{"one-to-one number key finds numeric id", `order(id: "1") { product { id } }`, "data.x.product.id", "1"},
		{"one-to-one text key finds numeric id", `order(id: "3") { product { id } }`, "data.x.product.id", "3"},
		{"number key finds text id", `product(id: "1") { supplier { id } }`, "data.x.supplier.id", "7"},
		{"text key finds text id", `product(id: "4") { supplier { id } }`, "data.x.supplier.id", "7"},
		{"null key is null", `product(id: "3") { supplier { id } }`, "data.x.supplier", "<nil>"},
		{"bidirectional inverse is to-one, first in storage order", `supplier(id: "7") { products { id } }`, "data.x.products.id", "1"},
		{"nested three levels", `customer(id: "c2") { orders { product { supplier { name } } } }`, "data.x.orders.0.product.supplier.name", "Globex"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := h.do("{ x: "+c.query+" }", nil)
			got := fmt.Sprint(jsonAt(res, c.path))
			if list, ok := jsonAt(res, c.path).([]any); ok {
				got = itemIDs(map[string]any{"l": list}, "l")
			}
			if got != c.want || errCodes(res) != "" {
				t.Errorf("got %s, want %s (%v)", got, c.want, res)
			}
		})
	}
}

func TestMappings(t *testing.T) {
	h := newRTHarness(t)
	res := h.do(`{ products { items { id currency rating contact note priceInt dims } } }`, nil)
	items := jsonAt(res, "data.products.items").([]any)
	for _, it := range items {
		if jsonAt(it, "currency") != "EUR" {
			t.Errorf("CONSTANT currency = %v", jsonAt(it, "currency"))
		}
		if r, _ := jsonAt(it, "rating").(float64); r < 1 || r > 5 {
			t.Errorf("GENERATED rating %v out of 1..5", jsonAt(it, "rating"))
		}
		if s, _ := jsonAt(it, "contact").(string); !strings.Contains(s, "@") {
			t.Errorf("GENERATED contact %q is not an email", s)
		}
		if jsonAt(it, "note") != nil {
			t.Errorf("NONE note = %v", jsonAt(it, "note"))
		}
	}
	if jsonAt(items[1], "priceInt") != nil || jsonAt(items[2], "priceInt") != 10.0 {
		t.Errorf("INT coercion: 25.5 -> %v, \"10\" -> %v", jsonAt(items[1], "priceInt"), jsonAt(items[2], "priceInt"))
	}
	if !reflect.DeepEqual(jsonAt(items[0], "dims"), map[string]any{"w": 1.0, "h": 2.0}) {
		t.Errorf("JSON prefix path = %v", jsonAt(items[0], "dims"))
	}
	again := newRTHarness(t).do(`{ products { items { id rating contact } } }`, nil)
	for i := range items {
		if jsonAt(items[i], "contact") != jsonAt(again, fmt.Sprintf("data.products.items.%d.contact", i)) {
			t.Errorf("GENERATED values differ between runtimes for row %d", i)
		}
	}
	if c0, c1 := jsonAt(items[0], "contact"), jsonAt(items[1], "contact"); c0 == c1 {
		t.Errorf("GENERATED values equal on two rows: %v", c0)
	}
	_, refused := h.rt.Prepare(exec.Request{Query: `{ products { items { margin } } }`})
	if refused == nil || !refused.Refused {
		t.Errorf("COMPUTED margin is in the schema")
	}
}

func TestIntrospectionShowsFields(t *testing.T) {
	h := newRTHarness(t)
	res := h.do(`{ __type(name: "Order") { fields { name } } }`, nil)
	var names []string
	for _, f := range jsonAt(res, "data.__type.fields").([]any) {
		names = append(names, jsonAt(f, "name").(string))
	}
	if got := strings.Join(names, ","); got != "id,customerId,productId,qty,placedAt,customer,product" {
		t.Errorf("Order fields = %s", got)
	}
}

func TestMutateThenQuery(t *testing.T) {
	h := newRTHarness(t)
	mutate := func(q string) map[string]any { return h.do(q, nil) }
	res := mutate(`mutation { createProduct(input: {name: "New", price: 7, category: "tools"}) { id name price currency } }`)
	if jsonAt(res, "data.createProduct.id") != "6" || jsonAt(res, "data.createProduct.currency") != "EUR" {
		t.Fatalf("create: %v", res)
	}
	mutate(`mutation { updateProduct(id: "1", input: {price: 100}) { id } }`)
	mutate(`mutation { deleteProduct(id: "4") { id } }`)
	runRTListCases(t, h, []rtListCase{
		{"created row after dataset rows, deleted row gone", `products`, "1,2,3,5,6", 5, ""},
		{"sorted with overridden and created values", `products(sortField: "price")`, "6,5,2,1,3", 5, ""},
		{"sorted desc", `products(sortField: "price", sortDirection: DESC)`, "3,1,2,5,6", 5, ""},
		{"filtered by overridden value", `searchProducts(minPrice: 50)`, "1", 1, ""},
		{"old value no longer matches", `searchProducts(priceEq: 10)`, "5", 1, ""},
		{"created row filtered", `searchProducts(category: "tools", sortField: "price")`, "6,1,3", 3, ""},
		{"deleted row not in variant lists", `productAs`, "1,3,5", 3, ""},
	})
	res = h.do(`{ a: product(id: "6") { name } b: product(id: "4") { id } c: supplier(id: "7") { products { id } } }`, nil)
	if jsonAt(res, "data.a.name") != "New" || jsonAt(res, "data.b") != nil || jsonAt(res, "data.c.products.id") != "1" {
		t.Errorf("single after mutations: %v", res)
	}
	mutate(`mutation { deleteProduct(id: "1") { id } }`)
	res = h.do(`{ supplier(id: "7") { products { id } } }`, nil)
	if jsonAt(res, "data.supplier.products") != nil {
		t.Errorf("relation to deleted rows: %v", res)
	}
}

func TestMutateDoesNotApply(t *testing.T) {
	h := newRTHarness(t)
	prep, refused := h.rt.Prepare(exec.Request{Query: `mutation { a: createProduct(input: {name: "A"}) { id } b: updateProduct(id: "1", input: {name: "B"}) { name } c: updateProduct(id: "1", input: {price: 2}) { name price } }`})
	if refused != nil {
		t.Fatal(refused.Errors)
	}
	res, changes, err := h.rt.Mutate(context.Background(), prep, h.pool, h.ov)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Data); got != `{"a":{"id":"6"},"b":{"name":"B"},"c":{"name":"B","price":2}}` {
		t.Errorf("result = %s", got)
	}
	if h.ov.Version() != 0 || len(h.ov.Changes()) != 0 {
		t.Fatalf("Mutate changed the overlay")
	}
	if len(changes) != 2 || changes[1].RowID != "1" || len(changes[1].Values) != 2 {
		t.Fatalf("changes = %+v, want one per row, latest state", changes)
	}
	if got := h.do(`{ product(id: "1") { name } }`, nil); jsonAt(got, "data.product.name") != "Widget" {
		t.Errorf("unapplied changes are visible: %v", got)
	}
	h.ov.Apply(changes)
	if got := h.do(`{ product(id: "1") { name price } }`, nil); jsonAt(got, "data.product.name") != "B" || jsonAt(got, "data.product.price") != 2.0 {
		t.Errorf("applied changes are not visible: %v", got)
	}
	_, _, err = h.rt.Mutate(context.Background(), rtPrepare(t, h.rt, `{ products { total } }`), h.pool, h.ov)
	if err == nil {
		t.Error("Mutate accepted a query")
	}
	if _, err := h.rt.Query(context.Background(), prep, h.pool, h.ov); err == nil {
		t.Error("Query accepted a mutation")
	}
}

func rtPrepare(tb testing.TB, rt *Runtime, query string) *exec.Prepared {
	tb.Helper()
	prep, refused := rt.Prepare(exec.Request{Query: query})
	if refused != nil {
		tb.Fatal(refused.Errors)
	}
	return prep
}

func TestMutationInputValidation(t *testing.T) {
	h := newRTHarness(t)
	cases := []struct{ name, query, code string }{
		{"bad datetime", `updateOrder(id: "1", input: {placedAt: "soon"}) { id }`, "BAD_USER_INPUT"},
		{"good date", `updateOrder(id: "1", input: {placedAt: "2024-05-06"}) { id }`, ""},
		{"unknown id", `updateOrder(id: "99", input: {qty: 1}) { id }`, "NOT_FOUND"},
		{"id change", `updateSupplier(id: "7", input: {id: "8"}) { id }`, "BAD_USER_INPUT"},
		{"same id", `updateSupplier(id: "7", input: {id: "7", name: "Same"}) { id }`, ""},
		{"taken id", `createSupplier(input: {id: "9"}) { id }`, "CONFLICT"},
		{"not ready", `createDraft(input: {title: "x"}) { id }`, "NOT_READY"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := errCodes(h.do("mutation { "+c.query+" }", nil)); got != c.code {
				t.Errorf("codes = %q, want %q", got, c.code)
			}
		})
	}
	_, refused := h.rt.Prepare(exec.Request{Query: `mutation { updateOrder(id: "1", input: {qty: "many"}) { id } }`})
	if refused == nil {
		t.Error("a String for an Int input passed validation")
	}
}

func TestOverlayRebuild(t *testing.T) {
	h := newRTHarness(t)
	h.do(`mutation { createProduct(input: {name: "N", price: 1}) { id } }`, nil)
	h.do(`mutation { updateProduct(id: "2", input: {name: "G2"}) { id } }`, nil)
	h.do(`mutation { deleteProduct(id: "6") { id } }`, nil)
	h.do(`mutation { deleteProduct(id: "3") { id } }`, nil)
	query := `{ products(sortField: "price") { total items { id name price } } }`
	before := string(h.raw(query, nil))
	changes := h.ov.Changes()
	if len(changes) != 3 {
		t.Fatalf("changes = %+v, want 3 rows", changes)
	}
	b, _ := json.Marshal(changes)
	var stored []engine.Change
	if err := json.Unmarshal(b, &stored); err != nil {
		t.Fatal(err)
	}
	h.ov = engine.NewOverlay()
	h.ov.Apply(stored)
	if after := string(h.raw(query, nil)); after != before {
		t.Errorf("rebuilt overlay differs:\n%s\n%s", before, after)
	}
	v := h.ov.Version()
	h.ov.Reset()
	if h.ov.Version() <= v || len(h.ov.Changes()) != 0 {
		t.Errorf("Reset: version %d -> %d, %d changes", v, h.ov.Version(), len(h.ov.Changes()))
	}
	if got := h.do(`{ products { total } }`, nil); jsonAt(got, "data.products.total") != 5.0 {
		t.Errorf("after Reset: %v", got)
	}
	if got := h.do(`mutation { createProduct(input: {name: "again"}) { id } }`, nil); jsonAt(got, "data.createProduct.id") != "6" {
		t.Errorf("id after Reset: %v", got)
	}
}

func TestEmptyProject(t *testing.T) {
	rt := rtCompile(t, &model.Project{ID: "empty"}, Options{})
	if !strings.Contains(rt.SDL(), placeholderField+": String") {
		t.Errorf("SDL = %s", rt.SDL())
	}
	res, err := rt.Query(context.Background(), rtPrepare(t, rt, `{ _service }`), nil, nil)
	if err != nil || string(res.Data) != `{"_service":null}` {
		t.Errorf("placeholder query: %s, %v", res.Data, err)
	}
}

func TestCompileKeepsNoModel(t *testing.T) {
	p := rtProject(t)
	rt := rtCompile(t, p, Options{})
	sdl := rt.SDL()
	p.Tables[0].Name = "Renamed"
	p.Tables[0].Attributes[0].Name = "renamed"
	p.Operations[0].Name = "renamed"
	if rt.SDL() != sdl || rt.Schema().Types["Product"] == nil {
		t.Error("runtime changed with the project")
	}
	h := &rtHarness{tb: t, rt: rt, pool: rtPool(t), ov: engine.NewOverlay()}
	if got := h.do(`{ products(pageSize: 1) { items { name } } }`, nil); jsonAt(got, "data.products.items.0.name") != "Widget" {
		t.Errorf("query after changing the project: %v", got)
	}
}

func TestTableWithoutInputFields(t *testing.T) {
	p := &model.Project{ID: "p"}
	b := &rtModel{tb: t, p: p}
	tab := b.table("Flag", "suppliers", nil)
	b.attr(tab, model.Attribute{Name: "on", Type: model.TypeBoolean, Mapping: model.MappingConstant, Constant: json.RawMessage(`true`)})
	b.src(tab, "name", model.TypeString, "name")
	b.must(p.RemoveAttribute("a_Flag_name"))
	b.defaults(tab)
	rt := rtCompile(t, p, Options{})
	if !strings.Contains(rt.SDL(), emptyInputField+": Boolean") {
		t.Errorf("SDL = %s", rt.SDL())
	}
}
