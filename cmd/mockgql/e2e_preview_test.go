package main

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// previewData fetches the preview page's data with a share token ("" sends none).
func previewData(s *server, slug, token string) response {
	s.t.Helper()
	path := "/preview/" + slug + "/data"
	if token != "" {
		path += "?token=" + url.QueryEscape(token)
	}
	return s.do("GET", path, nil)
}

// tokenOf returns the share token of a preview URL.
func tokenOf(t *testing.T, previewURL string) string {
	t.Helper()
	u, err := url.Parse(previewURL)
	if err != nil || u.Query().Get("token") == "" {
		t.Fatalf("preview URL without a token: %q", previewURL)
	}
	return u.Query().Get("token")
}

// setSharing turns the shop's preview link on or off and returns the project.
func (sh *shop) setSharing(t *testing.T, on bool) map[string]any {
	t.Helper()
	d := sh.owner.must(`mutation($p:ID!,$on:Boolean!){ setPreviewSharing(projectId:$p, enabled:$on) { previewUrl previewSharing shareToken runtimeUrl } }`,
		map[string]any{"p": sh.project["id"], "on": on})
	return get(d, "setPreviewSharing").(map[string]any)
}

// sampleOf returns the sample page of the named table in preview data.
func sampleOf(r response, table string) any {
	tables, _ := r.JSON["tables"].([]any)
	for _, tb := range tables {
		if get(tb, "name") == table {
			return get(tb, "sample")
		}
	}
	return nil
}

// guestWithCategories makes a guest project with a Category table bound to
// the pool's categories (seedPool) and its default operations; it returns
// the guest's assistant and the project.
func guestWithCategories(t *testing.T, s *server) (*assistant, map[string]any) {
	t.Helper()
	a := &assistant{s: s}
	g := get(a.must(`mutation { createGuestProject(name: "Try") { projectId slug shareToken runtimeUrl } }`, nil), "createGuestProject").(map[string]any)
	d := a.must(`mutation($p:ID!){ createModellingTable(input:{projectId:$p, name:"Category", source:{importCode:"categories"}}) { id } }`,
		map[string]any{"p": g["projectId"]})
	tid := get(d, "createModellingTable", "id")
	for _, at := range [][2]string{{"id", "ID"}, {"title", "STRING"}} {
		a.must(`mutation($t:ID!,$n:String!,$ty:ScalarType!){ createModellingAttribute(input:{tableId:$t, name:$n, type:$ty, mappingType: SOURCE, sourceMapping:{path:$n}}) { id } }`,
			map[string]any{"t": tid, "n": at[0], "ty": at[1]})
	}
	a.must(`mutation($p:ID!){ generateDefaultGqlOperations(projectId:$p) { name } }`, map[string]any{"p": g["projectId"]})
	return a, g
}

