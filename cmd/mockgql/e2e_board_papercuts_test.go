package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBoardPapercuts (issue 22 item 10), the visible ones: a session
// project opened by a signed-in person offers only the datasets it can
// read (on the page and in dataSources(projectId:)), and binding one it
// cannot read is refused; an upload refused for
// its size says the size in MB with what to do on this plan, and a good
// one is shown in place, its result kept (no reload); the pages
// have an icon; moving between tabs never shows "Loading…"; the
// playground's starter query selects id once.
func TestBoardPapercuts(t *testing.T) {
	s := startServer(t, func(c *serveConfig) { _ = c.Plans.DatasetMB.Set("1,1024,10240,0") })
	seedPool(t, s)
	sp := buildSessionModel(t, &assistant{s: s})
	pid := sp["projectId"].(string)
	ann := s.signUp("ann-cuts@example.com")
	ann.importVia("annprivate", "json", `[{"id":1,"secret":"x"}]`, "").data(t)

	p := newPage(t, s)
	p.signedIn(ann)
	if err := chromedp.Do(p.ctx, chromedp.Navigate(sp["adoptionUrl"].(string))); err != nil {
		t.Fatal(err)
	}
	p.wait("#tableSource")
	opts := p.js(`[...document.querySelectorAll("#tableSource option")].map((o) => o.value).join(",")`).(string)
	if !strings.Contains(opts, "products") || strings.Contains(opts, "annprivate") {
		t.Fatalf("a session project offers %s (want the curated pool only)", opts)
	}
	api, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`fetch("/graphql", {method: "POST", credentials: "same-origin", headers: {"Content-Type": "application/json"},
		body: JSON.stringify({query: "query($p: ID) { dataSources(projectId: $p) { importCode } mine: dataSources { importCode } }", variables: {p: "`+pid+`"}})}).then((r) => r.text())`,
		chromedp.EvalAwaitPromise))
	if err != nil || !strings.Contains(api, `"dataSources":[{"importCode":"categories"}`) || strings.Contains(strings.Split(api, `"mine"`)[0], "annprivate") ||
		!strings.Contains(api, "annprivate") {
		t.Fatalf("dataSources(projectId:) of a session project: %s %v", api, err)
	}

	// Bound anyway over the API, it is refused, not "✓ ready" serving nothing.
	bind, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`fetch("/graphql", {method: "POST", credentials: "same-origin", headers: {"Content-Type": "application/json"},
		body: JSON.stringify({query: "mutation($p: ID!) { createModellingTable(input: {projectId: $p, name: \"Secret\", source: {importCode: \"annprivate\"}}) { id } }", variables: {p: "`+pid+`"}})}).then((r) => r.text())`,
		chromedp.EvalAwaitPromise))
	if err != nil || !strings.Contains(bind, "BAD_USER_INPUT") || !strings.Contains(bind, "cannot read") {
		t.Fatalf("binding a session project's table to an account's own dataset: %s %v", bind, err)
	}

	// Tabs: the project stays on the page; "Loading…" never shows.
	p.js(`(window.__loading = 0, new MutationObserver(() => { if (document.getElementById("main").innerText.includes("Loading…")) window.__loading++; })
		.observe(document.getElementById("main"), {childList: true, subtree: true, characterData: true}), true)`)
	for _, tab := range []string{"diagram", "design", "playground", "log", "keys", "model"} {
		p.click(`nav.tabs a[data-tab="` + tab + `"]`)
		p.wait(`nav.tabs a[data-tab="` + tab + `"][aria-current="page"]`)
		p.wait(`#tab:not([aria-busy])`)
	}
	if n := p.js(`window.__loading`); n != 0.0 {
		t.Fatalf(`"Loading…" showed %v times while moving between tabs`, n)
	}
	p.click(`nav.tabs a[data-tab="playground"]`)
	p.wait(".graphiql-query-editor")
	p.waitText(".graphiql-query-editor", "items")
	if q := p.text(".graphiql-query-editor"); len(regexp.MustCompile(`\bid\b`).FindAllString(q, -1)) != 1 {
		t.Fatalf("the starter query does not select id once: %q", q)
	}

	// The icon: linked by the page, and at /favicon.ico.
	if href := p.js(`document.querySelector('link[rel="icon"]').href`); href != s.base+"/board/static/favicon.svg" {
		t.Fatalf("icon link: %v", href)
	}
	for _, path := range []string{"/favicon.ico", "/board/static/favicon.svg"} {
		r := s.do("GET", path, nil)
		if r.Status != 200 || r.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(string(r.Raw), "<svg") {
			t.Fatalf("GET %s: %d %s", path, r.Status, r.Header.Get("Content-Type"))
		}
	}

	// An upload past the plan's room: sizes in MB and what to do.
	big := tempFile(t, "big.json", `[{"id":1,"blob":"`+strings.Repeat("x", 1<<20+(1<<19))+`"}]`)
	p.open("/board/data", "#dsFile")
	if err := chromedp.Do(p.ctx, chromedp.SetUploadFiles("#dsFile", []string{big})); err != nil {
		t.Fatal(err)
	}
	p.waitText("#dsStatus", "Chosen: big.json (1.5 MB)")
	if ph := p.js(`document.getElementById("dsCode").placeholder`); ph == "products" {
		t.Fatal("the import code's placeholder is a code the pool has")
	}
	p.click("#dsUpload")
	msg := p.waitText("#dsStatus", "The import failed")
	if !strings.Contains(msg, "1 MB") || !strings.Contains(msg, "is on the starter plan") || !strings.Contains(msg, "change the plan under Account") {
		t.Fatalf("size refusal: %q", msg)
	}
	for _, raw := range []string{"1048576", "1572864"} {
		if strings.Contains(msg, raw) {
			t.Fatalf("the refusal counts raw bytes: %q", msg)
		}
	}
	p.shot("papercuts-upload-too-big")

	// Over the API too: a chunked upload (no length to refuse it by) stops
	// at the plan's room, and the server says so in MB, with what to do.
	bo := s.signUp("bo-cuts@example.com")
	req, _ := http.NewRequest("POST", s.base+"/datasets/chunky?format=json", io.MultiReader(bytes.NewReader(bigJSON(3<<19, "c"))))
	req.Header.Set("Authorization", "Bearer "+bo.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 413 || !strings.Contains(string(body), "larger than the 1 MB left of the starter plan's room for its own datasets: delete a dataset (deleteDataset) or change the plan (setPlan)") ||
		strings.Contains(string(body), "1048576") {
		t.Fatalf("a chunked upload past the plan's room: %d %s", resp.StatusCode, body)
	}

	// A good upload: in place (no reload that would flash the result away), said in the singular.
	small := tempFile(t, "tiny.json", `[{"id":1,"title":"One"}]`)
	p.markWindow()
	if err := chromedp.Do(p.ctx, chromedp.SetUploadFiles("#dsFile", []string{small})); err != nil {
		t.Fatal(err)
	}
	p.set("#dsCode", "tiny")
	p.click("#dsUpload")
	p.wait(`[data-dataset="tiny"]`)
	p.waitText("#dsStatus", "Imported tiny: 1 record.")
	p.waitText(`[data-dataset="tiny"]`, "tiny · 1 record")
	p.windowKept("importing a dataset")
}

