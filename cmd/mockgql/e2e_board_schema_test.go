package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// librarySDL is a small contract in the Relay style: a connection, a
// lookup, a plain list, a mutation and a field mockgql does not recognise.
const librarySDL = `"A library."
type Query {
  books(first: Int, after: String, genre: Genre): BookConnection!
  book(id: ID!): Book
  authors: [Author!]!
  shelfMood(day: Int): String
}

type Mutation {
  createBook(title: String!, price: Float!, genre: Genre!): Book!
}

type Book {
  id: ID!
  title: String!
  price: Float!
  genre: Genre!
  author: Author
}

type Author {
  id: ID!
  name: String!
  email: String
  books: [Book!]!
}

enum Genre {
  FICTION
  SCIENCE
}

type BookConnection {
  edges: [BookEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type BookEdge {
  cursor: String!
  node: Book!
}

type PageInfo {
  hasNextPage: Boolean!
  endCursor: String
}
`

// boardContractProject makes an account project from sdl through the API and
// returns its ID.
func boardContractProject(t *testing.T, u *user, name, sdl string) string {
	t.Helper()
	d := u.must(`mutation($n:String!,$s:String!){ createProject(name:$n, sdl:$s) { id } }`, map[string]any{"n": name, "s": sdl})
	return get(d, "createProject", "id").(string)
}

// contractOf is the project's contract version and tables as text.
func contractOf(t *testing.T, u *user, pid string) string {
	t.Helper()
	return fmt.Sprint(u.must(`query($id:ID){ project(id:$id) { contract { version tables { type rows importCode } } } }`, map[string]any{"id": pid}))
}

// TestBoardStartFromSchema (issue 23 item 1): on the projects page a
// schema becomes a project whose playground returns rows in at most three
// actions — paste it (or pick its file), Create, Run — counted.
func TestBoardStartFromSchema(t *testing.T) {
	s := startServer(t)
	u := s.signUp("schema@example.com")
	p := newPage(t, s)
	p.signedIn(u)
	for _, how := range []string{"paste", "file", "introspection"} {
		t.Run(how, func(t *testing.T) {
			if how == "introspection" {
				introspectionStart(t, p)
				return
			}
			p.open("/board/projects", "#startSdl")
			p.markWindow()
			a := &actions{p: p}
			if how == "paste" {
				a.set("#startSdl", librarySDL)
			} else {
				// The paste made "A library" (named after the description of its Query type), listed as a schema project.
				p.waitText(`#projects tr[data-project="A library"]`, "account · GraphQL schema v1")
				a.file("#startFile", tempFile(t, "library.graphql", librarySDL))
				p.waitText("#startChosen", "Read library.graphql")
				if got := p.js(`document.querySelector("#startSdl").value`); got != librarySDL {
					t.Fatalf("the file did not fill the schema box: %q", got)
				}
			}
			if how == "paste" {
				p.shot("schema-start")
			}
			a.click("#schemaCreate")
			p.wait(".graphiql-execute-button")
			q := p.waitText(".graphiql-query-editor", "books(first: 5)")
			if !strings.Contains(q, "edges") || !strings.Contains(q, "title") {
				t.Fatalf("starter query: %s", q)
			}
			a.click(".graphiql-execute-button")
			res := p.waitText(".result-window", `"title"`)
			if n := strings.Count(res, `"title"`); n != 5 {
				t.Errorf("the starter query returned %d rows, want 5:\n%s", n, res)
			}
			p.windowKept("schema → rows")
			t.Logf("%s a schema → rows in the playground: %d actions", how, a.n)
			if a.n > 3 {
				t.Fatalf("%d actions from a schema to rows; at most 3 wanted", a.n)
			}
			if how == "file" {
				p.waitText("h1", "Library")
				p.shot("schema-playground")
			}
		})
	}
}

// introspectionStart makes a project from an introspection dump (a .json
// file with custom root names, unions and custom scalars) in three
// actions; the starter query skips the list that needs an argument
// (search) and the deprecated page size (movies(limit:)).
func introspectionStart(t *testing.T, p *page) {
	p.open("/board/projects", "#startSdl")
	a := &actions{p: p}
	dump, err := filepath.Abs(filepath.Join("..", "..", "contract", "testdata", "unions.introspection.json"))
	if err != nil {
		t.Fatal(err)
	}
	a.file("#startFile", dump)
	p.waitText("#startChosen", "Read unions.introspection.json")
	a.click("#schemaCreate")
	p.wait(".graphiql-execute-button")
	p.waitText(".graphiql-query-editor", "movies {") // its limit is deprecated: left out
	a.click(".graphiql-execute-button")
	res := p.waitText(".result-window", `"movies"`)
	if strings.Contains(res, `"errors"`) || !strings.Contains(res, `"title"`) {
		t.Fatalf("the starter query of an introspection dump:\n%s", res)
	}
	p.waitText("h1", "Unions introspection")
	if a.n > 3 {
		t.Fatalf("%d actions from an introspection file to rows; at most 3 wanted", a.n)
	}
}