func TestPreviewData(t *testing.T) {
	s := startServer(t)
	seedPool(t, s)
	sh := newShop(t, s, "preview@example.com", "pv")
	pid := sh.project["id"].(string)

	t.Run("account project, sharing off", func(t *testing.T) {
		d := sh.owner.must(`query($id:ID){ project(id:$id) { previewUrl previewSharing shareToken } }`, map[string]any{"id": pid})
		if get(d, "project", "previewSharing") != false || get(d, "project", "previewUrl") != s.base+"/board/projects/"+pid {
			t.Fatalf("project: %v", d)
		}
		previewData(s, sh.slug, "").refusal(t, 401, "UNAUTHENTICATED")
		previewData(s, sh.slug, "shr_guess").refusal(t, 401, "UNAUTHENTICATED")
	})
	on := sh.setSharing(t, true)
	tok := tokenOf(t, on["previewUrl"].(string))
	t.Run("account project, sharing on", func(t *testing.T) {
		if on["previewUrl"] != s.base+"/preview/"+sh.slug+"?token="+tok || !strings.HasPrefix(tok, "shr_") || on["previewSharing"] != true ||
			on["shareToken"] != nil || strings.Contains(on["runtimeUrl"].(string), "token") {
			t.Fatalf("setPreviewSharing: %v", on)
		}
		r := previewData(s, sh.slug, tok)
		if r.Status != 200 || get(r.JSON, "project", "kind") != "ACCOUNT" || get(r.JSON, "project", "queryable") != false ||
			get(r.JSON, "project", "runtimeUrl") != s.base+sh.runtime {
			t.Fatalf("preview: %d %s", r.Status, r.Raw)
		}
		if smp := sampleOf(r, "Product"); get(smp, "total") != 4.0 || get(smp, "items", 0, "name") != "Desk" || get(smp, "items", 3, "price") != 25.0 {
			t.Fatalf("Product sample: %v", smp)
		}
		if smp := sampleOf(r, "Category"); get(smp, "total") != 3.0 || get(smp, "items", 1, "title") != "Lighting" {
			t.Fatalf("Category sample: %v", smp)
		}
		if get(r.JSON, "relations", 0, "fieldName") != "products" || !strings.Contains(get(r.JSON, "sdl").(string), "searchProducts(") {
			t.Fatalf("relations and schema: %s", r.Raw)
		}
		if strings.Contains(string(r.Raw), tok) || strings.Contains(string(r.Raw), "pvproducts") {
			t.Fatalf("the data repeats the token or names a dataset: %s", r.Raw)
		}
		if r.Header.Get("Cache-Control") != "no-store" || r.Header.Get("Referrer-Policy") != "no-referrer" {
			t.Fatalf("headers: %v", r.Header)
		}
		previewData(s, sh.slug, "").refusal(t, 401, "UNAUTHENTICATED")
		previewData(s, sh.slug, tok+"x").refusal(t, 401, "UNAUTHENTICATED")
		previewData(s, "no-such-shop", tok).refusal(t, 404, "PROJECT_NOT_FOUND")
		page := s.do("GET", "/preview/"+sh.slug+"?token="+tok, nil)
		if page.Status != 200 || !strings.HasPrefix(page.Header.Get("Content-Type"), "text/html") || !strings.Contains(string(page.Raw), "/board/static/preview.js") {
			t.Fatalf("page: %d %s", page.Status, page.Header)
		}
		if js := s.do("GET", "/board/static/preview.js", nil); !strings.Contains(string(js.Raw), "/data?token=") { // no inline script: the CSP forbids it
			t.Fatalf("preview.js: %d %.200s", js.Status, js.Raw)
		}
	})
	t.Run("the share token never opens the account project's runtime", func(t *testing.T) {
		q := []byte(`{"query":"{ products { total } }"}`)
		s.do("POST", sh.runtime+"?token="+tok, q).refusal(t, 401, "UNAUTHENTICATED")
		s.do("GET", sh.runtime+"?token="+tok+"&query="+url.QueryEscape("{ products { total } }"), nil).refusal(t, 401, "UNAUTHENTICATED")
		// A Bearer that is not a key is an invalid key (issue 11, finding 13).
		s.do("POST", sh.runtime+"?token="+tok, q, "Authorization", "Bearer "+tok).refusal(t, 401, "API_KEY_INVALID")
		sh.query(`{ products { total } }`, nil).data(t) // the key still works
	})
	t.Run("a new link, then none", func(t *testing.T) {
		again := tokenOf(t, sh.setSharing(t, true)["previewUrl"].(string))
		if again == tok {
			t.Fatal("the token did not change")
		}
		previewData(s, sh.slug, tok).refusal(t, 401, "UNAUTHENTICATED")
		if r := previewData(s, sh.slug, again); r.Status != 200 {
			t.Fatalf("new token: %d %s", r.Status, r.Raw)
		}
		off := sh.setSharing(t, false)
		if off["previewSharing"] != false || off["previewUrl"] != s.base+"/board/projects/"+pid {
			t.Fatalf("sharing off: %v", off)
		}
		previewData(s, sh.slug, again).refusal(t, 401, "UNAUTHENTICATED")
	})
	t.Run("guest project", func(t *testing.T) {
		a, g := guestWithCategories(t, s)
		slug, gt := g["slug"].(string), g["shareToken"].(string)
		d := s.gql("/graphql", `query($id:ID){ project(id:$id) { previewUrl previewSharing } }`, map[string]any{"id": g["projectId"]}, "Cookie", a.cookie).data(t)
		if get(d, "project", "previewUrl") != s.base+"/preview/"+slug+"?token="+gt || get(d, "project", "previewSharing") != true {
			t.Fatalf("guest project: %v", d)
		}
		r := previewData(s, slug, gt)
		if r.Status != 200 || get(r.JSON, "project", "queryable") != true || get(r.JSON, "project", "runtimeUrl") != g["runtimeUrl"] ||
			get(sampleOf(r, "Category"), "total") != 3.0 {
			t.Fatalf("guest preview: %d %s", r.Status, r.Raw)
		}
		previewData(s, slug, "").refusal(t, 401, "UNAUTHENTICATED")
		previewData(s, slug, "shr_guess").refusal(t, 401, "UNAUTHENTICATED")
		off := s.gql("/graphql", `mutation($p:ID!){ setPreviewSharing(projectId:$p, enabled:false) { id } }`, map[string]any{"p": g["projectId"]}, "Cookie", a.cookie)
		if off.errCode() != "BAD_USER_INPUT" {
			t.Fatalf("guest sharing off: %s", off.Raw)
		}
	})
	t.Run("session project", func(t *testing.T) {
		sp := buildSessionModel(t, &assistant{s: s})
		slug, st := sp["slug"].(string), sp["shareToken"].(string)
		r := previewData(s, slug, st)
		if r.Status != 200 || get(r.JSON, "project", "kind") != "SESSION" || get(r.JSON, "project", "expiresAt") == nil ||
			get(sampleOf(r, "Review"), "total") != 2.0 || get(sampleOf(r, "Product"), "items", 0, "category") != nil {
			t.Fatalf("session preview: %d %s", r.Status, r.Raw)
		}
		previewData(s, slug, "shr_guess").refusal(t, 401, "UNAUTHENTICATED")
		previewData(s, slug, "").refusal(t, 401, "UNAUTHENTICATED")
	})
}

