package graphql

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/internal/testdata"
	"github.com/mockgql/mockgql/model"
)

// TestFakeTypesGenerate: every value of graphql-faker's fake__Types maps
// onto a generator kind the runtime has, with its fixed options.
func TestFakeTypesGenerate(t *testing.T) {
	s, err := contract.Parse([]byte("type Query { a: String @fake(type: email) }"), contract.MaxDocumentBytes)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range s.AST.Types["fake__Types"].EnumValues {
		kind, opts, ok := contract.FakeKind(v.Name)
		if !ok {
			t.Errorf("fake__Types %s maps onto no kind", v.Name)
			continue
		}
		o, _ := json.Marshal(opts)
		if err := CheckGenerator(&model.Generator{Kind: kind, Options: o}); err != nil {
			t.Errorf("fake__Types %s → %s: %v", v.Name, kind, err)
		}
	}
}

// TestContractFakerValues: the runtime of a schema annotated for
// graphql-faker answers what the directives say, the same on every
// compile: @examples' values, @fake's kinds with their options, and
// @listLength's list lengths, in rows and in generated root fields.
func TestContractFakerValues(t *testing.T) {
	file := filepath.Join(testdata.Dir(t, "faker"), "annotated.graphql")
	h := newContractHarness(t, file)
	q := `{ products { sku price stock rating image released tags level contact } motto lucky }`
	out := h.must(q)
	products := jsonAt(out, "data.products").([]any)
	if len(products) != model.DefaultContractRows {
		t.Fatalf("%d products", len(products))
	}
	day := regexp.MustCompile(`^2021-\d\d-\d\d$`)
	for _, x := range products {
		p := x.(map[string]any)
		check := func(name string, ok bool) {
			t.Helper()
			if !ok {
				t.Errorf("%s = %#v", name, p[name])
			}
		}
		sku, _ := p["sku"].(string)
		check("sku", strings.HasPrefix(sku, "SKU-") && len(sku) == 5)
		// Money is a custom scalar: its value is the text of the price, as
		// graphql-faker's money is.
		price, err := strconv.ParseFloat(fmt.Sprint(p["price"]), 64)
		check("price", err == nil && price >= 5 && price <= 9)
		stock, _ := p["stock"].(float64)
		check("stock", stock >= 3 && stock <= 7 && stock == float64(int(stock)))
		check("rating", p["rating"] == 4.5 || p["rating"] == 5.0)
		img, _ := p["image"].(string)
		check("image", strings.HasPrefix(img, "/img/120x90.png"))
		rel, _ := p["released"].(string)
		check("released", day.MatchString(rel))
		tags, _ := p["tags"].([]any)
		check("tags", len(tags) >= 4 && len(tags) <= 6 && strings.Contains("new sale eco", tags[0].(string)))
		check("level", p["level"] == "LEAD")
		mail, _ := p["contact"].(string)
		check("contact", strings.Contains(mail, "@"))
	}
	if m := jsonAt(out, "data.motto"); m != "Ship it" {
		t.Errorf("motto = %v", m)
	}
	lucky := jsonAt(out, "data.lucky").([]any)
	if len(lucky) != 7 {
		t.Errorf("lucky has %d numbers, want 7: %v", len(lucky), lucky)
	}
	for _, n := range lucky {
		if f, _ := n.(float64); f < 1 || f > 9 || f != float64(int(f)) {
			t.Errorf("lucky holds %v", n)
		}
	}
	again := newContractHarness(t, file).must(q)
	a, _ := json.Marshal(out)
	b, _ := json.Marshal(again)
	if string(a) != string(b) {
		t.Error("another compile of the same project answers other values")
	}
}

// TestContractFakerIntrospection: graphql-faker's directives are listed by
// the runtime's introspection as the schema's own.
func TestContractFakerIntrospection(t *testing.T) {
	h := newContractHarness(t, filepath.Join(testdata.Dir(t, "faker"), "default-schema.graphql"))
	out := h.must(`{ __schema { directives { name args { name type { kind name ofType { name } } } } } __type(name: "fake__Types") { enumValues { name } } }`)
	b, _ := json.Marshal(jsonAt(out, "data.__schema.directives"))
	for _, d := range []string{`"name":"fake"`, `"name":"examples"`, `"name":"listLength"`, `"name":"fake__Types"`} {
		if !strings.Contains(string(b), d) {
			t.Errorf("introspection's directives lack %s: %s", d, b)
		}
	}
	if n := len(jsonAt(out, "data.__type.enumValues").([]any)); n != 65 {
		t.Errorf("fake__Types has %d values, want graphql-faker's 65", n)
	}
}

// TestContractEditorGenerator: an editor's generator (Contract.Generators)
// wins over the document's @fake and over the values by meaning; a choice
// for a field a new document no longer has is left out.
func TestContractEditorGenerator(t *testing.T) {
	p := contractProject(t, filepath.Join(testdata.Dir(t, "faker"), "annotated.graphql"))
	p.Contract.Generators = []model.ContractGenerator{
		{Type: "Product", Field: "contact", Kind: "examples", Options: []byte(`{"values":["desk@shop.test"]}`)}, // over @fake(type: email)
		{Type: "Product", Field: "name", Kind: "number.int", Options: []byte(`{"min":7,"max":7}`)},              // a String field: its text
		{Type: "Product", Field: "gone", Kind: "uuid"},
	}
	h := &rtHarness{tb: t, rt: rtCompile(t, p, Options{}), pool: memPool{}, ov: engine.NewOverlay()}
	for _, x := range jsonAt(h.must(`{ products { contact name } }`), "data.products").([]any) {
		if got := fmt.Sprint(x); got != "map[contact:desk@shop.test name:7]" {
			t.Fatalf("a product is %s", got)
		}
	}
}
