package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestExportQueryPower opts the shop's products into every query option
// through the management API, exports it, and checks the two exports
// against the mock itself: the OpenAPI document validates and has the
// query paths, and the generated backend, built and run as a process with
// the mock's rows, answers the same where filters, sorts, connection pages
// (the same cursors) and aggregates as the mock's runtime does.
func TestExportQueryPower(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command in PATH")
	}
	s := startServer(t)
	sh := newShop(t, s, "export-power@example.com", "xp")
	pid := sh.project["id"].(string)
	sh.optIntoEverything(t)
	// Rows the runtime adds (created rows come last in storage order), one without a price.
	for _, in := range []string{`{name: "Shelf", price: 45, categoryId: 2, currency: "EUR"}`, `{name: "Box", categoryId: 1}`} {
		sh.query(`mutation { createProduct(input: `+in+`) { id } }`, nil).data(t)
	}

	t.Run("OpenAPI", func(t *testing.T) {
		doc := get(sh.owner.must(`query($p:ID!){ exportOpenApi(projectId:$p) }`, map[string]any{"p": pid}), "exportOpenApi").(string)
		spec, err := openapi3.NewLoader().LoadFromData([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := spec.Validate(context.Background()); err != nil {
			t.Fatalf("validate: %v", err)
		}
		for _, path := range []string{"/products", "/products/-/productsConnection", "/products/-/productsAggregate"} {
			if spec.Paths.Value(path) == nil {
				t.Errorf("no path %s", path)
			}
		}
		if spec.Paths.Value("/products").Get.Parameters.GetByInAndName("query", "where") == nil {
			t.Error("GET /products has no where parameter")
		}
	})

	raw, err := base64.StdEncoding.DecodeString(get(sh.owner.must(`mutation($p:ID!){ exportCodePackage(projectId:$p, language:"go") }`,
		map[string]any{"p": pid}), "exportCodePackage").(string))
	if err != nil {
		t.Fatal(err)
	}
	gen := startGenerated(t, goTool, unzipTo(t, raw))
	sh.copyProducts(t, gen)

	t.Run("list", func(t *testing.T) { sh.compareLists(t, gen) })
	t.Run("connection", func(t *testing.T) { sh.compareConnections(t, gen) })
	t.Run("aggregate", func(t *testing.T) { sh.compareAggregates(t, gen) })
}

// optIntoEverything turns relay, where and orderBy on for products and
// adds the AGGREGATE operation productsAggregate.
func (sh *shop) optIntoEverything(t *testing.T) {
	t.Helper()
	ops := get(sh.owner.must(`query($p:ID!){ project(id:$p) { operations { id name } } }`, map[string]any{"p": sh.project["id"]}), "project", "operations").([]any)
	for _, o := range ops {
		if get(o, "name") == "products" {
			sh.owner.must(`mutation($o:ID!){ updateOperation(input:{operationId:$o, options:{relay:true, where:true, orderBy:true}}) { id } }`,
				map[string]any{"o": get(o, "id")})
		}
	}
	sh.owner.must(`mutation($t:ID!){ createOperation(input:{tableId:$t, name:"productsAggregate", kind: AGGREGATE}) { id } }`,
		map[string]any{"t": sh.tables["Product"]})
}

// generated is the generated backend, running.
type generated struct {
	t    *testing.T
	base string
}

// startGenerated builds the generated module's server and runs it on a
// free loopback port until the test ends.
func startGenerated(t *testing.T, goTool, dir string) *generated {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "server")
	runGo(t, goTool, dir, "build", "-o", bin, ".")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, "-addr", addr)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	g := &generated{t: t, base: "http://" + addr}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(g.base + "/products"); err == nil {
			resp.Body.Close()
			return g
		}
		if time.Now().After(deadline) {
			t.Fatalf("the generated server does not answer on %s", addr)
		}
	}
}

// call sends a request to the generated server and decodes its JSON answer.
func (g *generated) call(method, path string, body string, want int) any {
	g.t.Helper()
	req, err := http.NewRequest(method, g.base+path, strings.NewReader(body))
	if err != nil {
		g.t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		g.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		g.t.Fatalf("%s %s: %d %s, want %d", method, path, resp.StatusCode, b, want)
	}
	var v any
	_ = json.Unmarshal(b, &v)
	return v
}

const productFields = "id name price currency stock categoryId market"

// copyProducts copies the mock's product rows, in storage order, into the
// generated server.
func (sh *shop) copyProducts(t *testing.T, g *generated) {
	t.Helper()
	items := get(sh.query(`{ products(pageSize: 1000) { items { `+productFields+` } } }`, nil).data(t), "products", "items").([]any)
	if len(items) != 6 {
		t.Fatalf("%d products, want 6", len(items))
	}
	for _, it := range items {
		b, _ := json.Marshal(it)
		g.call(http.MethodPost, "/products", string(b), http.StatusCreated)
	}
}