func TestPreviewQuota(t *testing.T) {
	s := startServer(t, func(c *serveConfig) { c.QuotaPro = 4; c.GuestDailyCalls = 2; c.SessionDailyCalls = 2 })
	seedPool(t, s)
	sh := newShop(t, s, "pquota@example.com", "pq")
	clearOfWindowEdge(t, 24*time.Hour, time.Minute) // quotas reset at UTC midnight
	tok := tokenOf(t, sh.setSharing(t, true)["previewUrl"].(string))
	pq := func(u *user, query string) response {
		return u.gql(`mutation($p:ID!,$q:String!){ previewQuery(projectId:$p, query:$q) }`, map[string]any{"p": sh.project["id"], "q": query})
	}

	t.Run("account plan quota", func(t *testing.T) {
		if r := previewData(s, sh.slug, tok); r.Status != 200 { // 1: one request a page, whatever the tables
			t.Fatalf("preview: %d %s", r.Status, r.Raw)
		}
		if d := pq(sh.owner, `{ products { total } }`).data(t); get(d, "previewQuery", "data", "products", "total") != 4.0 { // 2
			t.Fatalf("previewQuery: %v", d)
		}
		if d := pq(sh.owner, `mutation { createProduct(input: {name: "Stool", price: 30}) { id name } }`).data(t); get(d, "previewQuery", "data", "createProduct", "name") != "Stool" { // 3
			t.Fatalf("previewQuery mutation: %v", d)
		}
		if d := sh.query(`{ products { total } }`, nil).data(t); get(d, "products", "total") != 5.0 { // 4: the runtime sees the mutation
			t.Fatalf("runtime after the mutation: %v", d)
		}
		r := previewData(s, sh.slug, tok)
		r.refusal(t, 429, "TOO_MANY_REQUESTS")
		if r.Header.Get("Retry-After") == "" {
			t.Fatalf("429 without Retry-After: %v", r.Header)
		}
		over := pq(sh.owner, `{ products { total } }`)
		if over.errCode() != "TOO_MANY_REQUESTS" || get(over.JSON, "errors", 0, "extensions", "retryAfter") == nil {
			t.Fatalf("previewQuery over quota: %s", over.Raw)
		}
		sh.query(`{ products { total } }`, nil).refusal(t, 429, "TOO_MANY_REQUESTS")
		if u := sh.owner.must(`{ account { usage { requests quota } } }`, nil); get(u, "account", "usage", "requests") != 4.0 {
			t.Fatalf("usage: %v", u)
		}
	})
	t.Run("guest session quota", func(t *testing.T) {
		_, g := guestWithCategories(t, s)
		for i := 0; i < 2; i++ {
			if r := previewData(s, g["slug"].(string), g["shareToken"].(string)); r.Status != 200 {
				t.Fatalf("guest preview %d: %d %s", i, r.Status, r.Raw)
			}
		}
		previewData(s, g["slug"].(string), g["shareToken"].(string)).refusal(t, 429, "TOO_MANY_REQUESTS")
		s.do("POST", strings.TrimPrefix(g["runtimeUrl"].(string), s.base), []byte(`{"query":"{ __typename }"}`)).refusal(t, 429, "TOO_MANY_REQUESTS")
	})
	t.Run("session project quota", func(t *testing.T) {
		sp := buildSessionModel(t, &assistant{s: s})
		for i := 0; i < 2; i++ {
			if r := previewData(s, sp["slug"].(string), sp["shareToken"].(string)); r.Status != 200 {
				t.Fatalf("session preview %d: %d %s", i, r.Status, r.Raw)
			}
		}
		previewData(s, sp["slug"].(string), sp["shareToken"].(string)).refusal(t, 429, "TOO_MANY_REQUESTS")
	})
}

