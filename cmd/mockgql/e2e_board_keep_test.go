package main

import (
	"fmt"
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
	// The API keys tab says the same (not "sign up", to a person signed in).
	p.click(`nav.tabs a[data-tab="keys"]`)
	p.waitText("#keysAfterKeep", "Keep it in a workspace (the button at the top)")
	p.click(`nav.tabs a[data-tab="model"]`)

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

// TestBoardKeepAdoptedElsewhere: a person who is editor in a teammate's
// PROFESSIONAL workspace as well as owner of their own picks the team's in
// the banner's workspace select; the board follows the project there and
// says to create a key under API keys (no plan change needed).
func TestBoardKeepAdoptedElsewhere(t *testing.T) {
	s := startServer(t)
	a := &assistant{s: s}
	sp := get(a.must(`mutation { createSessionProject(name: "Ann's mock") { projectId adoptionUrl } }`, nil), "createSessionProject").(map[string]any)
	d := s.gql("/graphql", `mutation { signUp(email: "ann-team@example.com", password: "correct horse", name: "Ann") { token } }`, nil).data(t)
	ann := &user{s: s, token: get(d, "signUp", "token").(string), email: "ann-team@example.com"}
	ann.must(`mutation { setPlan(plan: PROFESSIONAL) { plan } }`, nil)
	bo := s.signUp("bo-team@example.com")
	inv := get(ann.must(`mutation { inviteMember(email: "bo-team@example.com", role: EDITOR) { invitation { id } } }`, nil), "inviteMember", "invitation", "id")
	bo.must(`mutation($i: ID) { acceptInvitation(invitationId: $i) { id } }`, map[string]any{"i": inv})

	p := newPage(t, s)
	p.signedIn(bo)
	if err := chromedp.Do(p.ctx, chromedp.Navigate(sp["adoptionUrl"].(string))); err != nil {
		t.Fatal(err)
	}
	p.waitText("#keepInWorkspace", "Keep it")
	p.choose("#keepAccount", "Ann's workspace")
	p.shot("keep-select")
	p.click("#keepInWorkspace")
	p.waitText("#kept", "Kept in Ann's workspace")
	if k := p.text("#keptKeys"); !strings.Contains(k, "Create a key under API keys") {
		t.Errorf("on PROFESSIONAL the page says: %s", k)
	}
	if got := p.js(`document.querySelector("#workspace").selectedOptions[0].text`); got != "Ann's workspace (editor)" {
		t.Errorf("the board stayed in %v", got)
	}
	p.shot("keep-elsewhere")
	list := ann.must(`{ projects { id kind } }`, nil)
	if !strings.Contains(fmt.Sprint(list), sp["projectId"].(string)) {
		t.Errorf("Ann's workspace lists %v", list)
	}
}
