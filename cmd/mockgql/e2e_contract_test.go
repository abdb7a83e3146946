package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// TestContractVersions creates a book, imports a new version of the schema
// (isbn removed, subtitle added) and checks the changes it answers, that
// the book is still there and still its author's, that the
// model edits that would change the schema are refused while row counts
// stay editable, and that bad documents change nothing.
func TestContractVersions(t *testing.T) {
	s := startServer(t)
	v1 := contractDoc(t, "relay.graphql")
	cp := newContractProject(t, s, "contract-versions@example.com", v1)
	author := get(cp.mustQuery(s, `{ authors(first: 1) { edges { node { id } } } }`, nil), "authors", "edges", 0, "node", "id")
	created := cp.mustQuery(s, `mutation($a:ID!){ createBook(input:{title:"Kept across versions", price: 12.5, genre: SCIENCE, authorId:$a}) { book { id title } } }`,
		map[string]any{"a": author})
	bookID := get(created, "createBook", "book", "id")
	v2 := strings.Replace(v1, "  isbn: String\n", "  subtitle: String\n", 1)
	if v2 == v1 {
		t.Fatal("the fixture has no isbn field to remove")
	}
	check := cp.owner.must(`query($p:ID!,$s:String!){ checkGraphQLSchema(projectId:$p, sdl:$s) { tables changes { criticality path } } }`,
		map[string]any{"p": cp.id, "s": v2})
	if got := fmt.Sprint(get(check, "checkGraphQLSchema")); !strings.Contains(got, "map[criticality:BREAKING path:Book.isbn]") || !strings.Contains(got, "tables:[Author Book]") {
		t.Errorf("checkGraphQLSchema: %s", got)
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
	got := cp.mustQuery(s, `query($id:ID!,$a:ID!){ book(id:$id) { id title author { id } } node(id:$a) { ... on Author { books(first: 1000) { edges { node { title } } } } } }`,
		map[string]any{"id": bookID, "a": author})
	if get(got, "book", "title") != "Kept across versions" || get(got, "book", "author", "id") != author ||
		!strings.Contains(string(mustJSON(get(got, "node"))), "Kept across versions") {
		t.Errorf("the book created before the new version: %v", got)
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
			{"too large", "# " + strings.Repeat("x", 4<<20) + "\ntype Query { a: Int }", "PAYLOAD_TOO_LARGE", "limit"},
			{"past the plan's tables", manyTypes(51), "LIMIT_REACHED", "50 tables on the PROFESSIONAL plan; this model needs 51; the TEAM plan allows 500"},
		} {
			r := cp.owner.gql(`mutation($p:ID!,$s:String!){ importGraphQLSchema(projectId:$p, sdl:$s) { project { id } } }`, map[string]any{"p": cp.id, "s": tc.doc})
			if r.errCode() != tc.code || !strings.Contains(string(r.Raw), tc.says) {
				t.Errorf("%s: %s, want %s saying %q", tc.name, r.Raw, tc.code, tc.says)
			}
		}
		d := cp.owner.must(`query($id:ID){ project(id:$id) { contract { version } tables { name } } }`, map[string]any{"id": cp.id})
		if v := get(d, "project", "contract", "version"); v != float64(2) || len(get(d, "project", "tables").([]any)) != 2 { // two imports
			t.Errorf("after refused imports: %v", d)
		}
		r := cp.owner.gql(`mutation($s:String!){ createProject(name:"Broken", sdl:$s) { id } }`, map[string]any{"s": "type Query {"})
		if r.errCode() != "BAD_USER_INPUT" || !strings.Contains(string(r.Raw), "line 1") {
			t.Errorf("createProject with a broken schema: %s", r.Raw)
		}
		ps := get(cp.owner.must(`{ projects { name } }`, nil), "projects").([]any)
		if len(ps) != 1 {
			t.Errorf("a refused createProject made a project: %v", ps)
		}
		// A document that parses but that the grain refuses (STARTER: 5
		// tables a project) makes no project either: it is deleted again.
		starter := s.signUp("contract-starter@example.com")
		r = starter.gql(`mutation($s:String!){ createProject(name:"Too big", sdl:$s) { id } }`, map[string]any{"s": manyTypes(6)})
		if r.errCode() != "LIMIT_REACHED" {
			t.Errorf("createProject past STARTER's tables: %s", r.Raw)
		}
		if ps := get(starter.must(`{ projects { name } }`, nil), "projects").([]any); len(ps) != 0 {
			t.Errorf("the refused project is still there: %v", ps)
		}
		starter.must(`mutation($s:String!){ createProject(name:"Small", sdl:$s) { id } }`, map[string]any{"s": manyTypes(5)})
	})
}