// TestPreviewQueryRoles: members who may read run queries; mutations need
// EDITOR; other accounts and no credential are refused.
func TestPreviewQueryRoles(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "pqroles@example.com", "pr")
	viewer := join(t, sh.owner, s.signUp("pr-viewer@example.com"), "VIEWER")
	stranger := s.signUp("pr-stranger@example.com")
	run := func(u *user, query string) response {
		return u.gql(`mutation($p:ID!,$q:String!){ previewQuery(projectId:$p, query:$q) }`, map[string]any{"p": sh.project["id"], "q": query})
	}
	if d := run(viewer, `{ categories { total } }`).data(t); get(d, "previewQuery", "data", "categories", "total") != 3.0 {
		t.Fatalf("viewer's query: %v", d)
	}
	if r := run(viewer, `mutation { deleteCategory(id: "1") { id } }`); r.errCode() != "FORBIDDEN" {
		t.Fatalf("viewer's mutation: %s", r.Raw)
	}
	if r := run(stranger, `{ categories { total } }`); r.errCode() != "NOT_FOUND" {
		t.Fatalf("stranger: %s", r.Raw)
	}
	if r := s.gql("/graphql", `mutation { previewQuery(projectId:"x", query:"{ a }") }`, nil); r.errCode() != "UNAUTHENTICATED" {
		t.Fatalf("anonymous: %s", r.Raw)
	}
	if r := run(viewer, `{ nope }`).data(t); get(r, "previewQuery", "errors", 0, "extensions", "code") != "GRAPHQL_VALIDATION_FAILED" {
		t.Fatalf("refused document: %v", r)
	}
	if r := run(viewer, `mutation {`).data(t); get(r, "previewQuery", "errors", 0, "extensions", "code") != "GRAPHQL_PARSE_FAILED" {
		t.Fatalf("document that does not parse: %v", r)
	}
}

// evalString evaluates a JavaScript expression in the page and returns its
// string value, failing the test on an error.
func evalString(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// runQueryBox clicks the page's Run button (a DOM click: see
// TestBoardOpensAdoptedProject) and waits, 10 s at most, for a result that
// mentions total; it returns the result box's text.
func runQueryBox(t *testing.T, ctx context.Context) string {
	t.Helper()
	evalString(t, ctx, `(document.getElementById("run").click(), "")`)
	var result string
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(result, "total") && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		result = evalString(t, ctx, `document.getElementById("result").textContent`)
	}
	return result
}

