package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// actions counts what a person does on the board: clicks, fields filled,
// options changed, files picked, the query typed and run.
type actions struct {
	p *page
	n int
}

func (a *actions) click(sel string)        { a.n++; a.p.click(sel) }
func (a *actions) set(sel, value string)   { a.n++; a.p.set(sel, value) }
func (a *actions) submit(sel string)       { a.n++; a.p.submit(sel) }
func (a *actions) clickText(sel, l string) { a.n++; a.p.clickText(sel, l) }
func (a *actions) file(sel, path string) {
	a.p.t.Helper()
	a.n++
	if err := chromedp.Do(a.p.ctx, chromedp.SetUploadFiles(sel, []string{path})); err != nil {
		a.p.t.Fatal(err)
	}
}

// tempFile writes body to name in a temporary folder and returns its path.
func tempFile(t *testing.T, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// markWindow sets a marker on the window that a full page load would lose.
func (p *page) markWindow() { p.js(`(window.__mark = "kept", true)`) }

// windowKept fails the test when the document was loaded again since markWindow.
func (p *page) windowKept(when string) {
	p.t.Helper()
	if v := p.js(`window.__mark || ""`); v != "kept" {
		p.t.Fatalf("%s: the page was loaded again (the window marker is gone)", when)
	}
}

// TestBoardOneStepAPI is the path from the landing page to rows in
// the playground, counted: sign up, make a project, upload a CSV, "Create
// an API from this dataset", run the prefilled query. Then a second CSV
// whose authorId matches the first's ids is offered as a relation, linked
// in one click, and the schema has both fields.
func TestBoardOneStepAPI(t *testing.T) {
	s := startServer(t)
	p := newPage(t, s)
	books := tempFile(t, "books.csv", "id,title,price,inStock,published,authorId\n"+
		"1,Dune,9.5,true,1965-08-01,1\n2,Emma,12,false,1815-12-23,2\n3,Ubik,7.25,true,1969-05-01,1\n")
	a := &actions{p: p}
	p.open("/", "#signup")
	a.set("#suEmail", "flow@example.com")
	a.set("#suPassword", "a long password")
	a.submit("#suEmail")
	p.wait("#newName")
	p.markWindow()
	a.set("#newName", "Library")
	a.click("#create")
	p.wait("#tableName")
	a.clickText("#top nav a", "Data pool")
	p.wait("#dsFile")
	a.file("#dsFile", books)
	p.waitText("#dsStatus", "Chosen: books.csv")
	a.click("#dsUpload")
	p.wait(`[data-dataset="books"] .create-api`)
	if got := p.text(`[data-dataset="books"] select`); !strings.Contains(got, "Library") {
		t.Fatalf("the API's project choice: %q", got)
	}
	a.click(`[data-dataset="books"] .create-api`)
	p.wait(".graphiql-execute-button")
	p.waitText(".graphiql-query-editor", "books(pageSize: 10)")
	a.click(".graphiql-execute-button")
	res := p.waitText(".result-window", `"total": 3`)
	for _, want := range []string{`"title": "Dune"`, `"price": 9.5`, `"inStock": true`, `"published": "1965-08-01"`} {
		if !strings.Contains(res, want) {
			t.Errorf("the playground's rows lack %s: %s", want, res)
		}
	}
	p.windowKept("landing → rows")
	t.Logf("landing page → rows in the playground: %d actions", a.n)
	if a.n > 20 {
		t.Fatalf("%d actions from the landing page to rows; at most 20 wanted", a.n)
	}
	// The tour and the README say the count this test measures.
	for _, doc := range []struct{ file, want string }{
		{"../../docs/using/board.md", fmt.Sprintf("## From a file to rows in the playground: %d actions", a.n)},
		{"../../README.md", fmt.Sprintf("[%d actions](docs/using/board.md#from-a-file-to-rows-in-the-playground-%d-actions)", a.n, a.n)},
	} {
		if b, err := os.ReadFile(doc.file); err != nil || !strings.Contains(string(b), doc.want) {
			t.Errorf("%s does not say %q (the measured count): %v", doc.file, doc.want, err)
		}
	}
	p.shot("flow-playground")

	// The inferred types, as the runtime schema shows them.
	p.clickText("nav.tabs a", "API design")
	sdl := p.waitText("#sdl", "type Book")
	for _, want := range []string{"id: ID!", "title: String", "price: Float", "inStock: Boolean", "published: String", "authorId: Int"} {
		if !strings.Contains(sdl, want) {
			t.Errorf("SDL lacks %q:\n%s", want, sdl)
		}
	}

	// A second dataset whose authorId values are its ids: offered as a relation.
	authors := tempFile(t, "authors.csv", "id,name\n1,Frank Herbert\n2,Jane Austen\n")
	p.clickText("#top nav a", "Data pool")
	p.wait("#dsFile")
	if err := chromedp.Do(p.ctx, chromedp.SetUploadFiles("#dsFile", []string{authors})); err != nil {
		t.Fatal(err)
	}
	p.waitText("#dsStatus", "Chosen: authors.csv")
	p.click("#dsUpload")
	p.wait(`[data-dataset="authors"] .create-api`)
	p.shot("flow-data-pool")
	p.click(`[data-dataset="authors"] .create-api`)
	p.wait(".graphiql-execute-button")
	p.clickText("nav.tabs a", "Model")
	p.waitText(`[data-suggest="Book.authorId"]`, "3 of 3 sampled values are Author ids")
	p.shot("flow-model-suggestion")
	p.click(`[aria-label="Link Book.authorId to Author.id"]`)
	p.waitText("#announce", "Linked: each Book has one Author")
	p.wait(`#relations tr[data-relation="books"]`)
	p.windowKept("the relation")
	p.clickText("nav.tabs a", "API design")
	sdl = p.waitText("#sdl", "author: Author")
	if !strings.Contains(sdl, "books: [Book") {
		t.Fatalf("SDL after linking:\n%s", sdl)
	}
}

// TestBoardAddAllFields: a table bound to a dataset gets every field from
// a checklist of paths with inferred types (one unticked, one renamed);
// the single-attribute form prefills the name and type of a picked path.
func TestBoardAddAllFields(t *testing.T) {
	s := startServer(t)
	u := s.signUp("fields@example.com")
	u.importVia("orders", "json", `[{"id":"o1","total":12.5,"paid":true,"customer":{"first_name":"Ann","age":40}},
		{"id":"o2","total":3,"paid":false,"customer":{"first_name":"Bo","age":41}}]`, "").data(t)
	pid := get(u.must(`mutation { createProject(name: "Orders") { id } }`, nil), "createProject", "id").(string)
	u.must(`mutation($p:ID!){ createModellingTable(input:{projectId:$p, name:"Order", source:{importCode:"orders"}}) { id } }`, map[string]any{"p": pid})
	p := newPage(t, s)
	p.signedIn(u)
	p.open("/board/projects/"+pid, `section[data-table="Order"]`)
	p.markWindow()
	p.click(`details[data-add-all="Order"] summary`)
	p.wait(`details[data-add-all="Order"] tr[data-path="customer.first_name"]`)
	types := p.js(`[...document.querySelectorAll('details[data-add-all="Order"] tr[data-path]')].map((r) => r.dataset.path + "=" + r.querySelector("input[type=text]").value + ":" + r.querySelector("select").value).join(" ")`)
	if types != "id=id:ID total=total:FLOAT paid=paid:BOOLEAN customer.first_name=customerFirstName:STRING customer.age=customerAge:INT" {
		t.Fatalf("checklist: %v", types)
	}
	p.shot("add-all-fields")
	p.click(`[aria-label="Add customer.age"]`)
	p.set(`[aria-label="Name for customer.first_name"]`, "firstName")
	p.waitText(`details[data-add-all="Order"] .add-all-go`, "Add 4 attributes")
	p.click(`details[data-add-all="Order"] .add-all-go`)
	p.waitText("#announce", "Added 4 attributes to Order: id, total, paid, firstName.")
	p.wait(`section[data-table="Order"] tr[data-attribute="firstName"]`)
	p.waitText(`section[data-table="Order"]`, "✓ ready")
	p.windowKept("add all fields")
	// What is left: the unticked path, still offered.
	p.wait(`details[data-add-all="Order"][open] tr[data-path="customer.age"]`)

	// The single form: a picked path prefills the name and the type.
	form := `form.add-attribute[data-table="Order"]`
	p.js(`(document.querySelector('` + form + `').closest("details").open = true, true)`)
	p.click(form + ` [data-path="customer.age"]`)
	p.waitText(form, "Chosen: customer.age")
	deadline := 50
	for ; deadline > 0; deadline-- {
		if p.js(`(() => { const f = document.querySelector('`+form+`'); return f.querySelector("input[type=text]").value + ":" + f.querySelector(".field select").value; })()`) == "customerAge:INT" {
			break
		}
		p.js(`new Promise((r) => setTimeout(() => r(true), 100))`)
	}
	if deadline == 0 {
		t.Fatalf("the form did not prefill customer.age: %v", p.js(`document.querySelector('`+form+` input[type=text]').value`))
	}
}

// TestBoardEditInPlace: an edit far down a long page keeps the scroll
// position and the focus, announces its result in the aria-live region
// and shows it next to the control, without loading the page again; tab
// switches keep the project loaded; back and forward move between tabs;
// a deep link opens its tab on a fresh load.
func TestBoardEditInPlace(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "inplace@example.com", "ip")
	pid := sh.project["id"].(string)
	for _, name := range []string{"Alpha", "Beta", "Gamma", "Delta"} {
		sh.table(t, pid, name, "ipcategories", [][3]string{{"id", "ID", "id"}, {"title", "STRING", "title"}})
	}
	p := newPage(t, s)
	p.signedIn(sh.owner)
	p.open("/board/projects/"+pid, `section[data-table="Delta"]`)
	p.markWindow()
	box := `[aria-label="Sortable: Delta.title"]`
	p.js(`(document.querySelector('` + box + `').scrollIntoView({block: "center"}), document.querySelector('` + box + `').focus(), true)`)
	before := p.js(`window.scrollY`).(float64)
	was := p.js(`document.querySelector('` + box + `').checked`)
	if before < 200 {
		t.Fatalf("the page did not scroll (scrollY %v): too short a test page", before)
	}
	p.js(`(document.querySelector('` + box + `').click(), true)`)
	p.waitText("#announce", "Saved Delta.title.")
	p.waitText(`section[data-table="Delta"] [role="status"]`, "Saved Delta.title.")
	p.windowKept("an attribute edit")
	if got := p.js(`document.activeElement.getAttribute("aria-label")`); got != "Sortable: Delta.title" {
		t.Fatalf("focus after the edit: %v", got)
	}
	if after := p.js(`window.scrollY`).(float64); after != before {
		t.Fatalf("scrollY %v before the edit, %v after", before, after)
	}
	if v := p.js(`document.querySelector('` + box + `').checked`); v == was {
		t.Fatalf("the re-rendered checkbox shows %v, as before the edit", v)
	}

	// Tabs: no load between them; back and forward; a deep link.
	p.js(`window.scrollTo(0, 0)`)
	for _, tab := range []struct{ label, sel string }{{"Diagram", "svg.diagram"}, {"API design", "#sdl"}, {"Request log", "#logEntries"}, {"Model", `section[data-table="Delta"]`}} {
		p.clickText("nav.tabs a", tab.label)
		p.wait(tab.sel)
		if cur := p.text(`nav.tabs a[aria-current="page"]`); cur != tab.label {
			t.Fatalf("after %s the current tab is %q", tab.label, cur)
		}
	}
	p.windowKept("tab switches")
	p.js(`(history.back(), true)`)
	p.wait("#logEntries")
	p.js(`(history.back(), true)`)
	p.wait("#sdl")
	if !strings.HasSuffix(p.location(), "/board/projects/"+pid+"/design") {
		t.Fatalf("back twice: %s", p.location())
	}
	p.js(`(history.forward(), true)`)
	p.wait("#logEntries")
	p.windowKept("back and forward")
	p.open("/board/projects/"+pid+"/design", "#sdl")
	if cur := p.text(`nav.tabs a[aria-current="page"]`); cur != "API design" {
		t.Fatalf("deep link: the current tab is %q", cur)
	}
	p.shot("design-in-place")
}