// TestBoardSchemaRefusals: a schema that does not parse shows its line and
// column next to the box and makes no project; a file dropped on the box
// fills it; a construct the import cannot serve is named.
func TestBoardSchemaRefusals(t *testing.T) {
	s := startServer(t)
	u := s.signUp("badschema@example.com")
	p := newPage(t, s)
	p.signedIn(u)
	p.open("/board/projects", "#startSdl")
	p.set("#startSdl", "type Query {\n  books: [Book!]!\n  oops(: Int\n}\n")
	p.click("#schemaCreate")
	msg := p.waitText("#startError", "Line 3, column")
	if !regexp.MustCompile(`^Line 3, column \d+: \S`).MatchString(msg) {
		t.Fatalf("the parse error: %q", msg)
	}
	if got := p.js(`document.activeElement.id + ":" + document.activeElement.selectionStart`); !strings.HasPrefix(got.(string), "startSdl:") || got == "startSdl:0" {
		t.Errorf("the caret is not at the error: %v", got)
	}
	p.shot("schema-parse-error")

	// A construct that cannot be served is named, where it is.
	p.set("#startSdl", "type Query { a: Int }\ntype Empty\n")
	if got := p.text("#startError"); got != "" {
		t.Errorf("typing left the old error: %q", got)
	}
	p.click("#schemaCreate")
	if msg := p.waitText("#startError", "Line 2, column"); !strings.Contains(msg, "Empty") {
		t.Fatalf("the refusal does not name the construct: %q", msg)
	}
	if d := fmt.Sprint(u.must(`{ projects { id } }`, nil)); d != "map[projects:[]]" {
		t.Fatalf("a refused schema made a project: %s", d)
	}

	// A dropped file fills the box.
	p.js(`(() => { const dt = new DataTransfer(); dt.items.add(new File([` + jsString(librarySDL) + `], "dropped.graphql")); document.querySelector("#startDrop").dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true})); return true; })()`)
	p.waitText("#startChosen", "Read dropped.graphql")
	if got := p.js(`document.querySelector("#startSdl").value`); got != librarySDL {
		t.Fatalf("the drop did not fill the schema box")
	}
	if got := p.js(`document.querySelector("#schemaProjectName").placeholder`); got != "Dropped" {
		t.Errorf("the name a dropped file suggests: %v", got)
	}
}