// visit navigates to url (when not "") and waits up to 15 seconds for each
// CSS selector to match a visible element; on failure it says what the
// page shows.
func visit(t *testing.T, ctx context.Context, url string, selectors ...string) {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	var actions []chromedp.Action[chromedp.Void]
	if url != "" {
		actions = append(actions, chromedp.Navigate(url))
	}
	for _, sel := range selectors {
		// CSS: a plain string is a DOM search, which also matches text such
		// as the selector in the page's own <style>, never visible.
		actions = append(actions, chromedp.WaitVisible(chromedp.CSS(sel)))
	}
	if err := chromedp.Do(ctx); err != nil { // starts the browser on ctx, not on wctx
		t.Fatal(err)
	}
	if err := chromedp.Do(wctx, actions...); err != nil {
		page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + "\n" + document.body.innerText`))
		t.Fatalf("%s %v: %v; the page shows:\n%s", url, selectors, err, page)
	}
}

// TestPreviewPageInBrowser opens an account project's preview link in
// Chromium: the model and sample rows show, no query box does; once the
// plan quota is used up the page shows the 429. A guest project's preview
// page runs a query in its query box.
func TestPreviewPageInBrowser(t *testing.T) {
	ctx := browser(t)
	s := startServer(t, func(c *serveConfig) { c.QuotaPro = 3 })
	seedPool(t, s)
	sh := newShop(t, s, "browse@example.com", "br")
	clearOfWindowEdge(t, 24*time.Hour, time.Minute) // quotas reset at UTC midnight
	link := sh.setSharing(t, true)["previewUrl"].(string)
	js := func(expr string) string { t.Helper(); return evalString(t, ctx, expr) }
	visit(t, ctx, link, `[data-table="Product"] table.sample`) // 1
	tables := js(`document.getElementById("tables").innerText`)
	for _, want := range []string{"Product", "Category", "Sample: products (first 4 of 4)", "Desk", "120.5", "Lighting"} {
		if !strings.Contains(tables, want) {
			t.Errorf("page lacks %q: %s", want, tables)
		}
	}
	if got := js(`[document.getElementById("runner").hidden, document.getElementById("api").hidden, document.getElementById("sdl").textContent.includes("type Product")].join()`); got != "true,false,true" {
		t.Fatalf("runner hidden, API note hidden, SDL shown = %s", got)
	}
	if shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
		_ = os.WriteFile(filepath.Join(os.TempDir(), "mockgql-preview.png"), shot, 0o600)
	}
	sh.query(`{ products { total } }`, nil).data(t) // 2
	sh.query(`{ products { total } }`, nil).data(t) // 3
	visit(t, ctx, link, `#error`)
	if msg := js(`document.getElementById("error").textContent`); !strings.Contains(msg, "429 TOO_MANY_REQUESTS") || !strings.Contains(msg, "retry in") {
		t.Fatalf("over-quota page: %q", msg)
	}

	_, g := guestWithCategories(t, s)
	visit(t, ctx, s.base+"/preview/"+g["slug"].(string)+"?token="+g["shareToken"].(string), `#runner`)
	result := runQueryBox(t, ctx)
	if !strings.Contains(result, `"total": 3`) {
		t.Fatalf("guest query box: %q", result)
	}
}

// TestBoardAccountProjectPreview: on the board a signed-in member runs a
// query against an account project (through previewQuery) and turns its
// preview link on.
func TestBoardAccountProjectPreview(t *testing.T) {
	ctx := browser(t)
	s := startServer(t)
	sh := newShop(t, s, "boardq@example.com", "bq")
	pid := sh.project["id"].(string)
	js := func(expr string) string { t.Helper(); return evalString(t, ctx, expr) }
	if err := chromedp.Do(ctx, chromedp.Navigate(s.base+"/healthz")); err != nil {
		t.Fatal(err)
	}
	js(`(document.cookie = "mgq_jwt=` + sh.owner.token + `; path=/", "")`)
	visit(t, ctx, s.base+"/board/projects/"+pid+"/playground", `.graphiql-execute-button`, `#shareOn`)
	evalString(t, ctx, `(document.querySelector(".graphiql-execute-button").click(), "")`)
	var result string
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(result, "total") && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		result = evalString(t, ctx, `(document.querySelector(".result-window") || {innerText: ""}).innerText`)
	}
	if !strings.Contains(result, `"total": 4`) { // the first LIST operation: products
		t.Fatalf("board query on an account project: %q", result)
	}
	js(`(document.getElementById("shareOn").click(), "")`)
	visit(t, ctx, "", `#shareOff`)
	link := js(`document.getElementById("previewLink").textContent`)
	if r := previewData(s, sh.slug, tokenOf(t, link)); r.Status != 200 {
		t.Fatalf("the board's preview link: %q → %d %s", link, r.Status, r.Raw)
	}
}