// The filters and sorts compared. id is left out: the mock compares the
// stored value (the number 1), the generated code its string id.
var (
	powerWheres = []string{
		`{}`,
		`{"price":{"gte":25}}`,
		`{"name":{"like":"DESK"}}`,
		`{"or":[{"categoryId":{"eq":2}},{"price":{"lt":50}}],"not":{"name":{"like":"lamp"}}}`,
		`{"price":{"isNull":true}}`,
		`{"price":{"isNull":false},"currency":{"neq":"EUR"}}`,
		`{"categoryId":{"nin":[1]}}`,
		`{"categoryId":{"in":[]}}`,
		`{"price":{"eq":"45"}}`,
		`{"or":[]}`,
		`{"and":[{"stock":{"gt":"10"}},{"not":{"market":{"eq":null}}}]}`,
	}
	powerOrders = []struct{ graphql, rest string }{
		{`[]`, ``},
		{`[{"field":"price","direction":"DESC"},{"field":"name"}]`, `-price,name`},
		{`[{"field":"categoryId"},{"field":"price"}]`, `categoryId,price`},
		{`[{"field":"market","direction":"DESC"}]`, `-market`},
	}
)

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func (sh *shop) compareLists(t *testing.T, g *generated) {
	for _, w := range powerWheres {
		for _, o := range powerOrders {
			mock := sh.query(`query($w: ProductWhere, $o: [ProductOrderBy!]) { products(where: $w, orderBy: $o, pageSize: 1000) { total items { id } } }`,
				map[string]any{"w": decode(t, w), "o": decode(t, o.graphql)}).data(t)
			rest := g.call(http.MethodGet, "/products?pageSize=1000&where="+url.QueryEscape(w)+"&orderBy="+url.QueryEscape(o.rest), "", http.StatusOK)
			if want, got := ids(get(mock, "products", "items")), ids(get(rest, "items")); want != got || get(mock, "products", "total") != get(rest, "total") {
				t.Errorf("where %s orderBy %s: generated %s, mock %s", w, o.rest, got, want)
			}
		}
	}
}

func ids(items any) string {
	var out []any
	for _, it := range items.([]any) {
		out = append(out, get(it, "id"))
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// compareConnections walks both connections two rows at a time: the same
// rows, cursors and page information on every page.
func (sh *shop) compareConnections(t *testing.T, g *generated) {
	for _, w := range powerWheres[:4] {
		for _, o := range powerOrders {
			after := ""
			for page := 0; page < 10; page++ {
				mock := get(sh.query(`query($w: ProductWhere, $o: [ProductOrderBy!], $a: String) { productsConnection(first: 2, after: $a, where: $w, orderBy: $o) {
					totalCount edges { cursor node { `+productFields+` } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
					map[string]any{"w": decode(t, w), "o": decode(t, o.graphql), "a": nilIfEmpty(after)}).data(t), "productsConnection")
				rest := g.call(http.MethodGet, "/products/-/productsConnection?first=2&after="+after+"&where="+url.QueryEscape(w)+"&orderBy="+url.QueryEscape(o.rest), "", http.StatusOK)
				if !sameJSON(mock, rest) {
					t.Fatalf("where %s orderBy %s page %d:\ngenerated %s\nmock      %s", w, o.rest, page, jsonText(rest), jsonText(mock))
				}
				if get(mock, "pageInfo", "hasNextPage") != true {
					break
				}
				after = get(mock, "pageInfo", "endCursor").(string)
			}
		}
	}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (sh *shop) compareAggregates(t *testing.T, g *generated) {
	const stats = `count sum { price categoryId } avg { price categoryId } min { price categoryId } max { price categoryId }`
	for _, w := range powerWheres {
		for _, by := range []string{"", "categoryId", "currency,categoryId", "price"} {
			var groupBy []string
			if by != "" {
				groupBy = strings.Split(by, ",")
			}
			mock := get(sh.query(`query($w: ProductWhere, $g: [ProductField!]) { productsAggregate(where: $w, groupBy: $g) { `+stats+` groups { key `+stats+` } } }`,
				map[string]any{"w": decode(t, w), "g": groupBy}).data(t), "productsAggregate")
			rest := g.call(http.MethodGet, "/products/-/productsAggregate?groupBy="+by+"&where="+url.QueryEscape(w), "", http.StatusOK)
			if !sameJSON(mock, rest) {
				t.Errorf("where %s groupBy %s:\ngenerated %s\nmock      %s", w, by, jsonText(rest), jsonText(mock))
			}
		}
	}
}

// sameJSON compares decoded JSON values, numbers to a relative 1e-9 (sums
// may add in another order); an absent field equals null (the generated
// rows leave unset fields out).
func sameJSON(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return false
		}
		for k := range x {
			if !sameJSON(x[k], y[k]) {
				return false
			}
		}
		for k := range y {
			if !sameJSON(x[k], y[k]) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case float64:
		y, ok := b.(float64)
		return ok && math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(x))
	}
	return a == b // strings, booleans, null
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
