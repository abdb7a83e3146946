package main

import (
	"net/url"
	"testing"

	"github.com/chromedp/chromedp"
)

// phone sets the window to 390 × 900 px (1280 × 900 again when the test ends).
func (p *page) phone() {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(390, 900)); err != nil {
		p.t.Fatal(err)
	}
	p.t.Cleanup(func() { _ = chromedp.Do(p.ctx, chromedp.EmulateViewport(1280, 900)) })
}

// noSideways fails when a box holding sel scrolls sideways (its content
// wider than itself), or sel is wider than the window.
func (p *page) noSideways(sel, what string) {
	p.t.Helper()
	p.wait(sel)
	over := p.js(`(() => { let worst = 0; for (const t of document.querySelectorAll(` + jsString(sel) + `)) {
		for (let e = t; e && e !== document.body; e = e.parentElement) worst = Math.max(worst, e.scrollWidth - e.clientWidth);
		worst = Math.max(worst, t.getBoundingClientRect().right - window.innerWidth); } return worst; })()`)
	if over.(float64) > 1 {
		p.t.Errorf("%s at 390 px: %v px wider than its box (sideways scroll)", what, over)
	}
}

func jsString(s string) string { return "`" + s + "`" }

// resultShown runs the query in the GraphiQL on the page and checks that
// its result pane is on screen, tall and wide enough to read, with want.
func (p *page) resultShown(want, what string) {
	p.t.Helper()
	p.click(".graphiql-execute-button")
	p.waitText(".result-window", want)
	box := p.js(`(() => { const r = document.querySelector(".graphiql-response").getBoundingClientRect(); return [r.width, r.height, r.left, r.right - window.innerWidth]; })()`).([]any)
	if box[0].(float64) < 250 || box[1].(float64) < 200 || box[2].(float64) < 0 || box[3].(float64) > 1 {
		p.t.Errorf("%s at 390 px: the result pane is %v × %v at x %v (right edge %v past the window)", what, box[0], box[1], box[2], box[3])
	}
}

// TestBoardPhoneLayouts (issue 22 item 9): at 390 px the attribute grid and
// the operations table stack into rows with no sideways scroll; the
// playground and the runtime GraphiQL show their result pane; at 1280 px
// the preview page's sample tables keep each value on one line.
func TestBoardPhoneLayouts(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "phone@example.com", "ph")
	pid := sh.project["id"].(string)
	p := newPage(t, s)
	p.signedIn(sh.owner)
	p.phone()

	p.open("/board/projects/"+pid, `section[data-table="Product"] table.attrs`)
	p.noSideways("table.attrs", "the attribute grid")
	p.shot("phone-model")
	p.phone()
	p.open("/board/projects/"+pid+"/design", `table.ops`)
	p.noSideways("table.ops", "the operations table")
	p.shot("phone-design")
	p.phone()

	q := "{ products { total } }"
	p.open("/board/projects/"+pid+"/playground?query="+url.QueryEscape(q), ".graphiql-execute-button")
	p.waitText(".graphiql-query-editor", "products")
	p.resultShown(`"total"`, "the playground")
	p.shot("phone-playground")
	p.phone()

	p.open(sh.runtime+"?query="+url.QueryEscape(q), "#gateKey")
	p.set("#gateKey", sh.rtKey)
	p.submit("#gateKey")
	p.wait(".graphiql-execute-button")
	p.waitText(".graphiql-query-editor", "products")
	p.resultShown(`"total"`, "the runtime GraphiQL")
	p.shot("phone-runtime-graphiql")

	// The preview at 1280 px: no sample cell wraps (one character a line, or any).
	if err := s.run.seedDemo(); err != nil {
		t.Fatal(err)
	}
	slug, token := s.run.srv.Demo()
	if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	p.open("/preview/"+slug+"?token="+token, `[data-table="Product"] table.sample`)
	wrapped := p.js(`[...document.querySelectorAll("table.sample td, table.sample th")].filter((c) => c.getClientRects().length && c.getBoundingClientRect().height > 2 * parseFloat(getComputedStyle(c).lineHeight || 19) + 6).map((c) => c.textContent).slice(0, 5)`)
	if w := wrapped.([]any); len(w) > 0 {
		t.Errorf("sample cells wrap at 1280 px: %v", w)
	}
	narrow := p.js(`[...document.querySelectorAll("table.sample td")].filter((c) => c.textContent.length > 3 && c.getBoundingClientRect().width < 30).length`)
	if narrow.(float64) > 0 {
		t.Errorf("%v sample cells narrower than 30 px", narrow)
	}
	p.shot("phone-preview")
}