// TestBoardPlaygroundViewerMutation (issue 22 item 10): a viewer's
// mutation in the playground is refused as a GraphQL error with its code
// and message, not a JavaScript stack trace.
func TestBoardPlaygroundViewerMutation(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "pg-viewer-owner@example.com", "pv")
	pid := sh.project["id"].(string)
	viewer := sh.member(t, "pg-viewer@example.com", "VIEWER")
	p := newPage(t, s)
	p.signedIn(viewer)
	res := p.playground(pid, `mutation { deleteProduct(id: "1") { id } }`, "FORBIDDEN")
	if !strings.Contains(res, "this needs role EDITOR") || strings.Contains(res, "stack") || strings.Contains(res, ".js:") {
		t.Fatalf("the viewer's mutation shows: %s", res)
	}
	p.shot("playground-viewer-mutation")
}

// TestBoardReadyNeedsReadableData (issue 22 item 10): a table is ready only
// when its project can read the dataset it is bound to. A session
// project's table bound to a code that only a signed-in person's own
// upload holds shows "✗ not ready" with why (the curated pool), on the
// board and in Table.ready; in that person's account project the same
// code is ready, and a code no dataset has is not.
func TestBoardReadyNeedsReadableData(t *testing.T) {
	s := startServer(t)
	a := &assistant{s: s}
	sp := get(a.must(`mutation { createSessionProject(name: "Ann's mock") { projectId adoptionUrl } }`, nil), "createSessionProject").(map[string]any)
	pid := sp["projectId"].(string)
	bind := func(must func(string, map[string]any) map[string]any, pid, name, code string) {
		tid := get(must(`mutation($p:ID!,$n:String!,$c:String!){ createModellingTable(input:{projectId:$p, name:$n, source:{importCode:$c}}) { id } }`,
			map[string]any{"p": pid, "n": name, "c": code}), "createModellingTable", "id")
		must(`mutation($t:ID!){ createModellingAttribute(input:{tableId:$t, name:"id", type:ID, mappingType: SOURCE, sourceMapping:{path:"id"}}) { id } }`, map[string]any{"t": tid})
	}
	// Bound before Ann's upload exists: no dataset had the code, so it was bindable.
	bind(a.must, pid, "Secret", "annlater")
	ann := s.signUp("ann-ready@example.com")
	ann.importVia("annlater", "json", `[{"id":1,"secret":"x"}]`, "").data(t)

	ready := func(must func(string, map[string]any) map[string]any, pid string) string {
		return fmt.Sprint(get(must(`query($id:ID){ project(id:$id) { tables { name ready notReadyReason } } }`, map[string]any{"id": pid}), "project", "tables"))
	}
	session := fmt.Sprint(get(a.must(`{ sessionProject { tables { name ready notReadyReason } } }`, nil), "sessionProject", "tables"))
	if got := session; !strings.Contains(got, "ready:false") || !strings.Contains(got, `curated pool this session project reads`) {
		t.Fatalf("the session project's table: %s", got)
	}

	p := newPage(t, s)
	p.signedIn(ann)
	if err := chromedp.Do(p.ctx, chromedp.Navigate(sp["adoptionUrl"].(string))); err != nil {
		t.Fatal(err)
	}
	p.wait(`section[data-table="Secret"]`)
	card := p.waitText(`section[data-table="Secret"]`, "✗ not ready")
	if strings.Contains(card, "✓ ready") || !strings.Contains(card, `"annlater" is not in the curated pool`) {
		t.Fatalf("the session project's card: %q", card)
	}
	if got := p.js(`document.querySelector('section[data-table="Secret"] .binding select').selectedOptions[0].text`); got != "annlater (not in this project's pool)" {
		t.Fatalf("the binding select shows %v", got)
	}
	p.shot("ready-session-unreadable")

	// In Ann's own project the same code is hers to read; an unknown one is not.
	own := ann.newProject("Own")
	bind(ann.must, own, "Mine", "annlater")
	bind(ann.must, own, "Missing", "nothere")
	got := ready(ann.must, own)
	for _, want := range []string{"name:Mine notReadyReason:<nil> ready:true", `name:Missing notReadyReason:no dataset "nothere" in the data pool this project reads`} {
		if !strings.Contains(got, want) {
			t.Fatalf("the account project's tables lack %q: %s", want, got)
		}
	}
}
