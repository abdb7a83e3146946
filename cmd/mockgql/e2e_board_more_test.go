package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mockgql/mockgql/internal/testdata"
)

// signedIn opens the board with u's session cookie, as after a login.
func (p *page) signedIn(u *user) {
	p.t.Helper()
	p.open("/healthz", "body")
	p.js(`(document.cookie = "mgq_jwt=` + u.token + `; path=/", true)`)
}

// TestBoardBreakingRenameWarning: renaming an operation that consumers
// use shows a warning naming what breaks and changes nothing until the
// person confirms; then the rename is made and listed as BREAKING.
func TestBoardBreakingRenameWarning(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "warn@example.com", "w")
	pid := sh.project["id"].(string)
	sh.owner.must(`mutation($p:ID!){ setSchemaBaseline(projectId:$p) }`, map[string]any{"p": pid})
	p := newPage(t, s)
	p.signedIn(sh.owner)
	p.open("/board/projects/"+pid+"/design", `tr[data-operation="categories"]`)
	p.set(`[aria-label="Name of operation categories"]`, "allCategories")
	p.click(`[aria-label="Rename categories"]`)
	warning := p.waitText("#breakingWarning", "Query.categories")
	if !strings.Contains(warning, "This change breaks apps that use the API") {
		t.Fatalf("warning: %q", warning)
	}
	p.shot("breaking-warning")
	ops := func() string {
		return fmt.Sprint(sh.owner.must(`query($id:ID){ project(id:$id) { operations { name } } }`, map[string]any{"id": pid}))
	}
	if strings.Contains(ops(), "allCategories") {
		t.Fatal("the rename was made before the person confirmed")
	}
	p.clickText("#breakingWarning button", "Cancel")
	if p.text("#confirm") != "" || strings.Contains(ops(), "allCategories") {
		t.Fatal("cancel left the warning or made the rename")
	}
	// A rename nobody uses yet (a fresh operation) needs no confirmation.
	p.set(`[aria-label="Name of operation categories"]`, "allCategories")
	p.click(`[aria-label="Rename categories"]`)
	p.click("#confirmBreaking")
	p.wait(`tr[data-operation="allCategories"]`)
	p.waitText(`#changes`, "BREAKING")
	if !strings.Contains(ops(), "allCategories") {
		t.Fatal("the confirmed rename was not made")
	}
	// The exports: what the download buttons hand to the browser.
	p.js(`(window.__blobs = [], URL.createObjectURL = ((make) => (b) => (window.__blobs.push(b), make(b)))(URL.createObjectURL), true)`)
	p.clickText("button", "OpenAPI JSON")
	p.waitText("#wizard + .card .status", "Downloaded w-shop.openapi.json")
	doc, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`window.__blobs[0].text()`, chromedp.EvalAwaitPromise))
	if err != nil || !strings.Contains(doc, `"openapi": "3.1.0"`) && !strings.Contains(doc, `"openapi":"3.1.0"`) || !strings.Contains(doc, "allCategories") {
		t.Fatalf("exported OpenAPI: %v %.300s", err, doc)
	}
	p.click("#exportCode")
	p.waitText("#wizard + .card .status", "Downloaded w-shop-backend.zip")
	if zip := p.js(`window.__blobs[1].size > 1000 && window.__blobs[1].type`); zip != "application/zip" {
		t.Fatalf("code package: %v", zip)
	}
	// On the Model tab: renaming an attribute warns too; cancel puts the name back.
	p.open("/board/projects/"+pid, `section[data-table="Product"] tr[data-attribute="stock"]`)
	p.set(`[aria-label="Name of Product.stock"]`, "inventory")
	p.waitText(`section[data-table="Product"] #breakingWarning`, "Product.stock")
	p.clickText(`section[data-table="Product"] #breakingWarning button`, "Cancel")
	if v := p.js(`document.querySelector('[aria-label="Name of Product.stock"]').value`); v != "stock" {
		t.Fatalf("after cancel the name field says %v", v)
	}
	// Deleting an attribute warns as well; confirmed, it is gone.
	p.click(`[aria-label="Delete Product.stock"]`)
	p.waitText(`section[data-table="Product"] #breakingWarning`, "Product.stock")
	p.click(`section[data-table="Product"] #confirmBreaking`)
	p.gone(`section[data-table="Product"] tr[data-attribute="stock"]`)
	p.wait(`section[data-table="Product"] tr[data-attribute="name"]`)
	r := sh.owner.gql(`query($p:ID!){ schemaChangesOfEdit(projectId:$p, edit:{kind: RENAME_OPERATION, id: "nope", name: "x"}) { path } }`, map[string]any{"p": pid})
	if r.errCode() != "NOT_FOUND" && r.errCode() != "BAD_USER_INPUT" {
		t.Fatalf("an edit of an unknown operation: %s", r.Raw)
	}
}

