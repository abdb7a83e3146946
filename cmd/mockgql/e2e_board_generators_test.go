package main

import (
	"strconv"
	"strings"
	"testing"
)

// TestBoardGeneratorPicker (issue 22 item 7): the generator of a GENERATED
// mapping is picked from a searchable list by category ("isbn" finds
// productisbn), its options are labelled fields with their type and
// default, the preview follows the options live, a refused option shows
// the server's message under that field, and the hint's own example
// (number.int with min 1 and max 9) is accepted and served.
func TestBoardGeneratorPicker(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "generators@example.com", "gp")
	pid := sh.project["id"].(string)
	p := newPage(t, s)
	p.signedIn(sh.owner)
	p.open("/board/projects/"+pid, `form.add-attribute[data-table="Product"]`)
	form := `form.add-attribute[data-table="Product"]`
	p.js(`(document.querySelector('` + form + `').closest("details").open = true, true)`)
	p.set(form+" .field input[type=text]", "rating")
	p.choose(form+" .field select", "INT")
	p.choose(form+" .mapping select", "generated")

	// Search by a word the kind's name lacks; then a category.
	search := form + " .mapping input[type=search]"
	p.set(search, "isbn")
	p.wait(form + ` [data-kind="productisbn"]`)
	p.set(search, "")
	p.choose(form+` .generator select`, "number")
	p.wait(form + ` [data-kind="number.int"]`)
	if n := p.js(`document.querySelectorAll('` + form + ` [data-kind="person.email"]').length`); n != 0.0 {
		t.Fatal("the number category lists person.email")
	}
	if hint := p.text(form + " .generator .hint"); !strings.Contains(hint, "number.int with min 1 and max 9") {
		t.Fatalf("search hint: %q", hint)
	}
	p.click(form + ` [data-kind="number.int"]`)
	p.waitText(form+" .gen-chosen", "number.int")
	p.waitText(form+" .gen-options", "min (int)")
	p.waitText(form+" .gen-options", "default 1000")

	// A refused option: the server's message under the field it names.
	p.set(form+` [data-option="min"]`, "9")
	p.set(form+` [data-option="max"]`, "1")
	p.waitText(form+" .gen-options .field-error", "min 9 is greater than max 1")
	if v := p.js(`document.querySelector('` + form + ` [data-option="min"]').getAttribute("aria-invalid")`); v != "true" {
		t.Fatalf("the refused option is not marked invalid: %v", v)
	}
	p.shot("generator-picker-refused")

	// The hint's example: values from 1 to 9, live.
	p.set(form+` [data-option="min"]`, "1")
	p.set(form+` [data-option="max"]`, "9")
	p.gone(form + " .gen-options .field-error:not([hidden])")
	p.wait(form + " ul.gen-preview li")
	for _, v := range strings.Split(p.text(form+" ul.gen-preview"), "\n") {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err != nil || n < 1 || n > 9 {
			t.Fatalf("preview value %q is not in 1..9", v)
		}
	}
	p.shot("generator-picker")
	p.clickText(form+" button", "Add attribute")
	p.waitText(`section[data-table="Product"] tr[data-attribute="rating"]`, "generated number.int")

	g := mustJSON(get(sh.owner.must(`query($id:ID){ project(id:$id) { tables { attributes { name generator { kind options } } } } }`, map[string]any{"id": pid}), "project"))
	if !strings.Contains(string(g), `"generator":{"kind":"number.int","options":{"max":9,"min":1}},"name":"rating"`) {
		t.Fatalf("saved generator: %s", g)
	}
	items := get(sh.query(`{ products(pageSize: 20) { items { rating } } }`, nil).data(t), "products", "items").([]any)
	for _, it := range items {
		if r := it.(map[string]any)["rating"].(float64); r < 1 || r > 9 {
			t.Fatalf("the runtime served rating %v", r)
		}
	}
}
