package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// page drives one real Chromium tab on the board. Its helpers act as a
// person does (DOM clicks, typed values with input and change events) and
// fail the test with what the page showed when something does not happen.
type page struct {
	t    *testing.T
	ctx  context.Context
	base string

	mu       sync.Mutex
	problems []string // CSP violations and uncaught exceptions, as the console showed them
	errors   []string // the last console errors (a resource that failed to load), for a failure's message
}

func newPage(t *testing.T, s *server) *page {
	t.Helper()
	p := &page{t: t, ctx: browser(t), base: s.base}
	messages := chromedp.Console(p.ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			p.mu.Lock()
			if m.Type == chromedp.ConsoleException || strings.Contains(m.Text, "Content Security Policy") {
				p.problems = append(p.problems, string(m.Type)+": "+m.Text)
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
				p.errors = append(p.errors[max(0, len(p.errors)-9):], m.Text)
			}
			p.mu.Unlock()
		}
	}()
	t.Cleanup(p.checkConsole)
	return p
}

// checkConsole fails the test on a CSP violation or an uncaught exception
// in any page it opened.
func (p *page) checkConsole() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range p.problems {
		p.t.Errorf("browser console: %s", m)
	}
	p.problems = nil
}

// js evaluates an expression and returns its JSON-decoded value.
func (p *page) js(expr string) any {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[any](expr, chromedp.EvalAsValue))
	if err != nil {
		p.t.Fatalf("js %s: %v", expr, err)
	}
	return v
}

// open navigates to a path of the server and waits for sel.
func (p *page) open(path, sel string) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Navigate(p.base+path)); err != nil {
		p.t.Fatalf("open %s: %v", path, err)
	}
	p.wait(sel)
}

// wait waits until sel matches a visible element, up to 15 s.
func (p *page) wait(sel string) {
	p.t.Helper()
	q, _ := json.Marshal(sel)
	deadline := time.Now().Add(15 * time.Second)
	for {
		ok, _ := chromedp.Run(p.ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const e = document.querySelector(%s); return !!e && !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length); })()`, q)))
		if ok {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s never appeared on %s; the page shows:\n%s\n%s", sel, p.location(), p.bodyText(), p.stuck())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitText waits until the text of sel contains want.
func (p *page) waitText(sel, want string) string {
	p.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		got := p.text(sel)
		if strings.Contains(got, want) {
			return got
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s never said %q; it says %q; the page shows:\n%s\n%s", sel, want, got, p.bodyText(), p.stuck())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (p *page) location() string {
	l, _ := chromedp.Run(p.ctx, chromedp.Location())
	return l
}

func (p *page) bodyText() string {
	s, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ""`))
	return s
}

// stuck says, for a failure's message, what the page loaded and what went
// wrong in it: the console's last errors (a module or request that failed)
// and the board's requests that got an answer, with their start and
// duration in ms. A /graphql request missing from that list was still
// waiting for its answer.
func (p *page) stuck() string {
	p.mu.Lock()
	errs := strings.Join(p.errors, "\n  ")
	p.mu.Unlock()
	loaded, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`performance.getEntriesByType("resource").filter((e) => !e.name.includes("/vendor/"))
		.map((e) => new URL(e.name).pathname.replace("/board/static/", "") + " " + Math.round(e.startTime) + "+" + Math.round(e.duration)).join(", ")`))
	return fmt.Sprintf("console errors:\n  %s\nanswered (path start+duration ms): %s", errs, loaded)
}

// text is the visible text of the first element sel matches ("" if none).
func (p *page) text(sel string) string {
	q, _ := json.Marshal(sel)
	s, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](fmt.Sprintf(`(document.querySelector(%s) || {innerText: ""}).innerText`, q)))
	return s
}

// click clicks the first element sel matches, as a DOM click (chromedp's
// Click waits for layout events headless Chromium does not always send).
func (p *page) click(sel string) {
	p.t.Helper()
	p.wait(sel)
	q, _ := json.Marshal(sel)
	p.js(fmt.Sprintf(`(document.querySelector(%s).click(), true)`, q))
}

