package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

const (
	authorsJSON = `[{"id":1,"name":"Le Guin"},{"id":2,"name":"Herbert"},{"id":3,"name":"Jemisin"}]`
	booksJSON   = `[{"id":1,"title":"Earthsea","authorId":1},{"id":2,"title":"The Dispossessed","authorId":1},{"id":3,"title":"Dune","authorId":2}]`
)

// library is an account project with Book (authorId) and Author tables,
// bound and with default operations, and no relation yet.
func library(t *testing.T, s *server, email string) (*shop, string) {
	t.Helper()
	u := s.signUp(email)
	u.must(`mutation { setPlan(plan: PROFESSIONAL) { plan } }`, nil)
	u.importVia("lbauthors", "json", authorsJSON, "").data(t)
	u.importVia("lbbooks", "json", booksJSON, "").data(t)
	sh := &shop{s: s, owner: u, tables: map[string]string{}}
	pid := u.newProject("Library")
	sh.project = map[string]any{"id": pid}
	sh.tables["Book"] = sh.table(t, pid, "Book", "lbbooks", [][3]string{{"id", "ID", "id"}, {"title", "STRING", "title"}, {"authorId", "INT", "authorId"}})
	sh.tables["Author"] = sh.table(t, pid, "Author", "lbauthors", [][3]string{{"id", "ID", "id"}, {"name", "STRING", "name"}})
	u.must(`mutation($p:ID!){ generateDefaultGqlOperations(projectId:$p) { name } }`, map[string]any{"p": pid})
	return sh, pid
}

