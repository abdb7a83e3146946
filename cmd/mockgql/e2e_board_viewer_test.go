package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestProjectMyRole: Project.myRole over real HTTP for each role and
// project kind; a caller who may not open the project gets its error.
func TestProjectMyRole(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "myrole-owner@example.com", "mr")
	pid := sh.project["id"].(string)
	const q = `query($id: ID) { project(id: $id) { id myRole } }`
	vars := map[string]any{"id": pid}
	guest := &assistant{s: s}
	gid := get(guest.must(`mutation { createGuestProject(name: "Mine") { projectId } }`, nil), "createGuestProject", "projectId").(string)
	session := &assistant{s: s}
	sid := get(session.must(`mutation { createSessionProject(name: "Assistant's") { projectId } }`, nil), "createSessionProject", "projectId").(string)
	if got := get(session.must(`{ sessionProject { myRole } }`, nil), "sessionProject", "myRole"); got != "OWNER" {
		t.Errorf("/public-graphql sessionProject.myRole = %v, want OWNER", got)
	}
	stranger := s.signUp("myrole-stranger@example.com")
	viewer := sh.member(t, "myrole-viewer@example.com", "VIEWER")
	if got := get(viewer.must(`{ account { myRole } }`, nil), "account", "myRole"); got != "VIEWER" {
		t.Errorf("the viewer's Account.myRole = %v", got)
	}

	tests := []struct {
		name    string
		do      func(query string, vars map[string]any) response
		project string
		want    string // the role, or the error code
	}{
		{"owner", sh.owner.gql, pid, "OWNER"},
		{"admin", sh.member(t, "myrole-admin@example.com", "ADMIN").gql, pid, "ADMIN"},
		{"editor", sh.member(t, "myrole-editor@example.com", "EDITOR").gql, pid, "EDITOR"},
		{"viewer", viewer.gql, pid, "VIEWER"},
		{"management key", func(q string, v map[string]any) response {
			return s.gql("/graphql", q, v, "Authorization", "Bearer "+sh.mgmtKey)
		}, pid, "EDITOR"},
		{"guest project's session", sessionOn(s, guest), gid, "OWNER"},
		{"session project's session", sessionOn(s, session), sid, "OWNER"},
		{"non-member", stranger.gql, pid, "NOT_FOUND"},
		{"another session's guest project", sessionOn(s, session), gid, "FORBIDDEN"},
		{"signed-in stranger, session project", stranger.gql, sid, "FORBIDDEN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vars["id"] = tt.project
			r := tt.do(q, vars)
			if code := r.errCode(); code != "" {
				if code != tt.want || !strings.Contains(string(r.Raw), `"project":null`) {
					t.Fatalf("got %s, want %s", r.Raw, tt.want)
				}
				return
			}
			if got := get(r.data(t), "project", "myRole"); got != tt.want {
				t.Fatalf("myRole = %v, want %s (%s)", got, tt.want, r.Raw)
			}
		})
	}
}

// sessionOn runs management requests with the assistant's session cookie,
// as the board of the browser that holds it does.
func sessionOn(s *server, a *assistant) func(string, map[string]any) response {
	return func(q string, v map[string]any) response { return s.gql("/graphql", q, v, "Cookie", a.cookie) }
}

// readOnlyControls are the controls a viewer may use, by a part of their
// accessible name: they read (refresh, details, copy, export, sample rows,
// a dataset's paths and samples, the key a subscription in the playground
// runs with and the sandbox its requests run in, as queries run there). Any
// other enabled control on a viewer's page is an edit control and fails
// the test.
var readOnlyControls = []string{"Refresh", "Details", "Copy as curl", "Copy header", "Copy the runtime URL", "Refresh every 5 seconds",
	"OpenAPI JSON", "OpenAPI YAML", "Show the first rows", "field paths", "Sample documents",
	"API key for subscriptions", "Sandbox"}