// clickText clicks the first element matching sel whose text is label.
func (p *page) clickText(sel, label string) {
	p.t.Helper()
	q, _ := json.Marshal(sel)
	l, _ := json.Marshal(label)
	deadline := time.Now().Add(15 * time.Second)
	for {
		ok := p.js(fmt.Sprintf(`(() => { const e = [...document.querySelectorAll(%s)].find((x) => x.textContent.trim() === %s); if (e) e.click(); return !!e; })()`, q, l))
		if ok == true {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("no %s %q to click on %s; the page shows:\n%s", sel, label, p.location(), p.bodyText())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// set types a value into the control sel matches and fires input and change.
func (p *page) set(sel, value string) {
	p.t.Helper()
	p.wait(sel)
	q, _ := json.Marshal(sel)
	v, _ := json.Marshal(value)
	p.js(fmt.Sprintf(`(() => { const e = document.querySelector(%s); e.focus(); e.value = %s; e.dispatchEvent(new Event("input", {bubbles: true})); e.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, q, v))
}

// submit submits the form that holds sel, as pressing Enter or its button does.
func (p *page) submit(sel string) {
	p.t.Helper()
	q, _ := json.Marshal(sel)
	p.js(fmt.Sprintf(`(document.querySelector(%s).closest("form").requestSubmit(), true)`, q))
}

// screenshotDir is where the board tests write their screenshots:
// $MGQ_SCREENSHOTS, or testdata/screenshots-out (git-ignored; CI keeps it).
func screenshotDir(t testing.TB) string {
	dir := os.Getenv("MGQ_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join("testdata", "screenshots-out")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// shot checks the page with axe and writes a full-page screenshot of it at
// 1280 and at 390 px wide; it fails on content wider than the window.
func (p *page) shot(name string) {
	p.t.Helper()
	p.checkConsole()
	p.axe(name)
	for _, w := range []int64{1280, 390} {
		if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(w, 900)); err != nil {
			p.t.Fatal(err)
		}
		time.Sleep(150 * time.Millisecond)
		if over := p.js(`document.documentElement.scrollWidth - window.innerWidth`); over.(float64) > 1 {
			p.t.Errorf("%s at %d px: the page is %v px wider than the window", name, w, over)
		}
		png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			p.t.Fatal(err)
		}
		file := filepath.Join(screenshotDir(p.t), fmt.Sprintf("%s-%d.png", name, w))
		if err := os.WriteFile(file, png, 0o644); err != nil {
			p.t.Fatal(err)
		}
	}
	if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		p.t.Fatal(err)
	}
}

var axeSource = sync.OnceValues(func() ([]byte, error) { return os.ReadFile(filepath.Join("testdata", "axe", "axe.min.js")) })

// axe runs axe-core on the page and fails on serious or critical violations.
func (p *page) axe(name string) {
	p.t.Helper()
	src, err := axeSource()
	if err != nil {
		p.t.Fatalf("axe-core: %v", err)
	}
	if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[any](string(src)+";true", chromedp.EvalAsValue)); err != nil {
		p.t.Fatalf("inject axe: %v", err)
	}
	type violation struct {
		ID, Impact, Help string
		Nodes            []struct{ Target []any }
	}
	got, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]violation](`axe.run(document, {resultTypes: ["violations"]}).then((r) => r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => ({ID: v.id, Impact: v.impact, Help: v.help, Nodes: v.nodes.slice(0, 5).map((n) => ({Target: n.target}))})))`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("axe on %s: %v", name, err)
	}
	for _, v := range got {
		p.t.Errorf("axe on %s: %s %s (%s) at %v", name, v.Impact, v.ID, v.Help, v.Nodes)
	}
}

// choose selects the option of the <select> sel whose text starts with label.
func (p *page) choose(sel, label string) {
	p.t.Helper()
	p.wait(sel)
	q, _ := json.Marshal(sel)
	l, _ := json.Marshal(label)
	ok := p.js(fmt.Sprintf(`(() => { const e = document.querySelector(%s); const o = [...e.options].find((x) => x.text.startsWith(%s)); if (!o) return false; e.value = o.value; e.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, q, l))
	if ok != true {
		p.t.Fatalf("%s has no option %q; the page shows:\n%s", sel, label, p.bodyText())
	}
}

// allowClipboard lets the page write and read the clipboard, as a person's
// click on a copy button may in a focused window (headless Chromium's page
// is not focused unless emulated).
func (p *page) allowClipboard() {
	p.t.Helper()
	err := chromedp.Do(p.ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
		return err
	}))
	if err != nil {
		p.t.Fatalf("focus emulation: %v", err)
	}
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		err := chromedp.Do(p.ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			c := chromedp.FromContext(ctx)
			_, err := cdp.Call(ctx, c.Browser, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
				Permission: &cdpbrowser.PermissionDescriptor{Name: name}, Setting: cdpbrowser.PermissionSettingGranted, Origin: p.base,
				BrowserContextID: c.BrowserContextID}) // the test's own (browser)
			return err
		}))
		if err != nil {
			p.t.Fatalf("grant %s: %v", name, err)
		}
	}
}

// signIn logs a user in through the API and returns them.
func (s *server) signIn(t *testing.T, email, password string) *user {
	t.Helper()
	d := s.gql("/graphql", `mutation($e:String!,$p:String!){ login(email:$e, password:$p) { token } }`, map[string]any{"e": email, "p": password}).data(t)
	return &user{s: s, token: get(d, "login", "token").(string), email: email}
}

// playground opens the project's playground (GraphiQL) with a query, runs
// it with GraphiQL's own button and returns the result pane's text once it
// holds want.
func (p *page) playground(projectID, query, want string) string {
	p.t.Helper()
	p.open("/board/projects/"+projectID+"/playground?query="+url.QueryEscape(query), ".graphiql-execute-button")
	p.waitText(".graphiql-query-editor", strings.Fields(query)[1]) // the editor shows the query
	p.click(".graphiql-execute-button")
	return p.waitText(".result-window", want)
}

// signUpOnLanding fills in and sends the landing page's sign-up form and
// waits for the project list it leads to.
func (p *page) signUpOnLanding(email string) {
	p.t.Helper()
	p.set("#suEmail", email)
	p.set("#suPassword", "a long password")
	p.submit("#suEmail")
	p.wait("#newName")
}

// gone waits until nothing matches sel (e.g. after a reload that removed it).
func (p *page) gone(sel string) {
	p.t.Helper()
	q, _ := json.Marshal(sel)
	deadline := time.Now().Add(15 * time.Second)
	for {
		still, _ := chromedp.Run(p.ctx, chromedp.Evaluate[bool](fmt.Sprintf(`!!document.querySelector(%s)`, q)))
		if !still {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s is still on %s; the page shows:\n%s", sel, p.location(), p.bodyText())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
