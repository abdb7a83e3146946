package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBoardKeepAdopted (issue 22 item 4): an assistant makes a session
// project over /public-graphql; a person already signed in opens its
// adoption link, keeps it in their workspace with one click, and the page
// says what changed: an account project of that workspace, whose runtime
// answers only to API keys (the assistant's share-token URL now answers
// 401), its runtime URL, and that keys need the Professional plan. The
// project is in their projects list. Screenshots at 1280 and 390 px,
// axe-core on each.
func TestBoardKeepAdopted(t *testing.T) {
	s := startServer(t)
	seedPool(t, s)
	a := &assistant{s: s}
	sp := buildSessionModel(t, a)
	pid := sp["projectId"].(string)
	shared := strings.TrimPrefix(sp["runtimeUrl"].(string), s.base)
	if r := s.gql(shared, `{ products(pageSize: 1) { total } }`, nil); r.Status != http.StatusOK {
		t.Fatalf("the share-token URL before keeping: %d %s", r.Status, r.Raw)
	}
	ann := s.signUp("ann-keep@example.com")

	p := newPage(t, s)
	p.signedIn(ann)
	if err := chromedp.Do(p.ctx, chromedp.Navigate(sp["adoptionUrl"].(string))); err != nil {
		t.Fatal(err)
	}
	p.waitText("#keepInWorkspace", "Keep it in Test's workspace")
	p.waitText("#banner", "unless you keep it in a workspace")
	if n := p.js(`!!document.querySelector("#keep") || !document.querySelector("#keepForm").hidden`); n != false {
		t.Errorf("a signed-in person is offered the sign-up form: %v", n)
	}
	p.shot("keep-offer")

	p.click("#keepInWorkspace") // the one click
	p.waitText("#kept", "Kept in Test's workspace")
	kept := p.text("#kept")
	for _, want := range []string{"now an account project of Test's workspace", "no longer expires",
		"answers only to API keys", "share token the assistant handed out stops working",
		"/mock/" + sp["slug"].(string) + "/graphql", "API keys need the Professional plan", "Change the plan under Account"} {
		if !strings.Contains(kept, want) {
			t.Errorf("the explanation lacks %q: %s", want, kept)
		}
	}
	if strings.Contains(kept, "token=") {
		t.Errorf("the explanation shows a share-token URL: %s", kept)
	}
	p.waitText("main .muted", "account project")
	p.shot("keep-kept")

	p.open("/board/projects", "main")
	p.waitText("main", "Shop for Ann")
	p.shot("keep-projects")

	if got := get(ann.must(`query($id: ID){ project(id: $id) { kind expiresAt shareToken } }`, map[string]any{"id": pid}), "project"); got.(map[string]any)["kind"] != "ACCOUNT" || got.(map[string]any)["expiresAt"] != nil {
		t.Fatalf("the kept project: %v", got)
	}
	if r := s.gql(shared, `{ products(pageSize: 1) { total } }`, nil); r.Status != http.StatusUnauthorized {
		t.Errorf("the share-token URL after keeping: %d %s (want 401, as the page says)", r.Status, r.Raw)
	}
	r := ann.gql(`mutation($p: ID!){ keepSessionProject(projectId: $p) { id } }`, map[string]any{"p": pid})
	if !strings.Contains(string(r.Raw), "NOT_FOUND") && !strings.Contains(string(r.Raw), "CONFLICT") {
		t.Errorf("keeping it again over the API: %s", r.Raw)
	}
}