// TestBoardRelationsInWords (issue 22 item 5): the relation form speaks
// in sentences — "Each Book has one Author, and each Author has many
// Books" — guesses the foreign key (Book.authorId → Author.id), shows the
// fields before saving, warns with the counts when a one-to-one's linking
// column repeats in the data, and the many-to-one it saves gives the
// runtime schema Book.author: Author and Author.books: [Book!]!, which
// serve the related rows; the diagram counts "1 relation" (item 10).
func TestBoardRelationsInWords(t *testing.T) {
	s := startServer(t)
	sh, pid := library(t, s, "relations@example.com")
	p := newPage(t, s)
	p.signedIn(sh.owner)
	p.open("/board/projects/"+pid, "#addRelationBox")
	p.js(`(document.getElementById("addRelationBox").open = true, true)`)
	p.choose("#relA", "Book")
	p.choose("#relB", "Author")

	// The three shapes, each a whole sentence naming the tables.
	labels := p.js(`[...document.querySelectorAll("#relShape label.shape")].map((l) => l.textContent).join("\n")`).(string)
	for _, want := range []string{
		"Each Book has one Author, and each Author has many Books: the foreign key is on Book (many-to-one)",
		"Each Book has many Authors, and each Author has one Book: the foreign key is on Author (one-to-many)",
		"Each Book has one Author, and each Author has one Book (one-to-one)",
	} {
		if !strings.Contains(labels, want) {
			t.Fatalf("shape labels lack %q:\n%s", want, labels)
		}
	}
	if v := p.js(`document.getElementById("relFk").value + " → " + document.getElementById("relKey").value`); v != "authorId → id" {
		t.Fatalf("guessed linking columns: %v", v)
	}
	pre := p.waitText("#relPreview", "Book.author: Author")
	if !strings.Contains(pre, "Author.books: [Book!]!") || !strings.Contains(pre, "Book.authorId → Author.id") {
		t.Fatalf("preview: %q", pre)
	}
	p.shot("relation-many-to-one")
	p.phone()
	p.noSideways("#relShape label.shape", "the relation shapes")
	p.noSideways("#relPreview", "the relation's fields")
	if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}

	// One-to-one: Book.authorId repeats (two books by Le Guin).
	p.click("#relShape-oneToOne")
	w := p.waitText("#relWarning", "Book.authorId repeats: 1 of 3 rows")
	if !strings.Contains(w, "2 distinct values") || !strings.Contains(w, "each Author has many Books") {
		t.Fatalf("one-to-one warning: %q", w)
	}
	p.waitText("#relPreview", "Author.book: Book")
	p.shot("relation-one-to-one-warning")

	// Back to many-to-one, and save.
	p.click("#relShape-manyToOne")
	p.gone("#relWarning .warning")
	p.waitText("#relPreview", "Author.books: [Book!]!")
	p.click("#addRelation")
	p.waitText("#announce", "Added the relation: Book.author: Author and Author.books: [Book!]!")
	row := p.waitText("#relations", "Each Author has many Books; each Book has one Author")
	if !strings.Contains(row, "Author.books: [Book!]!, Book.author: Author") {
		t.Fatalf("relation row: %q", row)
	}
	p.shot("relation-saved")
	p.click(`nav.tabs a[data-tab="diagram"]`)
	p.waitText("main h2", "Diagram: 2 tables, 1 relation") // not "1 relations"
	if h := p.text("main h2"); strings.Contains(h, "relations") {
		t.Fatalf("diagram heading: %q", h)
	}

	// The runtime's schema and data, not just the page.
	sdl := get(sh.owner.must(`query($id:ID){ project(id:$id) { sdl } }`, map[string]any{"id": pid}), "project", "sdl").(string)
	for _, want := range []string{"author: Author\n", "books: [Book!]!\n"} {
		if !strings.Contains(sdl, want) {
			t.Fatalf("runtime SDL lacks %q:\n%s", want, sdl)
		}
	}
	key := get(sh.owner.must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"rt", scope: RUNTIME) { value } }`, map[string]any{"p": pid}), "createApiKey", "value").(string)
	slug := get(sh.owner.must(`query($id:ID){ project(id:$id) { slug } }`, map[string]any{"id": pid}), "project", "slug").(string)
	out := s.gql("/mock/"+slug+"/graphql", `{ books { items { title author { name } } } author(id: "1") { books { title } } }`, nil, "Authorization", "Bearer "+key).data(t)
	got := string(mustJSON(out))
	for _, want := range []string{`{"author":{"name":"Herbert"},"title":"Dune"}`, `"books":[{"title":"Earthsea"},{"title":"The Dispossessed"}]`} {
		if !strings.Contains(got, want) {
			t.Fatalf("runtime answer lacks %s: %s", want, got)
		}
	}
}

// TestValueCountsAndCatalog: valueCounts counts a column's repeats in the
// rows a table reads, for its members only; generatorCatalog needs no
// credential and describes number.int's options.
func TestValueCountsAndCatalog(t *testing.T) {
	s := startServer(t)
	sh, _ := library(t, s, "counts@example.com")
	q := `query($t: ID!, $a: String!) { valueCounts(tableId: $t, attribute: $a) { rows scanned nulls distinct duplicates } }`
	cases := []struct {
		name, table, attr, want, code string
	}{
		{"a repeating foreign key", "Book", "authorId", `map[distinct:2 duplicates:1 nulls:0 rows:3 scanned:3]`, ""},
		{"a unique key", "Author", "id", `map[distinct:3 duplicates:0 nulls:0 rows:3 scanned:3]`, ""},
		{"no such attribute", "Author", "nope", "", "BAD_USER_INPUT"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := sh.owner.gql(q, map[string]any{"t": sh.tables[c.table], "a": c.attr})
			if c.code != "" {
				if r.errCode() != c.code {
					t.Fatalf("got %s, want %s", r.Raw, c.code)
				}
				return
			}
			if got := fmt.Sprint(get(r.data(t), "valueCounts")); got != c.want {
				t.Fatalf("got %s, want %s", got, c.want)
			}
		})
	}
	stranger := s.signUp("counts-stranger@example.com")
	if r := stranger.gql(q, map[string]any{"t": sh.tables["Book"], "a": "authorId"}); r.errCode() != "NOT_FOUND" {
		t.Fatalf("a stranger's valueCounts: %s", r.Raw)
	}
	r := s.gql("/graphql", `{ generatorCatalog(category: "number") { kind options { name type default } } }`, nil)
	if got := string(r.Raw); !strings.Contains(got, `{"kind":"number.int","options":[{"name":"min","type":"int","default":"0"},{"name":"max","type":"int","default":"1000"}]}`) {
		t.Fatalf("generatorCatalog without a credential: %s", got)
	}
}