// TestBoardSchemaReport (issue 23 items 3, 6 and 8): a contract project's
// Schema tab shows each root field's shape, explains "generated", edits a
// table's row count in place — and the playground then returns that many
// rows — and binds a table to a dataset of the pool that matches its
// fields. The Model tab shows the types read-only; the export card says
// the code package does not support the project.
func TestBoardSchemaReport(t *testing.T) {
	s := startServer(t)
	u := s.signUp("report@example.com")
	u.importVia("writers", "json", `[{"id":"w1","name":"Ursula","email":"u@example.com"},{"id":"w2","name":"Octavia","email":"o@example.com"}]`, "").data(t)
	pid := boardContractProject(t, u, "Library", librarySDL)
	p := newPage(t, s)
	p.signedIn(u)
	p.open("/board/projects/"+pid+"/schema", "#schemaReport")
	p.markWindow()
	for field, shape := range map[string]string{"books": "connection", "book": "lookup", "authors": "list", "shelfMood": "generated", "createBook": "create"} {
		if got := p.text(`#schemaReport tr[data-field="` + field + `"] .badge`); got != shape {
			t.Errorf("%s's shape badge: %q, want %q", field, got, shape)
		}
	}
	if got := p.text(`#schemaReport [data-root="MUTATION"] h3`); got != "Mutations (1)" {
		t.Errorf("the mutations' heading: %q", got)
	}
	p.waitText("#generatedNote", "accepts its arguments")
	p.shot("schema-report")

	// How a field is served, changed by an editor and put back.
	books := `#schemaReport tr[data-field="books"]`
	p.click(books + ` details.contract-mapping summary`)
	p.choose("#map-QUERY-books-genre-role", "ignored")
	p.shot("schema-mapping")
	p.clickText(books+` button`, "Save how books is served")
	p.waitText("#announce", "books is served as you set it now.")
	if got := p.waitText(books, "set by an editor"); !strings.Contains(got, "not interpreted: genre") {
		t.Fatalf("the changed mapping's line: %q", got)
	}
	if d := fmt.Sprint(u.must(`query($id:ID){ project(id:$id) { contract { report { name mapped } } } }`, map[string]any{"id": pid})); !strings.Contains(d, "mapped:true name:books") {
		t.Fatalf("the mapping was not saved: %s", d)
	}
	// The box stays open across the re-render (live.js keeps open <details>).
	p.wait(books + ` details.contract-mapping[open] form`)
	p.clickText(books+` button`, "Back to the import's reading")
	p.waitText("#announce", "books is served as the import read it again.")
	p.waitText(books, "equality on genre")
	if got := p.text(books); strings.Contains(got, "set by an editor") {
		t.Fatalf("after going back the line says: %q", got)
	}

	// A row count, in place; the playground then returns that many rows.
	p.set(`[aria-label="Rows of Author"]`, "3")
	p.waitText("#announce", "Author has 3 rows now.")
	p.waitText(`#contractTables [role="status"]`, "Author has 3 rows now.")
	p.windowKept("a row count")
	if got := p.js(`document.activeElement.getAttribute("aria-label")`); got != "Rows of Author" {
		t.Errorf("the focus after the edit: %v", got)
	}
	res := p.playground(pid, "{ authors { id name } }", `"authors"`)
	if n := strings.Count(res, `"name"`); n != 3 {
		t.Fatalf("after setting 3 rows the playground shows %d authors:\n%s", n, res)
	}

	// A dataset whose paths match Author's fields, suggested and bound.
	p.open("/board/projects/"+pid+"/schema", "#contractTables")
	p.click(`details[data-source="Author"] summary`)
	p.wait("#source-Author")
	opts := p.text("#source-Author")
	if !strings.Contains(opts, "writers: 2 of 2 fields match (name, email); 2 records") {
		t.Fatalf("the suggestions: %q", opts)
	}
	p.shot("schema-tables")
	p.choose("#source-Author", "writers")
	p.clickText(`details[data-source="Author"] button`, "Use it")
	p.waitText("#announce", "Author reads the dataset writers.")
	if c := contractOf(t, u, pid); !strings.Contains(c, "importCode:writers") {
		t.Fatalf("the binding was not saved: %s", c)
	}
	res = p.playground(pid, "{ authors { name } }", `"authors"`)
	if !strings.Contains(res, "Ursula") || !strings.Contains(res, "Octavia") {
		t.Fatalf("the bound table does not read the dataset:\n%s", res)
	}

	// The Model tab is read-only and says where the types change.
	p.open("/board/projects/"+pid, "#contractReadOnly")
	p.waitText("#contractReadOnly", "import a new version")
	// Only how fields are generated is edited there (TestBoardContractGenerator).
	if n := p.js(`[...document.querySelectorAll("#tables input, #tables select, #addTable")].filter((e) => !e.closest("details[data-generators]")).length`); n != 0.0 {
		t.Errorf("the Model tab of a contract project has %v edit controls", n)
	}
	if got := p.text("#tables"); strings.Contains(got, "__key") || !strings.Contains(got, "Rows: read from the dataset writers") {
		t.Errorf("the Model tab of a contract project: %q", got)
	}
	p.shot("schema-model")
	p.clickText("nav.tabs a", "Diagram")
	p.wait("svg.diagram")
	if got := p.js(`document.querySelector("svg.diagram").textContent`).(string); strings.Contains(got, "__key") || !strings.Contains(got, "title") {
		t.Errorf("the diagram shows the engine's link keys: %q", got)
	}
	p.open("/board/projects/"+pid+"/design", "#exportContract")
	p.waitText("#exportContract", "does not serve your schema")
}