// TestBoardGuestAndDemo: "try without an account" starts a guest project
// on the board that the signed-out project list shows; the demo opens on
// the board (model, diagram, a query with its share token) and the landing
// page links to it.
func TestBoardGuestAndDemo(t *testing.T) {
	s := startServer(t)
	// Startup prints the board's address and the demo's preview next to the curl command.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	err = s.run.seedDemo()
	os.Stdout = stdout
	w.Close()
	printed, _ := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Board (sign up, log in, or try without an account):\n  " + s.base + "/\n",
		"on the board: " + s.base + "/board/demo", "preview page: " + s.base + "/preview/demo?token=shr_", "curl -s '" + s.base + "/mock/demo/graphql?token="} {
		if !strings.Contains(string(printed), want) {
			t.Errorf("startup output lacks %q:\n%s", want, printed)
		}
	}
	p := newPage(t, s)
	p.open("/", "#guest")
	p.wait("#demoPreview")
	p.set("#guestName", "Try it")
	p.submit("#guestName")
	p.wait("#tableName")
	p.waitText("main .muted", "guest project")
	p.choose("#tableSource", "products")
	p.set("#tableName", "Product")
	p.click("#addTable")
	p.wait(`section[data-table="Product"]`)
	p.open("/board/projects", `#projects`)
	p.waitText("#projects", "Try it")
	p.waitText("main", "Not signed in")

	p.open("/board/demo", "svg.diagram")
	p.waitText("main", "Demo shop")
	if n := p.js(`document.querySelectorAll("svg.diagram .node").length`); n.(float64) < 3 {
		t.Fatalf("demo diagram nodes: %v", n)
	}
	p.clickText("main button", "Run")
	p.waitText("main pre[aria-live]", `"total"`)
	p.shot("demo")
	slug, token := s.run.srv.Demo()
	p.open("/preview/"+slug+"?token="+token, `[data-table="Product"] table.sample`)
	p.shot("preview")
}

// TestBoardLargeProject: 20 tables of 30 attributes, 19 relations, 50 keys
// and a dataset of a million rows stay usable: the pages show counts and
// samples, and the diagram places 20 tables without overlap.
func TestBoardLargeProject(t *testing.T) {
	s := startServer(t)
	u := s.signUp("big@example.com")
	u.must(`mutation { setPlan(plan: PROFESSIONAL) { plan } }`, nil)
	var b strings.Builder
	b.WriteString("id,n,label\n")
	for i := 1; i <= 1_000_000; i++ {
		fmt.Fprintf(&b, "%d,%d,r%d\n", i, i%97, i%13)
	}
	if r := s.do("POST", "/datasets/big?format=csv", []byte(b.String()), "Authorization", "Bearer "+u.token, "Content-Type", "text/csv"); r.Status != http.StatusOK {
		t.Fatalf("upload: %d %s", r.Status, r.Raw)
	}
	pid := get(u.must(`mutation { createProject(name: "Big") { id } }`, nil), "createProject", "id").(string)
	var ids []string
	for i := range 20 {
		id := get(u.must(`mutation($p:ID!,$n:String!){ createModellingTable(input:{projectId:$p, name:$n, source:{importCode:"big"}}) { id } }`,
			map[string]any{"p": pid, "n": fmt.Sprintf("Table%02d", i)}), "createModellingTable", "id").(string)
		ids = append(ids, id)
		for j := range 30 {
			path := []string{"id", "n", "label"}[j%3]
			u.must(`mutation($t:ID!,$n:String!,$path:String!){ createModellingAttribute(input:{tableId:$t, name:$n, type: STRING, mappingType: SOURCE, sourceMapping:{path:$path}}) { id } }`,
				map[string]any{"t": id, "n": fmt.Sprintf("attribute%02d", j), "path": path})
		}
	}
	for i := 1; i < 20; i++ {
		u.must(`mutation($s:ID!,$t:ID!,$f:String!){ createRelation(input:{sourceTableId:$s, targetTableId:$t, cardinality: ONE_TO_MANY, sourceAttribute:"attribute00", targetAttribute:"attribute01", fieldName:$f}) { id } }`,
			map[string]any{"s": ids[(i-1)/2], "t": ids[i], "f": fmt.Sprintf("children%02d", i)})
	}
	u.must(`mutation($p:ID!){ generateDefaultGqlOperations(projectId:$p) { name } }`, map[string]any{"p": pid})
	for i := range 50 {
		u.must(`mutation($p:ID!,$n:String!){ createApiKey(projectId:$p, name:$n, scope: RUNTIME) { value } }`, map[string]any{"p": pid, "n": fmt.Sprintf("key %02d", i)})
	}
	p := newPage(t, s)
	p.signedIn(u)
	p.open("/board/data", `[data-dataset="big"]`)
	p.waitText(`[data-dataset="big"]`, "1,000,000 records")
	p.shot("large-data")
	p.open("/board/projects/"+pid, `section[data-table="Table19"]`)
	if n := p.js(`document.querySelectorAll("tr[data-attribute]").length`); n != float64(600) {
		t.Fatalf("attribute rows: %v", n)
	}
	p.open("/board/projects/"+pid+"/diagram", "svg.diagram")
	p.diagramLaidOut(20, 4)
	// On a phone the diagram is drawn again for its width (one box a row),
	// not the 1280 px drawing shrunk to a third: its text stays 12 px.
	p.phone()
	p.diagramLaidOut(20, 1)
	p.shot("large-diagram")
	p.open("/board/projects/"+pid+"/keys", `tr[data-key="key 49"]`)
	if n := p.js(`document.querySelectorAll("tr[data-key]").length`); n != float64(50) {
		t.Fatalf("key rows: %v", n)
	}
}