// editControls lists the visible, enabled controls of the page outside
// GraphiQL's editor (a viewer runs queries there) whose name is not in
// readOnlyControls, each as "tag: name".
func (p *page) editControls() []string {
	p.t.Helper()
	allowed, _ := json.Marshal(readOnlyControls)
	got := p.js(`(() => {
		const allowed = ` + string(allowed) + `;
		const name = (e) => (e.getAttribute("aria-label") || (e.labels && e.labels[0] && e.labels[0].textContent) || e.textContent || e.value || "").trim();
		const shown = (e) => !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length);
		return [...document.querySelectorAll("main button, main input, main select, main textarea, main summary, main [contenteditable]")]
			.filter((e) => shown(e) && !e.disabled && !e.closest("#graphiql") && !e.closest("fieldset:disabled"))
			.map((e) => e.tagName.toLowerCase() + ": " + name(e))
			.filter((x) => !allowed.some((a) => x.slice(x.indexOf(": ") + 2).includes(a)));
	})()`)
	var out []string
	for _, x := range got.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// TestBoardViewerReadOnly: an owner invites a VIEWER; on every tab of the
// project the viewer sees the banner and no edit control, reads what there
// is (rows, the playground, the OpenAPI export, the request log), and the
// API still refuses their edit; raised to EDITOR, after a reload the edit
// controls are back.
func TestBoardViewerReadOnly(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "board-viewer-owner@example.com", "bv")
	pid := sh.project["id"].(string)
	sh.query(`{ products { total } }`, nil).data(t) // an entry for the request log
	viewer := sh.member(t, "board-viewer@example.com", "VIEWER")
	viewerID := get(viewer.must(`{ me { id } }`, nil), "me", "id")
	base := "/board/projects/" + pid
	p := newPage(t, s)
	p.signedIn(viewer)

	pages := []struct {
		path, ready string
		project     bool // a project's tab, with the banner
	}{
		{base, `section[data-table="Product"] table.attrs`, true},
		{base + "/diagram", "svg.diagram", true},
		{base + "/design", `tr[data-operation="searchProducts"]`, true},
		{base + "/playground", "#pgCurl", true},
		{base + "/log", "#logEntries tr[data-entry]", true},
		{base + "/keys", "#keysNeedEditor", true},
		{"/board/projects", `tr[data-project="bv shop"]`, false},
		{"/board/data", `[data-dataset="bvproducts"]`, false},
	}
	for _, pg := range pages {
		t.Run("read-only "+pg.path, func(t *testing.T) {
			p.open(pg.path, pg.ready)
			if pg.project {
				p.waitText("#roleBanner", "You can view this project. Editing needs the Editor role")
			} else {
				p.waitText("main", "needs the Editor role")
			}
			if bad := p.editControls(); len(bad) > 0 {
				t.Errorf("a viewer gets edit controls: %q", bad)
			}
			p.axe("viewer " + pg.path)
		})
	}
	p.open(base+"/design", `tr[data-operation="searchProducts"]`)
	p.waitText(`tr[data-operation="searchProducts"]`, "minPrice: price gte")
	p.waitText("#codeNeedsEditor", "needs the Editor role")
	p.shot("viewer-design")
	p.clickText("#main button", "OpenAPI JSON")
	p.waitText("#main .status.ok", "Downloaded "+sh.slug+".openapi.json")
	p.open(base, `section[data-table="Product"] table.attrs`)
	p.clickText(`section[data-table="Product"] button`, "Show the first rows (products)")
	p.waitText(`section[data-table="Product"] .view-rows`, "rows; the first")
	p.shot("viewer-model")
	p.playground(pid, `{ products(pageSize: 1) { total } }`, `"total"`)

	t.Run("the API still refuses the viewer's edit", func(t *testing.T) {
		got, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`fetch("/graphql", {method: "POST", credentials: "same-origin", headers: {"Content-Type": "application/json"},
			body: JSON.stringify({query: "mutation($p: ID!) { createModellingTable(input: {projectId: $p, name: \"Sneaky\"}) { id } }", variables: {p: "`+pid+`"}})})
			.then((r) => r.json()).then((b) => JSON.stringify(b))`, chromedp.EvalAwaitPromise))
		if err != nil || !strings.Contains(got, `"code":"FORBIDDEN"`) || !strings.Contains(got, `"createModellingTable":null`) && !strings.Contains(got, `"data":null`) {
			t.Fatalf("a viewer's createModellingTable: %s, %v; want FORBIDDEN", got, err)
		}
		if n := len(get(sh.owner.must(`query($id: ID) { project(id: $id) { tables { id } } }`, map[string]any{"id": pid}), "project", "tables").([]any)); n != 2 {
			t.Fatalf("after the refused edit the project has %d tables, want 2", n)
		}
	})

	sh.owner.must(`mutation($u: ID!) { setMemberRole(userId: $u, role: EDITOR) { role } }`, map[string]any{"u": viewerID})
	for _, tab := range []struct{ path, control string }{
		{base, "#addTable"},
		{base + "/design", "#generateOps"},
		{base + "/keys", "#createKey"},
		{base + "/log", "#logClear"},
		{"/board/projects", "#create"},
		{"/board/data", "#dsFile"},
	} {
		p.open(tab.path, tab.control)
		if p.js(`!!document.getElementById("roleBanner")`) != false {
			t.Errorf("%s: an editor still gets the viewer's banner", tab.path)
		}
		if len(p.editControls()) == 0 {
			t.Errorf("%s: an editor gets no edit control", tab.path)
		}
	}
}
