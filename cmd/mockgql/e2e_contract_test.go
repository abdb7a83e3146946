package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/internal/testdata"
)

// The end-to-end proofs of SDL-first projects (docs/using/contract.md):
// a schema imported through the management API is served on the runtime
// with an API key, versions keep what was created, the model is frozen,
// and a bad document names where it is wrong.

// contractDoc returns a schema of contract/testdata.
func contractDoc(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testdata.Dir(t, "../contract/testdata"), name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// contractProject is an account project made from a schema, with a FULL key.
type contractProject struct {
	owner   *user
	id      string
	slug    string
	runtime string
	key     string
}

// newContractProject signs up email on PROFESSIONAL, makes a project from
// sdl with createProject and a FULL key for it.
func newContractProject(t *testing.T, s *server, email, sdl string) *contractProject {
	t.Helper()
	u := s.signUp(email)
	u.must(`mutation { setPlan(plan: PROFESSIONAL) { plan } }`, nil)
	d := u.must(`mutation($n:String!,$s:String!){ createProject(name:$n, sdl:$s) { id slug contract { version } } }`,
		map[string]any{"n": "Books", "s": sdl})
	if v := get(d, "createProject", "contract", "version"); v != float64(1) {
		t.Fatalf("createProject with sdl: contract version %v, want 1", v)
	}
	cp := &contractProject{owner: u, id: get(d, "createProject", "id").(string), slug: get(d, "createProject", "slug").(string)}
	cp.runtime = "/mock/" + cp.slug + "/graphql"
	k := u.must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"k", scope: FULL) { value } }`, map[string]any{"p": cp.id})
	cp.key = get(k, "createApiKey", "value").(string)
	return cp
}

// query runs a runtime request with the project's key.
func (cp *contractProject) query(s *server, q string, vars map[string]any) response {
	s.t.Helper()
	return s.gql(cp.runtime, q, vars, "Authorization", "Bearer "+cp.key)
}

// mustQuery is query that fails the test on errors.
func (cp *contractProject) mustQuery(s *server, q string, vars map[string]any) map[string]any {
	s.t.Helper()
	r := cp.query(s, q, vars)
	if r.Status != 200 || r.JSON["errors"] != nil {
		s.t.Fatalf("%s: %d %s", q, r.Status, r.Raw)
	}
	return r.data(s.t)
}

const relayBooks = `{ books(first: 3) { totalCount edges { cursor node { id title price genre author { id name } } } pageInfo { hasNextPage endCursor } } }`

// TestContractImportServes imports the Relay-style schema through the
// management API and queries its own root fields on the runtime with an
// API key: the rows are there, related both ways, and the same query
// answers the same bytes.
func TestContractImportServes(t *testing.T) {
	s := startServer(t)
	cp := newContractProject(t, s, "contract-serve@example.com", contractDoc(t, "relay.graphql"))
	d := cp.mustQuery(s, relayBooks, nil)
	edges := get(d, "books", "edges").([]any)
	if len(edges) != 3 || get(d, "books", "pageInfo", "hasNextPage") != true {
		t.Fatalf("books(first: 3): %v", d)
	}
	author := get(edges[0], "node", "author").(map[string]any)
	back := cp.mustQuery(s, `query($id:ID!){ node(id:$id) { __typename ... on Author { id books(first: 100) { edges { node { id } } } } } }`,
		map[string]any{"id": author["id"]})
	if get(back, "node", "__typename") != "Author" || !strings.Contains(string(mustJSON(back)), `"`+get(edges[0], "node", "id").(string)+`"`) {
		t.Errorf("the author of book %v does not list it back: %v", get(edges[0], "node", "id"), back)
	}
	first, second := cp.query(s, relayBooks, nil), cp.query(s, relayBooks, nil)
	if !bytes.Equal(first.Raw, second.Raw) {
		t.Errorf("the same query answered differently:\n%s\n%s", first.Raw, second.Raw)
	}
	sdl := get(cp.owner.must(`query($id:ID){ project(id:$id) { sdl } }`, map[string]any{"id": cp.id}), "project", "sdl").(string)
	if !strings.Contains(sdl, "books(first: Int, after: String, last: Int, before: String, genre: Genre, minPrice: Float, orderBy: BookOrder): BookConnection!") {
		t.Errorf("Project.sdl is not the imported schema:\n%s", sdl)
	}
}

// TestContractVersions imports a new version of the schema (isbn
// removed, subtitle added) and checks the changes it answers, that the
// model edits that would change the schema are refused while row counts
// stay editable, and that bad documents change nothing.
func TestContractVersions(t *testing.T) {
	s := startServer(t)
	v1 := contractDoc(t, "relay.graphql")
	cp := newContractProject(t, s, "contract-versions@example.com", v1)
	v2 := strings.Replace(v1, "  isbn: String\n", "  subtitle: String\n", 1)
	if v2 == v1 {
		t.Fatal("the fixture has no isbn field to remove")
	}
	d := cp.owner.must(`mutation($p:ID!,$s:String!){ importGraphQLSchema(projectId:$p, sdl:$s) {
		project { contract { version } } report { root name shape } unsupported changes { criticality type path } } }`,
		map[string]any{"p": cp.id, "s": v2})
	imp := get(d, "importGraphQLSchema").(map[string]any)
	if get(imp, "project", "contract", "version") != float64(2) {
		t.Errorf("version after the second import: %v", get(imp, "project", "contract", "version"))
	}
	changes := string(mustJSON(imp["changes"]))
	for _, want := range []string{`{"criticality":"BREAKING","path":"Book.isbn","type":"FIELD_REMOVED"}`, `{"criticality":"SAFE","path":"Book.subtitle","type":"FIELD_ADDED"}`} {
		if !strings.Contains(changes, want) {
			t.Errorf("changes %s lack %s", changes, want)
		}
	}
	if sub := cp.mustQuery(s, `{ books(first: 1) { edges { node { subtitle } } } }`, nil); get(sub, "books", "edges", 0, "node", "subtitle") == nil {
		t.Errorf("the new field is not served: %v", sub)
	}

	t.Run("model edits refused", func(t *testing.T) {
		tables := get(cp.owner.must(`query($id:ID){ project(id:$id) { tables { id name attributes { id } } } }`, map[string]any{"id": cp.id}), "project", "tables").([]any)
		for name, q := range map[string]struct {
			query string
			vars  map[string]any
		}{
			"createModellingTable":         {`mutation($p:ID!){ createModellingTable(input:{projectId:$p, name:"Extra"}) { id } }`, map[string]any{"p": cp.id}},
			"deleteModellingAttribute":     {`mutation($a:ID!){ deleteModellingAttribute(attributeId:$a) }`, map[string]any{"a": get(tables[0], "attributes", 0, "id")}},
			"updateModellingTable":         {`mutation($t:ID!){ updateModellingTable(input:{tableId:$t, name:"Renamed"}) { id } }`, map[string]any{"t": get(tables[0], "id")}},
			"generateDefaultGqlOperations": {`mutation($p:ID!){ generateDefaultGqlOperations(projectId:$p) { id } }`, map[string]any{"p": cp.id}},
		} {
			r := cp.owner.gql(q.query, q.vars)
			if r.errCode() != "CONFLICT" || !strings.Contains(string(r.Raw), "import a new version instead") {
				t.Errorf("%s on a contract project: %s", name, r.Raw)
			}
		}
		rows := cp.owner.must(`mutation($p:ID!){ setContractRows(projectId:$p, type:"Author", rows: 7) { contract { version tables { type rows } } } }`, map[string]any{"p": cp.id})
		if !strings.Contains(string(mustJSON(rows)), `{"rows":7,"type":"Author"}`) {
			t.Errorf("setContractRows: %v", rows)
		}
		n := get(cp.mustQuery(s, `{ authors(first: 100) { edges { node { id } } } }`, nil), "authors", "edges").([]any)
		if len(n) != 7 {
			t.Errorf("authors after setContractRows 7: %d", len(n))
		}
	})

	t.Run("bad documents change nothing", func(t *testing.T) {
		for _, tc := range []struct{ name, doc, code, says string }{
			{"syntax", "type Query {\n  books: [Book!]!\n  oops(: Int\n}\n", "BAD_USER_INPUT", "line 3, column"},
			{"unknown type", "type Query { books: [Nope] }", "BAD_USER_INPUT", "Nope"},
			{"empty", "  ", "BAD_USER_INPUT", "empty"},
			{"too large", "# " + strings.Repeat("x", 1<<20) + "\ntype Query { a: Int }", "PAYLOAD_TOO_LARGE", "limit"},
		} {
			r := cp.owner.gql(`mutation($p:ID!,$s:String!){ importGraphQLSchema(projectId:$p, sdl:$s) { project { id } } }`, map[string]any{"p": cp.id, "s": tc.doc})
			if r.errCode() != tc.code || !strings.Contains(string(r.Raw), tc.says) {
				t.Errorf("%s: %s, want %s saying %q", tc.name, r.Raw, tc.code, tc.says)
			}
		}
		v := get(cp.owner.must(`query($id:ID){ project(id:$id) { contract { version } } }`, map[string]any{"id": cp.id}), "project", "contract", "version")
		if v != float64(2) { // two imports
			t.Errorf("version after refused imports: %v", v)
		}
		r := cp.owner.gql(`mutation($s:String!){ createProject(name:"Broken", sdl:$s) { id } }`, map[string]any{"s": "type Query {"})
		if r.errCode() != "BAD_USER_INPUT" || !strings.Contains(string(r.Raw), "line 1") {
			t.Errorf("createProject with a broken schema: %s", r.Raw)
		}
		ps := get(cp.owner.must(`{ projects { name } }`, nil), "projects").([]any)
		if len(ps) != 1 {
			t.Errorf("a refused createProject made a project: %v", ps)
		}
	})
}