// TestBoardBindImportedTableAndMembers: a table imported from OpenAPI comes
// unbound; the board binds it to a dataset and its attributes to the paths
// the import kept as hints, sets a constant and a generator (with a preview
// of its values) until it is ready; the account page invites a member,
// changes their role and removes them.
func TestBoardBindImportedTableAndMembers(t *testing.T) {
	doc := testdata.Read(t, "openapi", "petstore-v3.0.yaml")
	s := startServer(t)
	u := s.signUp("pets@example.com")
	u.importVia("pets", "json", `[{"id":1,"name":"Rex","tag":"dog"},{"id":2,"name":"Tom","tag":"cat"}]`, "").data(t)
	pid := get(u.must(`mutation { createProject(name: "Pets") { id } }`, nil), "createProject", "id").(string)
	u.must(`mutation($p:ID!,$d:String!){ importOpenApi(projectId:$p, document:$d, schemas:["Pet"]) { name } }`, map[string]any{"p": pid, "d": string(doc)})
	p := newPage(t, s)
	p.signedIn(u)
	card := `section[data-table="Pet"]`
	p.open("/board/projects/"+pid, card)
	p.waitText(card+" .notready", "not bound to a dataset")
	p.choose(card+" .binding select", "pets")
	p.clickText(card+" button", "Save binding")
	p.waitText(card+" .notready", "no attribute is bound to a field path of pets")

	row := card + ` tr[data-attribute="name"]`
	p.js(`(document.querySelector('` + row + ` details').open = true, true)`)
	p.choose(row+" .mapping select", "source")
	p.waitText(row+` [data-path="name"]`, "Rex")
	if pressed := p.js(`document.querySelector('` + row + ` [data-path="name"]').getAttribute("aria-pressed")`); pressed != "true" {
		t.Fatalf("the import's path hint is not preselected: %v", pressed)
	}
	p.clickText(row+" button", "Save mapping")
	p.waitText(card, "✓ ready")
	// The other hinted attributes in one go: id (tag's hint too, replaced by a constant below).
	p.click(`[data-bind-hinted="Pet"]`)
	p.waitText(card+` tr[data-attribute="id"]`, "id e.g. 1")

	row = card + ` tr[data-attribute="tag"]`
	p.js(`(document.querySelector('` + row + ` details').open = true, true)`)
	p.choose(row+" .mapping select", "constant")
	p.set(row+" .mapping input", `"pet"`)
	p.clickText(row+" button", "Save mapping")
	p.waitText(card+` tr[data-attribute="tag"]`, `constant "pet"`)

	form := `form.add-attribute[data-table="Pet"]`
	p.js(`(document.querySelector('` + form + `').closest("details").open = true, true)`)
	p.set(form+" input[type=text]", "owner")
	p.choose(form+" .mapping select", "generated")
	p.set(form+" .mapping input[type=search]", "person.email")
	p.click(form + ` .mapping [data-kind="person.email"]`)
	p.waitText(form+" .mapping ul.gen-preview", "@")
	p.shot("mappings")
	p.clickText(form+" button", "Add attribute")
	p.waitText(card+` tr[data-attribute="owner"]`, "generated person.email")

	// STARTER: no keys, no code package, and the board says why.
	p.open("/board/projects/"+pid+"/keys", "#planGate")
	p.waitText("#planGate", "API keys are available on the Professional plan and above")
	p.shot("keys-plan-gate")
	p.open("/board/projects/"+pid+"/design", "#exportCode")
	p.click("#exportCode")
	p.waitText("#wizard + .card .status", "Not available here")

	p.open("/board/account", "#inviteEmail")
	p.set("#inviteEmail", "cy@example.com")
	p.choose("#inviteRole", "viewer")
	p.clickText("main button", "Invite")
	p.waitText("#members", "cy@example.com")
	cy := s.signUp("cy@example.com") // pending until cy accepts it
	cy.accept(t)
	p.open("/board/account", `[aria-label="Role of cy@example.com"]`)
	p.choose(`[aria-label="Role of cy@example.com"]`, "admin")
	p.waitText("main .status.ok", "cy@example.com is now admin")
	if d := fmt.Sprint(u.must(`{ account { members { user { email } role } } }`, nil)); !strings.Contains(d, "role:ADMIN user:map[email:cy@example.com]") {
		t.Fatalf("members after the role change: %s", d)
	}
	p.click(`[aria-label="Remove cy@example.com"]`)
	p.click("#confirmYes")
	p.waitText("main .status.ok", "cy@example.com was removed")
	p.open("/board/account", "#members")
	if strings.Contains(p.text("#members"), "cy@example.com") {
		t.Fatal("the removed member is still listed")
	}
}

