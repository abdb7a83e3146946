package main

import (
	"fmt"
	"strings"
	"testing"
)

// fieldRulesOf reads the project's field rules as path/code/rate/count/message.
func (sh *shop) fieldRulesOf(t *testing.T) []string {
	t.Helper()
	d := sh.owner.must(`query($p:ID){ project(id:$p) { faults { `+fieldRuleFields+` } } }`, map[string]any{"p": sh.project["id"]})
	var out []string
	rules, _ := get(d, "project", "faults", "fieldRules").([]any)
	for _, r := range rules {
		out = append(out, fmt.Sprintf("%v %v %v %v %v", get(r, "path"), get(r, "code"), get(r, "rate"), get(r, "count"), get(r, "message")))
	}
	return out
}

// unlabelled lists the controls under sel whose accessible name is not a
// visible label: an input or select without a shown <label for>, or a
// button without text of its own or with an aria-label over it.
func (p *page) unlabelled(sel string) []any {
	p.t.Helper()
	got, _ := p.js(`[...document.querySelectorAll("` + sel + ` input, ` + sel + ` select, ` + sel + ` button")].filter((c) => {
		if (c.getAttribute("aria-label") || c.getAttribute("aria-labelledby")) return true;
		if (c.tagName === "BUTTON") return c.innerText.trim() === "";
		const l = c.id && document.querySelector('label[for="' + c.id + '"]');
		return !l || l.innerText.trim() === "" || l.offsetParent === null;
	}).map((c) => c.outerHTML.slice(0, 120))`).([]any)
	return got
}

// TestBoardFieldRules: on API design an editor adds two field rules to the
// project's Faults card (a rate rule with a message and code, a count
// rule), saves them with the other settings, sees a refused path next to
// its field, removes a rule; the management API reads back what the form
// shows, a runtime request gets the field error, and the request log
// names the rule that fired. Every control has a visible label that is
// its name; axe and the screenshots at 1280 and 390 px cover the card.
func TestBoardFieldRules(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "fieldrules-board@example.com", "fr")
	pid := sh.project["id"].(string)
	p := newPage(t, s)
	p.signedIn(sh.owner)
	p.open("/board/projects/"+pid+"/design", "#faults [data-rule-add]")
	p.waitText("#faults .rule-empty", "No field errors")

	rule := func(n int) string {
		return fmt.Sprintf(`#faults fieldset[data-faults="project"] fieldset.rule:nth-of-type(%d)`, n)
	}
	p.click(`#faults [data-rule-add]`)
	p.set(rule(1)+` [data-rule="path"]`, "price") // refused below
	p.set(rule(1)+` [data-rule="message"]`, "Price feed down")
	p.choose(rule(1)+` [data-rule="code"]`, "UNAVAILABLE")
	p.click(`#faults [data-rule-add]`)
	p.set(rule(2)+` [data-rule="path"]`, "Category.title")
	p.set(rule(2)+` [data-rule="count"]`, "2")
	p.click(`#faults [data-rule-add]`)
	p.set(rule(3)+` [data-rule="path"]`, "*.name")
	p.waitText(rule(3)+" legend", "Field error 3")

	p.set(`#faults [data-fault="latencyMaxMs"]`, "1") // the form saves its other settings with the rules
	p.click(`[data-faults-save="project"]`)
	p.waitText(rule(1)+` .field:has([data-rule="path"]) .field-error`, "fieldRules[0].path")
	if inv := p.js(`document.querySelector('` + rule(1) + ` [data-rule="path"]').getAttribute("aria-invalid")`); inv != "true" {
		t.Errorf("the refused path is not marked invalid: %v", inv)
	}
	if got := sh.fieldRulesOf(t); got != nil {
		t.Fatalf("a refused rule was saved: %v", got)
	}
	if bad := p.unlabelled("#faults"); len(bad) > 0 {
		t.Errorf("controls without a visible label as their name: %v", bad)
	}
	p.js(`(document.querySelector('` + rule(1) + `').scrollIntoView(), true)`)
	p.shot("faults-field-rules-refused")

	p.set(rule(1)+` [data-rule="path"]`, "Product.price")
	p.click(rule(3) + ` [data-rule-remove]`)
	p.gone(rule(3))
	p.click(`[data-faults-save="project"]`)
	p.waitText(`#faults .status`, "Saved for the project")
	p.waitText(`#projectFaults`, "field errors at Product.price, Category.title")
	want := []string{"Product.price UNAVAILABLE 1 0 Price feed down", "Category.title INTERNAL 0 2 <nil>"}
	if got := sh.fieldRulesOf(t); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("the management API reads %v, want %v", got, want)
	}
	if p.text(rule(1)+` .field:has([data-rule="path"]) .field-error`) != "" {
		t.Error("the earlier refusal stays after a save")
	}
	p.js(`(document.getElementById("faults").scrollIntoView(), true)`)
	p.shot("faults-field-rules")

	// The rules answer on the runtime and the log names them.
	r := sh.faulted(`{ products(pageSize: 1) { items { price category { title } } } }`, "")
	if msgs := errorsOf(r); len(msgs) != 2 || !strings.Contains(msgs[0], "Price feed down") || !strings.Contains(msgs[1], "injected fault: field=Category.title") {
		t.Fatalf("the runtime answers %s", r.Raw)
	}
	p.open("/board/projects/"+pid+"/log", `#logEntries tr[data-entry]`)
	p.logEntry("field=Product.price;field=Category.title")

	// After a reload the form shows the saved rules, and removing all saves none.
	p.open("/board/projects/"+pid+"/design", rule(2))
	if got := p.js(`document.querySelector('` + rule(1) + ` [data-rule="message"]').value`); got != "Price feed down" {
		t.Errorf("the reloaded form shows message %v", got)
	}
	p.click(rule(2) + ` [data-rule-remove]`)
	p.click(rule(1) + ` [data-rule-remove]`)
	p.click(`[data-faults-save="project"]`)
	p.waitText(`#faults .status`, "Saved for the project")
	if got := sh.fieldRulesOf(t); got != nil {
		t.Fatalf("after removing every rule the API reads %v", got)
	}
}
