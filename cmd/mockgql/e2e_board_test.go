package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mockgql/mockgql/internal/testdata"
)

// chromium finds the browser the board tests drive (Debian's chromium;
// .ci/run installs it). Without one the test skips, or fails when
// MGQ_REQUIRE_TOOLS=1 (CI sets it, so CI cannot pass without a browser).
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	skipOrFail(t, "no Chromium installed; .ci/run installs Debian's chromium")
	return ""
}

// skipOrFail skips a test that needs a tool this machine lacks (a
// browser, node, an npm package), or fails it when MGQ_REQUIRE_TOOLS=1:
// CI sets it, so that CI cannot pass without running those tests.
func skipOrFail(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("MGQ_REQUIRE_TOOLS") == "1" {
		t.Fatal(why + " (MGQ_REQUIRE_TOOLS=1)")
	}
	t.Skip(why)
}

// TestBoardAdoptionFlow: an assistant's adoption link opened in a real
// browser lands on the board with the model, a countdown and "Sign up to
// keep this project"; a query runs in the playground; signing up there
// moves the project into the new account; the used link then shows a page
// that says so (410), and JSON to a client that asks for JSON.
func TestBoardAdoptionFlow(t *testing.T) {
	s := startServer(t)
	seedPool(t, s)
	a := &assistant{s: s}
	sp := buildSessionModel(t, a)
	pid := sp["projectId"].(string)
	p := newPage(t, s)
	if err := chromedp.Do(p.ctx, chromedp.Navigate(sp["adoptionUrl"].(string))); err != nil {
		t.Fatal(err)
	}
	p.wait(`section[data-table="Review"]`)
	if !strings.HasSuffix(p.location(), "/board/projects/"+pid) {
		t.Fatalf("landed on %s", p.location())
	}
	tables := p.text("#tables")
	for _, want := range []string{"Product", "Category", "Review", "price.amount", "✓ ready"} {
		if !strings.Contains(tables, want) {
			t.Errorf("board lacks %q: %s", want, tables)
		}
	}
	p.waitText("#countdown", "h ")
	before := p.text("#countdown")
	time.Sleep(1100 * time.Millisecond)
	if after := p.text("#countdown"); after == before || !strings.HasPrefix(after, "23h") {
		t.Errorf("the countdown does not count down: %q then %q", before, after)
	}
	p.shot("adopted")

	p.playground(pid, `{ products(pageSize: 5) { total items { id } } }`, `"total": 4`)

	p.open("/board/projects/"+pid, "#keep")
	p.click("#keep")
	p.set("#keepEmail", "ann@example.com")
	p.set("#keepPassword", "a long password")
	p.click("#keepSubmit")
	p.waitText("main .muted", "account project")
	if p.text("#banner") != "" {
		t.Errorf("the expiry banner stays after the transfer: %q", p.text("#banner"))
	}
	if got := get(s.signIn(t, "ann@example.com", "a long password").must(`query($id: ID){ project(id: $id) { kind expiresAt } }`, map[string]any{"id": pid}), "project", "kind"); got != "ACCOUNT" {
		t.Fatalf("after the sign-up the project is %v", got)
	}

	p.open(strings.TrimPrefix(sp["adoptionUrl"].(string), s.base), "h1")
	p.waitText("h1", "This link no longer works")
	p.waitText("main", "ask the assistant that made the project for a fresh link")
	p.shot("adoption-used")
	r := s.do("GET", strings.TrimPrefix(sp["adoptionUrl"].(string), s.base), nil, "Accept", "application/json")
	r.refusal(t, http.StatusGone, "ADOPTION_TOKEN_INVALID")
	html := s.do("GET", strings.TrimPrefix(sp["adoptionUrl"].(string), s.base), nil, "Accept", "text/html,application/xhtml+xml")
	if html.Status != http.StatusGone || !strings.HasPrefix(html.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("a browser's used link: %d %s", html.Status, html.Header.Get("Content-Type"))
	}
}

// TestBoardShowsSchemaChanges: after a baseline and a breaking rename, the
// board's API design section lists the change.
func TestBoardShowsSchemaChanges(t *testing.T) {
	ctx := browser(t)
	s := startServer(t)
	sh := newShop(t, s, "design@example.com", "d")
	pid := sh.project["id"]
	sh.owner.must(`mutation($p:ID!){ setSchemaBaseline(projectId:$p) }`, map[string]any{"p": pid})
	var opID string
	for _, o := range get(sh.owner.must(`query($id:ID){ project(id:$id) { operations { id name } } }`, map[string]any{"id": pid}), "project", "operations").([]any) {
		if get(o, "name") == "categories" {
			opID = get(o, "id").(string)
		}
	}
	sh.owner.must(`mutation($id:ID!){ updateOperation(input:{operationId:$id, name:"allCategories"}) { name } }`, map[string]any{"id": opID})
	// The board reads with the signed-in owner's cookie.
	if err := chromedp.Do(ctx, chromedp.Navigate(s.base+"/healthz")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.cookie = "mgq_jwt=`+sh.owner.token+`; path=/", true)`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(s.base+"/board/projects/"+pid.(string)+"/design"), chromedp.WaitVisible(`[data-criticality="BREAKING"]`)); err != nil {
		t.Fatalf("board: %v", err)
	}
	changes, err := chromedp.Run(ctx, chromedp.Text(`#changes`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(changes, "BREAKING") || !strings.Contains(changes, "categories") {
		t.Fatalf("changes on the board: %s", changes)
	}
}

// TestBoardImportsOpenAPI drives the board's import wizard: a real public
// OpenAPI document, its schemas listed, the object ones imported as tables.
func TestBoardImportsOpenAPI(t *testing.T) {
	doc := testdata.Read(t, "openapi", "petstore-v3.0.yaml")
	ctx := browser(t)
	s := startServer(t)
	u := s.signUp("wizard@example.com")
	pid := get(u.must(`mutation { createProject(name: "Pets") { id } }`, nil), "createProject", "id").(string)
	if err := chromedp.Do(ctx, chromedp.Navigate(s.base+"/healthz")); err != nil {
		t.Fatal(err)
	}
	js := func(expr string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("("+expr+", true)")); err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
	}
	js(`document.cookie = "mgq_jwt=` + u.token + `; path=/"`)
	if err := chromedp.Do(ctx, chromedp.Navigate(s.base+"/board/projects/"+pid+"/design"), chromedp.WaitVisible(`#wizard`)); err != nil {
		t.Fatal(err)
	}
	quoted, _ := json.Marshal(string(doc))
	js(`document.getElementById("oaDoc").value = ` + string(quoted))
	js(`document.getElementById("oaRead").click()`)
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`#oaImport`)); err != nil {
		t.Fatal(err)
	}
	listed, err := chromedp.Run(ctx, chromedp.Text(`#oaSchemas`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(listed, "Pet (") || !strings.Contains(listed, "Pets (not an object)") {
		t.Fatalf("schemas listed: %q", listed)
	}
	js(`document.getElementById("oaImport").click()`)
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`[data-table="Pet"]`)); err != nil {
		t.Fatal(err)
	}
	d := u.must(`query($id:ID){ project(id:$id) { tables { name attributes { name } } } }`, map[string]any{"id": pid})
	if !strings.Contains(fmt.Sprint(d), "Pet") || !strings.Contains(fmt.Sprint(d), "Error") {
		t.Fatalf("tables after the wizard: %v", d)
	}
}