// TestBoardKeyboard: signing up and creating a project with the keyboard
// alone (Tab, typing, Enter), and the focused control shows a focus ring.
func TestBoardKeyboard(t *testing.T) {
	s := startServer(t)
	p := newPage(t, s)
	p.open("/", "#signup")
	keys := func(k string) {
		t.Helper()
		if err := chromedp.Do(p.ctx, chromedp.KeyEvent(k)); err != nil {
			t.Fatal(err)
		}
	}
	p.js(`(document.getElementById("suEmail").focus(), true)`)
	keys("kim@example.com")
	if ring := p.js(`getComputedStyle(document.activeElement).outlineStyle`); ring != "solid" {
		t.Errorf("focused email field's outline: %v", ring)
	}
	keys("\t") // the name field
	keys("\t") // the password
	keys("a long password")
	keys("\r")
	p.wait("#newName")
	p.js(`(document.getElementById("newName").focus(), true)`)
	keys("By keyboard")
	keys("\r")
	p.wait("#tableName")
	p.waitText("main h1", "By keyboard")
	// A move inside the board puts the focus on the new page's content;
	// on a fresh load, Tab from the top reaches the skip link first.
	if got := p.js(`document.activeElement.id`); got != "main" {
		t.Errorf("focus after moving to the new project: %v", got)
	}
	p.open(strings.TrimPrefix(p.location(), s.base), "main h1")
	keys("\t")
	if got := p.js(`document.activeElement.textContent`); got != "Skip to content" {
		t.Errorf("first Tab stop: %v", got)
	}
}

// diagramLaidOut waits until the diagram on the page is drawn for the
// window's width, cols boxes to its widest row and at full size (its
// 12 px text not shrunk), and fails when any of its n boxes overlap or an
// arrow runs through a box.
func (p *page) diagramLaidOut(n, cols int) {
	p.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		got := p.js(`(() => { const svg = document.querySelector("svg.diagram"); if (!svg) return [0, 0];
			const xs = new Set([...svg.querySelectorAll(".node")].map((g) => g.transform.baseVal[0].matrix.e));
			return [xs.size, svg.getScreenCTM().a]; })()`).([]any)
		if got[0] == float64(cols) && got[1].(float64) > 0.99 {
			break
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the diagram has %v columns drawn at scale %v (%d at 1 wanted)", got[0], got[1], cols)
		}
		time.Sleep(50 * time.Millisecond)
	}
	overlap := p.js(`(() => { const r = [...document.querySelectorAll("svg.diagram .node > rect:first-child")].map((e) => e.getBoundingClientRect());
		for (let i = 0; i < r.length; i++) for (let j = i + 1; j < r.length; j++) {
			const a = r[i], b = r[j];
			if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) return i + "/" + j;
		}
		return r.length; })()`)
	if overlap != float64(n) {
		p.t.Fatalf("diagram: %v (%d boxes without overlap wanted)", overlap, n)
	}
	// No arrow runs through a box: sample every arrow's path and look for a
	// point inside a box other than just at its own ends.
	crossing := p.js(`(() => { const svg = document.querySelector("svg.diagram"), m = svg.getScreenCTM();
		const boxes = [...svg.querySelectorAll(".node > rect:first-child")].map((e) => e.getBoundingClientRect());
		for (const path of svg.querySelectorAll("path.edge")) {
			const len = path.getTotalLength();
			for (let l = 6; l < len - 6; l += 4) {
				const q = path.getPointAtLength(l).matrixTransform(m);
				for (const b of boxes) if (q.x > b.left + 1 && q.x < b.right - 1 && q.y > b.top + 1 && q.y < b.bottom - 1) return "an arrow crosses a box at " + Math.round(q.x) + "," + Math.round(q.y);
			}
		}
		return ""; })()`)
	if crossing != "" {
		p.t.Fatalf("diagram: %v", crossing)
	}
}