// shop returns cp as the shop fixture, so the helpers written for table
// projects (faults, the request log, actor tokens, preview sharing) drive
// it too.
func (cp *contractProject) shop(s *server) *shop {
	return &shop{s: s, owner: cp.owner, project: map[string]any{"id": cp.id}, slug: cp.slug, tables: map[string]string{},
		runtime: cp.runtime, fullKey: cp.key}
}

// TestContractProjectSurfaces: what a project offers besides its schema
// works on a contract project — key scopes, actor tokens, faults, the
// request log, CORS, the preview page and the runtime's GraphiQL page.
func TestContractProjectSurfaces(t *testing.T) {
	s := startServer(t)
	cp := newContractProject(t, s, "contract-surfaces@example.com", contractDoc(t, "relay.graphql"))
	sh := cp.shop(s)
	q := []byte(`{"query":"{ books(first: 2) { totalCount } }"}`)

	t.Run("keys", func(t *testing.T) {
		s.do("POST", cp.runtime, q).refusal(t, 401, "UNAUTHENTICATED")
		mgmt := get(cp.owner.must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"m", scope: MANAGEMENT) { value } }`, map[string]any{"p": cp.id}), "createApiKey", "value").(string)
		s.do("POST", cp.runtime, q, "X-API-Key", mgmt).refusal(t, 403, "API_KEY_SCOPE_INSUFFICIENT")
		rt, _ := sh.keyWith(t, 1)
		s.do("POST", cp.runtime, q, "X-API-Key", rt).data(t)
	})
	t.Run("actor tokens", func(t *testing.T) {
		key, _ := sh.keyWith(t, 1)
		tok := sh.actors("POST", key, "")
		token, _ := tok.JSON["actorToken"].(string)
		if tok.Status != 200 || !strings.HasPrefix(token, "act_") {
			t.Fatalf("actor token: %d %s", tok.Status, tok.Raw)
		}
		s.do("POST", cp.runtime, q, "X-API-Key", key, "X-Actor-Token", token).data(t)
		sh.actors("POST", key, "").refusal(t, 429, "MAX_ACTIVE_ACTORS_REACHED")
	})
	t.Run("faults", func(t *testing.T) {
		sh.setFaults("", map[string]any{"errorRate": 1, "errorCode": "UNAVAILABLE", "seed": 1}).data(t)
		if r := sh.faulted(`{ books(first: 1) { totalCount } }`, ""); r.Status != 200 || r.errCode() != "UNAVAILABLE" || r.Header.Get("X-Mock-Fault-Applied") != "error=UNAVAILABLE" {
			t.Errorf("faulted: %d %v %s", r.Status, r.Header, r.Raw)
		}
		sh.setFaults("", nil).data(t)
		if r := sh.faulted(`{ books(first: 1) { totalCount } }`, "status=503"); r.Status != 503 {
			t.Errorf("X-Mock-Fault status=503: %d %s", r.Status, r.Raw)
		}
	})
	t.Run("request log", func(t *testing.T) {
		cp.mustQuery(s, `query Shelf { books(first: 1) { totalCount } viewer { name } }`, nil)
		log := sh.requestLog(t, 1)
		if len(log) != 1 || log[0]["operationName"] != "Shelf" || fmt.Sprint(log[0]["rootFields"]) != "[books viewer]" {
			t.Errorf("request log: %v", log)
		}
	})
	t.Run("CORS", func(t *testing.T) {
		cp.owner.must(`mutation($p:ID!){ updateProject(projectId:$p, allowedOrigins:["http://localhost:5173"]) { id } }`, map[string]any{"p": cp.id})
		r := s.do("POST", cp.runtime, q, "Authorization", "Bearer "+cp.key, "Origin", "http://localhost:5173")
		if r.Header.Get("Access-Control-Allow-Origin") != "http://localhost:5173" {
			t.Errorf("CORS headers %v", r.Header)
		}
	})
	t.Run("preview page", func(t *testing.T) {
		p := sh.setSharing(t, true)
		r := previewData(s, cp.slug, tokenOf(t, p["previewUrl"].(string)))
		if r.Status != 200 || !strings.Contains(string(r.Raw), "BookConnection") {
			t.Fatalf("preview data: %d %.600s", r.Status, r.Raw)
		}
		for _, table := range []string{"Book", "Author"} {
			if items, _ := get(sampleOf(r, table), "items").([]any); len(items) == 0 || get(items[0], "id") == nil {
				t.Errorf("preview sample of %s: %v", table, sampleOf(r, table))
			}
		}
	})
	t.Run("ready", func(t *testing.T) {
		// Generated rows need no dataset of the pool: the board, the
		// preview and MCP call the schema's tables ready (issue 29 item 4).
		d := cp.owner.must(`query($id:ID){ project(id:$id) { tables { name ready notReadyReason } } }`, map[string]any{"id": cp.id})
		tables, _ := get(d, "project", "tables").([]any)
		if len(tables) == 0 {
			t.Fatalf("no tables: %v", d)
		}
		for _, tb := range tables {
			if get(tb, "ready") != true || get(tb, "notReadyReason") != nil {
				t.Errorf("table %v of a schema project: %v", get(tb, "name"), tb)
			}
		}
		p := sh.setSharing(t, true)
		r := previewData(s, cp.slug, tokenOf(t, p["previewUrl"].(string)))
		for _, tb := range get(r.JSON, "tables").([]any) {
			if get(tb, "ready") != true {
				t.Errorf("preview table %v: %v", get(tb, "name"), tb)
			}
		}
	})
	t.Run("export", func(t *testing.T) {
		doc := get(cp.owner.must(`query($p:ID!){ exportOpenApi(projectId:$p) }`, map[string]any{"p": cp.id}), "exportOpenApi").(string)
		if !strings.Contains(doc, `"Book"`) || !strings.Contains(doc, `"Author"`) {
			t.Errorf("exportOpenApi of a contract project lacks its tables: %.300s", doc)
		}
		r := cp.owner.gql(`mutation($p:ID!){ exportCodePackage(projectId:$p, language:"go") }`, map[string]any{"p": cp.id})
		if r.errCode() != "BAD_USER_INPUT" || !strings.Contains(string(r.Raw), "imported GraphQL schema") {
			t.Errorf("exportCodePackage of a contract project: %s", r.Raw)
		}
	})
	t.Run("GraphiQL page", func(t *testing.T) {
		r := s.do("GET", cp.runtime, nil, "Accept", "text/html,application/xhtml+xml")
		if r.Status != 200 || !strings.Contains(r.Header.Get("Content-Type"), "text/html") || !strings.Contains(strings.ToLower(string(r.Raw)), "graphiql") {
			t.Errorf("GET %s as a browser: %d %v", cp.runtime, r.Status, r.Header)
		}
	})
}

// TestContractSessionProjects: an assistant imports a schema into its
// session project over the public API, and another over MCP, and both
// runtimes answer the schema's own queries with the share token; the
// session-project table limit applies to the schema's types.
func TestContractSessionProjects(t *testing.T) {
	s := startServer(t)
	doc := contractDoc(t, "hasura.graphql")

	t.Run("public API", func(t *testing.T) {
		a := &assistant{s: s}
		sp := get(a.must(`mutation { createSessionProject(name: "Shop") { projectId runtimeUrl } }`, nil), "createSessionProject").(map[string]any)
		d := a.must(`mutation($p:ID!,$s:String!){ importGraphQLSchema(projectId:$p, sdl:$s) { project { kind contract { version tables { type rows } } } report { root name shape } changes { path } } }`,
			map[string]any{"p": sp["projectId"], "s": doc})
		if get(d, "importGraphQLSchema", "project", "kind") != "SESSION" || len(get(d, "importGraphQLSchema", "report").([]any)) == 0 {
			t.Fatalf("import into a session project: %v", d)
		}
		sessionQuery(t, s, sp["runtimeUrl"].(string))
		other := &assistant{s: s}
		other.must(`mutation { createSessionProject { projectId } }`, nil)
		if r := other.gql(`mutation($p:ID!,$s:String!){ importGraphQLSchema(projectId:$p, sdl:$s) { project { id } } }`, map[string]any{"p": sp["projectId"], "s": doc}); r.errCode() != "FORBIDDEN" {
			t.Errorf("another session's import: %s", r.Raw)
		}
	})
	t.Run("MCP", func(t *testing.T) {
		ag := newAgent(t, mcpConnect(t, s.base))
		sp := ag.must("create_session_project", map[string]any{"name": "Hasura"})
		out := ag.must("import_graphql_schema", map[string]any{"session": sp["session"], "sdl": doc})
		if out["version"] != float64(1) || len(out["tables"].([]any)) == 0 || len(out["report"].([]any)) == 0 || out["runtimeUrl"] != sp["runtimeUrl"] {
			t.Fatalf("import_graphql_schema: %v", out)
		}
		sessionQuery(t, s, sp["runtimeUrl"].(string))
		again := ag.must("import_graphql_schema", map[string]any{"session": sp["session"], "sdl": strings.Replace(doc, "type query_root {", "type query_root {\n  ping: Boolean", 1)})
		if again["version"] != float64(2) || !strings.Contains(fmt.Sprint(again["changes"]), "query_root.ping") {
			t.Errorf("second import: %v", again)
		}
		ag.refused("BAD_USER_INPUT", "import_graphql_schema", map[string]any{"session": sp["session"], "sdl": "type Query {"})
	})
	t.Run("session table limit", func(t *testing.T) {
		a := &assistant{s: s}
		pid := get(a.must(`mutation { createSessionProject { projectId } }`, nil), "createSessionProject", "projectId")
		r := a.gql(`mutation($p:ID!,$s:String!){ importGraphQLSchema(projectId:$p, sdl:$s) { project { id } } }`, map[string]any{"p": pid, "s": manyTypes(21)})
		if r.errCode() != "LIMIT_REACHED" || !strings.Contains(string(r.Raw), "20 tables") {
			t.Errorf("21 types in a session project: %s", r.Raw)
		}
	})
}

// sessionQuery runs the Hasura schema's list on a runtime URL with its
// share token and checks that it answers rows.
func sessionQuery(t *testing.T, s *server, runtimeURL string) {
	t.Helper()
	r := s.gql(strings.TrimPrefix(runtimeURL, s.base), `{ products(limit: 2) { id name } }`, nil)
	if r.Status != 200 || r.JSON["errors"] != nil || len(get(r.data(t), "products").([]any)) != 2 {
		t.Fatalf("runtime of the session project: %d %s", r.Status, r.Raw)
	}
}

// TestImportSchemaCommand runs `mockgql import-schema` against a real
// server: a new project from a file, then a new version into it, printing
// the report and the changes; a broken file is refused with its line.
func TestImportSchemaCommand(t *testing.T) {
	s := startServer(t)
	u := s.signUp("cli-schema@example.com")
	dir := t.TempDir()
	v1, v2, bad := filepath.Join(dir, "v1.graphql"), filepath.Join(dir, "v2.graphql"), filepath.Join(dir, "bad.graphql")
	doc := contractDoc(t, "pages.graphql")
	for path, text := range map[string]string{v1: doc, v2: doc + "\nextend type Query { ping: Boolean }\n", bad: "type Query {\n  a: \n}"} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if err := importSchemaCmd([]string{"--server", s.base, "--token", u.token, "--new", "Pages", v1}, &out); err != nil {
		t.Fatalf("import-schema --new: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "schema version 1") || !strings.Contains(out.String(), "query ") {
		t.Errorf("import-schema --new printed:\n%s", out.String())
	}
	pid := get(u.must(`{ projects { id } }`, nil), "projects", 0, "id").(string)
	out.Reset()
	if err := importSchemaCmd([]string{"--server", s.base, "--token", u.token, "--project", pid, v2}, &out); err != nil {
		t.Fatalf("import-schema --project: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "schema version 2") || !strings.Contains(out.String(), "SAFE") || !strings.Contains(out.String(), "Query.ping") {
		t.Errorf("import-schema --project printed:\n%s", out.String())
	}
	err := importSchemaCmd([]string{"--server", s.base, "--token", u.token, "--project", pid, bad}, &out)
	if err == nil || !strings.Contains(err.Error(), "BAD_USER_INPUT") || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("a broken file: %v", err)
	}
	if code := run([]string{"import-schema", "--project", pid}, io.Discard, io.Discard); code != 2 {
		t.Errorf("import-schema without a file: exit %d, want 2", code)
	}
}

// manyTypes is a schema of n entity types, each listed by a query field.
func manyTypes(n int) string {
	var b strings.Builder
	b.WriteString("type Query {\n")
	for i := range n {
		fmt.Fprintf(&b, "  t%d: [T%d!]!\n", i, i)
	}
	b.WriteString("}\n")
	for i := range n {
		fmt.Fprintf(&b, "type T%d { id: ID! name: String }\n", i)
	}
	return b.String()
}

// TestContractSurvivesRestart: a contract project, a row created on it and
// its row counts are there after kill -9 and a restart.
func TestContractSurvivesRestart(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	data, port := t.TempDir(), freePort(t)
	p := startProc(t, data, port)
	cp := newContractProject(t, p.server, "contract-restart@example.com", contractDoc(t, "relay.graphql"))
	cp.owner.must(`mutation($p:ID!){ setContractRows(projectId:$p, type:"Book", rows: 33) { id } }`, map[string]any{"p": cp.id})
	author := get(cp.mustQuery(p.server, `{ authors(first: 1) { edges { node { id } } } }`, nil), "authors", "edges", 0, "node", "id")
	id := get(cp.mustQuery(p.server, `mutation($a:ID!){ createBook(input:{title:"Durable", price: 1, genre: FICTION, authorId:$a}) { book { id } } }`,
		map[string]any{"a": author}), "createBook", "book", "id")
	before := cp.query(p.server, relayBooks, nil)
	p.kill()
	p = startProc(t, data, port)
	cp.owner = cp.owner.on(p.server)
	if after := cp.query(p.server, relayBooks, nil); !bytes.Equal(before.Raw, after.Raw) {
		t.Errorf("after the restart the same query answers differently:\n%s\n%s", before.Raw, after.Raw)
	}
	got := cp.mustQuery(p.server, `query($id:ID!){ book(id:$id) { title } books(first: 100) { totalCount } }`, map[string]any{"id": id})
	if get(got, "book", "title") != "Durable" || get(got, "books", "totalCount") != float64(34) {
		t.Errorf("after the restart: %v", got)
	}
}

// TestContractProjectQuota: a contract project's runtime calls count
// against the account's plan quota like any project's.
func TestContractProjectQuota(t *testing.T) {
	s := startServer(t, func(c *serveConfig) { c.QuotaPro = 3 })
	cp := newContractProject(t, s, "contract-quota@example.com", contractDoc(t, "relay.graphql"))
	clearOfWindowEdge(t, 24*time.Hour, time.Minute) // quotas reset at UTC midnight
	q := []byte(`{"query":"{ books(first: 1) { totalCount } }"}`)
	for range 3 {
		s.do("POST", cp.runtime, q, "X-API-Key", cp.key).data(t)
	}
	s.do("POST", cp.runtime, q, "X-API-Key", cp.key).refusal(t, 429, "TOO_MANY_REQUESTS")
}

// TestContractCreateInEmptyType: a type set to 0 rows serves none, then
// the row a mutation creates in lists, connections, lookups and relations.
func TestContractCreateInEmptyType(t *testing.T) {
	s := startServer(t)
	cp := newContractProject(t, s, "contract-empty@example.com", contractDoc(t, "relay.graphql"))
	cp.owner.must(`mutation($p:ID!){ setContractRows(projectId:$p, type:"Book", rows: 0) { id } }`, map[string]any{"p": cp.id})
	if n := get(cp.mustQuery(s, `{ books(first: 5) { totalCount } }`, nil), "books", "totalCount"); n != float64(0) {
		t.Fatalf("books of a type of 0 rows: %v", n)
	}
	author := get(cp.mustQuery(s, `{ authors(first: 1) { edges { node { id } } } }`, nil), "authors", "edges", 0, "node", "id")
	id := get(cp.mustQuery(s, `mutation($a:ID!){ createBook(input:{title:"Only", price: 1, genre: FICTION, authorId:$a}) { book { id } } }`,
		map[string]any{"a": author}), "createBook", "book", "id").(string)
	for _, q := range []string{
		`{ books(first: 5) { totalCount edges { node { id } } } }`,
		`{ books(first: 5, genre: FICTION) { edges { node { id } } } }`,
		`{ book(id: "` + id + `") { id } }`,
		`{ node(id: "` + id + `") { id } }`,
		`{ authors(first: 1) { edges { node { books(first: 5) { edges { node { id } } } } } } }`,
	} {
		if r := cp.mustQuery(s, q, nil); !strings.Contains(string(mustJSON(r)), `"id":"`+id+`"`) {
			t.Errorf("%s does not show the created row %s: %s", q, id, mustJSON(r))
		}
	}
}

// TestContractFederationSubgraph: a Federation 2 subgraph imports through
// the management API as it is (no directive definitions of its own) and
// its runtime answers a router's two requests — _service { sdl } and
// _entities by a key seen in a list — over HTTP with an API key.
func TestContractFederationSubgraph(t *testing.T) {
	s := startServer(t)
	doc, err := os.ReadFile(filepath.Join("..", "..", "graphql", "testdata", "federation", "products.graphql"))
	if err != nil {
		t.Fatal(err)
	}
	cp := newContractProject(t, s, "federation@example.com", string(doc))
	if got := get(cp.mustQuery(s, `{ _service { sdl } }`, nil), "_service", "sdl"); got != string(doc) {
		t.Errorf("_service.sdl is not the subgraph's document: %.200v", got)
	}
	first := get(cp.mustQuery(s, `{ topProducts(first: 1) { id sku package } }`, nil), "topProducts").([]any)[0].(map[string]any)
	d := cp.mustQuery(s, `query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Product { id sku } } }`,
		map[string]any{"r": []any{map[string]any{"__typename": "Product", "sku": first["sku"], "package": first["package"]}}})
	if got := get(d, "_entities").([]any); len(got) != 1 || get(got[0], "id") != first["id"] {
		t.Errorf("_entities by the key (sku package) of %v: %v", first, d)
	}
}