// TestBoardSchemaNewVersion (issue 23 item 7): importing a new version
// shows what it changes, BREAKING first, and asks; Cancel keeps the served
// version; confirming applies it and keeps the row counts.
func TestBoardSchemaNewVersion(t *testing.T) {
	s := startServer(t)
	u := s.signUp("version@example.com")
	pid := boardContractProject(t, u, "Library", librarySDL)
	u.must(`mutation($p:ID!){ setContractRows(projectId:$p, type:"Author", rows:4) { id } }`, map[string]any{"p": pid})
	next := strings.Replace(librarySDL, "  email: String\n", "  born: Int\n", 1)
	p := newPage(t, s)
	p.signedIn(u)
	p.open("/board/projects/"+pid+"/schema", "#versionSdl")
	p.click("#versionCurrent")
	p.waitText("#schemaVersion [role=\"status\"]", "The box holds version 1")
	if doc := p.js(`document.querySelector("#versionSdl").value`).(string); !strings.Contains(doc, "email: String") || !strings.Contains(doc, "BookConnection") {
		t.Fatalf("the served document in the box: %q", doc)
	}
	p.set("#versionSdl", next)
	p.click("#versionCompare")
	w := p.waitText("#versionConfirm #breakingWarning", "Author.email")
	if !strings.Contains(w, "Author.born") || !strings.Contains(w, "SAFE") {
		t.Fatalf("the diff: %q", w)
	}
	p.shot("schema-version-diff")
	p.clickText("#versionConfirm button", "Cancel")
	if c := contractOf(t, u, pid); !strings.Contains(c, "version:1") {
		t.Fatalf("cancel applied the version: %s", c)
	}
	p.click("#versionCompare")
	p.click("#versionConfirm #confirmBreaking")
	p.waitText("#announce", "Applied version 2")
	if c := contractOf(t, u, pid); !strings.Contains(c, "version:2") || !strings.Contains(c, "rows:4 type:Author") {
		t.Fatalf("after the new version: %s", c)
	}
	res := p.playground(pid, "{ authors { born } }", `"born"`)
	if strings.Contains(res, "errors") {
		t.Fatalf("the new field: %s", res)
	}

	// A viewer reads the same tab as text: no row field, picker or import.
	viewer := join(t, u, s.signUp("version-viewer@example.com"), "VIEWER")
	v := newPage(t, s)
	v.signedIn(viewer)
	v.open("/board/projects/"+pid+"/schema", `#contractTables tr[data-contract-table="Author"]`)
	if got := v.text(`#contractTables tr[data-contract-table="Author"]`); !strings.Contains(got, "4") || !strings.Contains(got, "generated rows") {
		t.Errorf("the viewer's row of Author: %q", got)
	}
	// The comparison with the real API is a viewer's too: it changes nothing.
	if n := v.js(`[...document.querySelectorAll("#tab input, #tab select, #tab textarea, #schemaVersion, .source-picker")].filter((e) => !e.closest("#schemaUpstream")).length`); n != 0.0 {
		t.Errorf("a viewer's Schema tab has %v edit controls", n)
	}
	v.shot("schema-viewer")
}

// TestBoardImportSchemaIntoProject: API design's "Import a GraphQL schema"
// turns a guest's empty project into one that serves the schema (the
// playground then returns rows); on a project with tables the guard asks
// first, naming the tables that give way, and Cancel keeps them.
func TestBoardImportSchemaIntoProject(t *testing.T) {
	s := startServer(t)
	p := newPage(t, s)
	p.open("/", "#guest")
	p.set("#guestName", "Guest schema")
	p.submit("#guestName")
	p.wait("#tableName")
	p.clickText("nav.tabs a", "API design")
	p.set("#importSdl", librarySDL)
	p.click("#importSchema")
	p.wait(".graphiql-execute-button")
	p.waitText(".graphiql-query-editor", "books(first: 5)")
	p.click(".graphiql-execute-button")
	p.waitText(".result-window", `"title"`)
	p.clickText("nav.tabs a", "Schema")
	p.waitText(`#schemaReport tr[data-field="books"]`, "connection")

	sh := newShop(t, s, "replace@example.com", "rp")
	pid := sh.project["id"].(string)
	p = newPage(t, s)
	p.signedIn(sh.owner)
	p.open("/board/projects/"+pid+"/design", "#importSdl")
	p.set("#importSdl", librarySDL)
	p.click("#importSchema")
	w := p.waitText("#importConfirm .warning", "Replace the model of")
	if !strings.Contains(w, "Product") || !strings.Contains(w, "Author, Book") {
		t.Fatalf("the guard: %q", w)
	}
	p.shot("schema-replace-guard")
	p.clickText("#importConfirm button", "Cancel")
	if c := fmt.Sprint(sh.owner.must(`query($id:ID){ project(id:$id) { contract { version } tables { name } } }`, map[string]any{"id": pid})); !strings.Contains(c, "contract:<nil>") || !strings.Contains(c, "name:Product") {
		t.Fatalf("cancel changed the project: %s", c)
	}
	p.click("#importSchema")
	p.click("#importConfirm #confirmYes")
	p.wait(".graphiql-execute-button")
	if c := contractOf(t, sh.owner, pid); !strings.Contains(c, "version:1") {
		t.Fatalf("after the confirmed import: %s", c)
	}
}
