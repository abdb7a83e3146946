package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// otherOrigin serves a blank page on its own loopback listener: a page of
// another origin than the server's, as a frontend's dev server is.
func otherOrigin(t *testing.T) *httptest.Server {
	t.Helper()
	o := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html lang="en"><title>frontend</title><p>frontend</p></html>`)
	}))
	t.Cleanup(o.Close)
	return o
}

// fetchFrom runs fetch(url) in the page p shows and returns the answer's
// status and body, or "blocked: …" when the browser kept the answer from
// the page (CORS).
func (p *page) fetchFrom(url, method string, headers map[string]string, body string) string {
	p.t.Helper()
	if headers == nil {
		headers = map[string]string{}
	}
	init := map[string]any{"method": method, "headers": headers}
	if body != "" {
		init["body"] = body
	}
	u, _ := json.Marshal(url)
	in, _ := json.Marshal(init)
	got, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](fmt.Sprintf(`fetch(%s, %s).then(async (r) => r.status + " " + await r.text(), (e) => "blocked: " + e)`, u, in),
		chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("fetch %s: %v", url, err)
	}
	return got
}

// guestAndAccount starts a server with the demo guest project (its slug
// and share token) and an account project with keys (newShop).
func guestAndAccount(t *testing.T) (*server, demoInfo, *shop) {
	t.Helper()
	s := startServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	demo, err := s.run.buildDemo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return s, demo, newShop(t, s, "owner@example.com", "cors")
}

// TestCORSFromAnotherOrigin: a page on another origin calls the runtime in
// Chromium: a guest project with its share token (and reads a refusal's
// error body), an account project with a key from an allowed origin; the
// same call from an origin not on the project's list is blocked.
func TestCORSFromAnotherOrigin(t *testing.T) {
	s, demo, sh := guestAndAccount(t)
	front := otherOrigin(t)
	port := front.URL[strings.LastIndex(front.URL, ":")+1:]
	allowed := "http://localhost:" + port // front.URL (127.0.0.1) is not on the list
	pid := sh.project["id"]
	for _, bad := range []string{"*", "http://localhost:5173/app", "localhost:5173"} {
		r := sh.owner.gql(`mutation($p:ID!,$o:[String!]){ updateProject(projectId:$p, allowedOrigins:$o) { id } }`, map[string]any{"p": pid, "o": []string{bad}})
		if code := get(r.JSON, "errors", 0, "extensions", "code"); code != "BAD_USER_INPUT" {
			t.Fatalf("allowedOrigins [%q]: %s", bad, r.Raw)
		}
	}
	d := sh.owner.must(`mutation($p:ID!,$o:[String!]){ updateProject(projectId:$p, allowedOrigins:$o) { allowedOrigins } }`,
		map[string]any{"p": pid, "o": []string{allowed, "http://localhost:5173"}})
	if got := fmt.Sprint(get(d, "updateProject", "allowedOrigins")); got != fmt.Sprintf("[%s http://localhost:5173]", allowed) {
		t.Fatalf("allowedOrigins read back as %s", got)
	}

	p := newPage(t, s)
	query := `{"query":"{ products(pageSize: 2) { total } }"}`
	json := map[string]string{"Content-Type": "application/json"}
	withKey := map[string]string{"Content-Type": "application/json", "Authorization": "Bearer " + sh.rtKey}
	for _, tc := range []struct {
		name, page, url string
		headers         map[string]string
		method, body    string
		want            string
	}{
		{"guest, share token", front.URL, s.base + "/mock/" + demo.Slug + "/graphql?token=" + demo.ShareToken, json, "POST", query, `200 {"data":{"products":{"total":`},
		{"guest, GET", front.URL, s.base + "/mock/" + demo.Slug + "/graphql?token=" + demo.ShareToken + "&query=%7B__typename%7D", nil, "GET", "", `200 {"data":{"__typename":"Query"}}`},
		{"guest, wrong token: the refusal is readable", front.URL, s.base + "/mock/" + demo.Slug + "/graphql?token=shr_wrong", json, "POST", query, `401 {"statusCode":401,"code":"UNAUTHENTICATED"`},
		{"account, key, allowed origin", allowed, s.base + sh.runtime, withKey, "POST", query, `200 {"data":{"products":{"total":`},
		{"account, no key, allowed origin: the refusal is readable", allowed, s.base + sh.runtime, json, "POST", query, `401 {"statusCode":401`},
		{"account, key, origin not allowed", front.URL, s.base + sh.runtime, withKey, "POST", query, "blocked: TypeError: Failed to fetch"},
		{"account, GET, origin not allowed", front.URL, s.base + sh.runtime + "?query=%7B__typename%7D", map[string]string{"X-API-Key": sh.rtKey}, "GET", "", "blocked: TypeError: Failed to fetch"},
	} {
		if err := chromedp.Do(p.ctx, chromedp.Navigate(tc.page+"/")); err != nil {
			t.Fatal(err)
		}
		if got := p.fetchFrom(tc.url, tc.method, tc.headers, tc.body); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: from %s: %s, want %s…", tc.name, tc.page, got, tc.want)
		}
	}
}

// runInGraphiQL types query into GraphiQL's editor, runs it and waits for
// the result to contain want.
func (p *page) runInGraphiQL(query, want string) {
	p.t.Helper()
	q, _ := json.Marshal(query)
	p.wait(".graphiql-query-editor .CodeMirror")
	p.js(fmt.Sprintf(`(document.querySelector(".graphiql-query-editor .CodeMirror").CodeMirror.setValue(%s), true)`, q))
	p.click(".graphiql-execute-button")
	p.waitText(".result-window", want)
}

// openDocs opens GraphiQL's documentation explorer and waits until it
// lists the schema's root query type: introspection worked.
func (p *page) openDocs() {
	p.t.Helper()
	p.click(`button[aria-label="Show Documentation Explorer"]`)
	p.waitText(".graphiql-doc-explorer", "Query")
}

// TestGraphiQLOnRuntime: a browser opening a project's runtime URL gets
// GraphiQL, which introspects the schema (the docs list its types) and
// runs a query: a guest project with the share token from the URL, an
// account project with the key typed into the labelled field it asks for
// before anything is sent.
func TestGraphiQLOnRuntime(t *testing.T) {
	s, demo, sh := guestAndAccount(t)
	p := newPage(t, s)

	p.open("/mock/"+demo.Slug+"/graphql?token="+demo.ShareToken, ".graphiql-container")
	if !strings.Contains(p.text("#tokenNote"), "Share token") || p.js(`document.getElementById("keyBox").hidden`) != true {
		t.Fatalf("guest page: token note %q", p.text("#tokenNote"))
	}
	p.openDocs()
	p.runInGraphiQL(`{ products(pageSize: 2) { total items { name } } }`, `"total"`)
	p.shot("runtime-graphiql-guest")

	// An account project's page asks for the key first and starts
	// GraphiQL (and its introspection) only with one.
	p.open(sh.runtime, "#gateKey")
	if label := p.text(`label[for="gateKey"]`); !strings.Contains(label, "API key") {
		t.Fatalf("the key field's label says %q", label)
	}
	if p.js(`document.querySelector(".graphiql-container") === null`) != true {
		t.Fatal("GraphiQL started before a key was given")
	}
	p.set("#gateKey", sh.rtKey)
	p.submit("#gateKey")
	p.waitText(".graphiql-container", "")
	if label := p.text(`label[for="apiKey"]`); !strings.Contains(label, "API key") {
		t.Fatalf("the header's key field's label says %q", label)
	}
	p.openDocs()
	p.runInGraphiQL(`{ products(pageSize: 2) { total } }`, `"total"`)
	p.shot("runtime-graphiql-account")
}

// TestBoardAllowedOrigins: the API keys tab lists an account project's
// allowed origins; one added there opens the runtime to a page on that
// origin; "*" is refused with the server's reason and changes nothing.
func TestBoardAllowedOrigins(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "origins@example.com", "or")
	front := otherOrigin(t)
	p := newPage(t, s)
	p.signedIn(sh.owner)
	pid := sh.project["id"].(string)
	p.open("/board/projects/"+pid+"/keys", "#addOrigin")
	p.click("#addOrigin")
	p.set("#originList input", "*")
	p.click("#saveOrigins")
	p.waitText("#originStatus", `"*" is not allowed`)
	p.set("#originList input", front.URL)
	p.click("#saveOrigins")
	p.waitText("#originStatus", "Saved: "+front.URL)
	if label := p.text(`#originList label`); label != "Allowed origin 1" {
		t.Fatalf("the origin's label says %q", label)
	}
	p.shot("board-allowed-origins")
	d := sh.owner.must(`query($p:ID){ project(id:$p) { allowedOrigins } }`, map[string]any{"p": pid})
	if got := fmt.Sprint(get(d, "project", "allowedOrigins")); got != "["+front.URL+"]" {
		t.Fatalf("allowedOrigins on the server: %s", got)
	}
	if err := chromedp.Do(p.ctx, chromedp.Navigate(front.URL+"/")); err != nil {
		t.Fatal(err)
	}
	got := p.fetchFrom(s.base+sh.runtime, "POST", map[string]string{"Content-Type": "application/json", "X-API-Key": sh.rtKey}, `{"query":"{ products(pageSize: 1) { total } }"}`)
	if !strings.HasPrefix(got, `200 {"data":{"products":{"total":`) {
		t.Fatalf("from the origin saved on the board: %s", got)
	}
}
