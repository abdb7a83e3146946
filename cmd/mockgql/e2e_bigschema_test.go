package main

// The largest real schemas (issue 29, item 3) against a real `mockgql
// serve` process: GitHub's public schema (1.2 MB of SDL, 1,636 types)
// imports, its runtime's introspection is the document's types and
// fields, and GitHub client operations answer; a schema of that size
// fits a STARTER project and a guest project (the document is stored
// compressed); past the byte bounds every surface answers
// PAYLOAD_TOO_LARGE and imports nothing. Each failed before: the 1 MiB
// document bound refused GitHub's schema, the validator refused its
// repeated fields, the 1 MB body of /public-graphql and MCP refused the
// document, and the 1 MiB record of STARTER and guest projects refused a
// project holding it.

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/internal/testdata"
)

// githubSDL returns GitHub's public schema (contract/testdata/SOURCES.md).
func githubSDL(t testing.TB) string {
	t.Helper()
	return gunzipFile(t, filepath.Join(testdata.Dir(t, "../contract/testdata"), "github.graphql.gz"))
}

// gunzipFile returns the contents of the gzipped file name.
func gunzipFile(t testing.TB, name string) string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// bigFewTables is a schema of at least size bytes with two entity types
// (Author, Book) and everything else types that are not tables: a
// connection, its edge and page info, and documented enums and inputs,
// as large real schemas are mostly.
func bigFewTables(size int) string {
	var b strings.Builder
	b.WriteString(`"""A bookshop"""
type Query {
  books(first: Int, after: String): BookConnection!
  book(id: ID!): Book
  authors: [Author!]!
}
type Book { id: ID! title: String! author: Author genre: Genre0 }
type Author { id: ID! name: String! books: [Book!]! }
type BookConnection { edges: [BookEdge!]! pageInfo: PageInfo! totalCount: Int! }
type BookEdge { cursor: String! node: Book! }
type PageInfo { hasNextPage: Boolean! endCursor: String }
`)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "\"\"\"\nThe genres of shelf %d, as the shop's catalogue lists them for browsing and filters.\n\"\"\"\nenum Genre%d {\n", i, i)
		for v := range 40 {
			fmt.Fprintf(&b, "  \"\"\"Books of kind %d on shelf %d, sorted by the catalogue's own order.\"\"\"\n  KIND_%d_%d\n", v, i, i, v)
		}
		fmt.Fprintf(&b, "}\ninput Filter%d { genre: Genre%d titleContains: String minPages: Int }\n", i, i)
	}
	return b.String()
}

// TestGitHubSchemaProcess imports GitHub's public schema into a TEAM
// project, compares its runtime's introspection with the document, runs
// the GitHub client operations of testdata/github and looks up by keys
// the lists show.
func TestGitHubSchemaProcess(t *testing.T) {
	t.Parallel() // node processes only: own ports, data and clock
	p := abuseProc(t)
	sdl := githubSDL(t)

	// STARTER: the schema's 316 entity types are over its 5 tables, and the
	// refusal says so; no project is left.
	starter := p.signUp("github-starter@example.com")
	r := starter.gql(`mutation($s:String!){ createProject(name:"GitHub", sdl:$s) { id } }`, map[string]any{"s": sdl})
	if r.errCode() != "LIMIT_REACHED" || !strings.Contains(string(r.Raw), "this model needs 316; the TEAM plan allows 500") {
		t.Fatalf("GitHub's schema on STARTER: %.400s; want LIMIT_REACHED naming 316 tables and TEAM", r.Raw)
	}
	if ps := get(starter.must(`{ projects { id } }`, nil), "projects").([]any); len(ps) != 0 {
		t.Fatalf("the refused import left projects: %v", ps)
	}

	u := p.signUp("github@example.com")
	u.must(`mutation { setPlan(plan: TEAM) { plan } }`, nil)
	d := u.must(`mutation($s:String!){ createProject(name:"GitHub", sdl:$s) { id slug contract { version tables { type } } } }`, map[string]any{"s": sdl})
	cp := &contractProject{owner: u, id: get(d, "createProject", "id").(string), slug: get(d, "createProject", "slug").(string)}
	cp.runtime = "/mock/" + cp.slug + "/graphql"
	cp.key = get(u.must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"k", scope: FULL) { value } }`, map[string]any{"p": cp.id}), "createApiKey", "value").(string)

	warmRuntime(t, p.server, cp)
	t.Run("introspection is the document", func(t *testing.T) {
		compareIntrospection(t, sdl, cp.mustQuery(p.server, introspectTypes, nil))
	})
	t.Run("its introspection result imports as the same schema", func(t *testing.T) {
		// The runtime's whole introspection, indented as tools dump it:
		// 5.4 MB, past the SDL bound, within the introspection bound.
		intro, err := json.MarshalIndent(cp.mustQuery(p.server, fullIntrospection, nil), "", "  ")
		if err != nil || len(intro) <= contract.MaxSDLBytes {
			t.Fatalf("GitHub's introspection result: %d bytes, %v", len(intro), err)
		}
		doc := `{"data":` + string(intro) + `}`
		// As a new version (a mutation: a query's 10 s would be short
		// under the race detector on a loaded machine): no change at all.
		d := u.must(`mutation($p:ID!,$s:String!){ importGraphQLSchema(projectId:$p, sdl:$s) { project { contract { version } } changes { path } } }`, map[string]any{"p": cp.id, "s": doc})
		if ch := get(d, "importGraphQLSchema", "changes").([]any); len(ch) != 0 || get(d, "importGraphQLSchema", "project", "contract", "version") != float64(2) {
			t.Errorf("the runtime's introspection differs from the document in %d places: %.600v", len(ch), d)
		}
		// On /public-graphql too (a 5.9 MB body): read whole, refused by the
		// guest project's tables alone.
		a := &assistant{s: p.server}
		g := get(a.must(`mutation { createGuestProject { projectId } }`, nil), "createGuestProject", "projectId")
		r := a.gql(importSchemaMutation, map[string]any{"p": g, "s": doc})
		if r.errCode() != "LIMIT_REACHED" || !strings.Contains(string(r.Raw), "this model needs 316") {
			t.Errorf("GitHub's introspection result into a guest project: %d %.400s; want LIMIT_REACHED naming 316 tables", r.Status, r.Raw)
		}
		warmRuntime(t, p.server, cp)
	})
	t.Run("client operations", func(t *testing.T) {
		githubOperations(t, p.server, cp)
	})
	t.Run("an edit keeps the schema", func(t *testing.T) {
		document := func() string {
			return get(u.must(`query($id:ID){ project(id:$id) { contract { document } } }`, map[string]any{"id": cp.id}), "project", "contract", "document").(string)
		}
		before := document()
		u.must(`mutation($p:ID!){ setContractRows(projectId:$p, type:"Issue", rows: 7) { id } }`, map[string]any{"p": cp.id})
		if got := document(); got != before || len(got) < 1<<20 {
			t.Errorf("the contract's document after an edit: %d bytes, want the %d before it", len(got), len(before))
		}
		warmRuntime(t, p.server, cp)
		n := get(cp.mustQuery(p.server, `{ viewer { issues(first: 100) { totalCount } } }`, nil), "viewer", "issues", "totalCount")
		if n == nil {
			t.Errorf("no issues after setContractRows")
		}
	})
}

// warmRuntime waits, by the Retry-After of its answers, until cp's
// runtime has compiled: the first call of a large schema compiles it
// (seconds under the race detector), and a call that passes the query
// time limit meanwhile answers QUERY_TIMEOUT while the compile goes on.
func warmRuntime(t *testing.T, s *server, cp *contractProject) {
	t.Helper()
	for range 60 {
		r := cp.query(s, `{ __typename }`, nil)
		if r.Status == 200 {
			return
		}
		if r.JSON["code"] != "QUERY_TIMEOUT" {
			t.Fatalf("the first runtime call: %d %.300s", r.Status, r.Raw)
		}
		time.Sleep(time.Second)
	}
	t.Fatal("the runtime did not compile within a minute of retries")
}

// tooLarge reports whether r is a PAYLOAD_TOO_LARGE refusal: the HTTP
// error body of a body over its bound, or the GraphQL error of a document
// over the schema bounds.
func tooLarge(r response) bool {
	return r.Status == 413 && r.JSON["code"] == "PAYLOAD_TOO_LARGE" || r.errCode() == "PAYLOAD_TOO_LARGE"
}

// fullIntrospection is graphql-js's getIntrospectionQuery, what GraphiQL,
// rover and get-graphql-schema send.
const fullIntrospection = `query IntrospectionQuery { __schema { queryType { name } mutationType { name } subscriptionType { name }
  types { ...FullType } directives { name description isRepeatable locations args(includeDeprecated: true) { ...InputValue } } } }
fragment FullType on __Type { kind name description specifiedByURL
  fields(includeDeprecated: true) { name description args(includeDeprecated: true) { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields(includeDeprecated: true) { ...InputValue } interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason } possibleTypes { ...TypeRef } }
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue isDeprecated deprecationReason }
fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }`

// introspectTypes reads every type's fields, input fields, enum values,
// members and interfaces, with their types.
const introspectTypes = `{ __schema { queryType { name } mutationType { name } types {
  kind name
  fields(includeDeprecated: true) { name args { name type { ...T } } type { ...T } }
  inputFields { name type { ...T } }
  enumValues(includeDeprecated: true) { name }
  possibleTypes { name } interfaces { name } } } }
fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }`

// compareIntrospection requires the runtime's types to be the document's
// (with each repeated field once) and the built-ins, each with the
// document's fields, argument names, input fields, enum values, members
// and interfaces, typed as the document types them.
func compareIntrospection(t *testing.T, sdl string, data map[string]any) {
	doc, err := parser.ParseSchema(&ast.Source{Name: "github.graphql", Input: sdl})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]map[string]any{}
	for _, ty := range get(data, "__schema", "types").([]any) {
		m := ty.(map[string]any)
		got[m["name"].(string)] = m
	}
	want := map[string]bool{}
	for _, d := range doc.Definitions {
		want[d.Name] = true
		g := got[d.Name]
		if g == nil {
			t.Errorf("type %s is not in the runtime's introspection", d.Name)
			continue
		}
		if w, h := describeDefinition(d), describeIntrospected(g); w != h {
			t.Errorf("type %s:\nruntime  %.600s\ndocument %.600s", d.Name, h, w)
		}
	}
	for name := range got {
		if !want[name] && !strings.HasPrefix(name, "__") && !slices.Contains([]string{"String", "Int", "Float", "Boolean", "ID"}, name) {
			t.Errorf("the runtime has type %s, which the document does not define", name)
		}
	}
	if len(want) < 1600 {
		t.Fatalf("%d types: not GitHub's schema", len(want))
	}
}

// describeDefinition writes d as describeIntrospected writes a type.
func describeDefinition(d *ast.Definition) string {
	var parts []string
	seen := map[string]bool{}
	for _, f := range d.Fields {
		if seen[f.Name] {
			continue
		}
		seen[f.Name] = true
		var args []string
		for _, a := range f.Arguments {
			args = append(args, a.Name+":"+a.Type.String())
		}
		parts = append(parts, f.Name+"("+strings.Join(args, ",")+"):"+f.Type.String())
	}
	for _, v := range d.EnumValues {
		parts = append(parts, v.Name)
	}
	parts = append(parts, "|"+strings.Join(d.Types, ","), "&"+strings.Join(d.Interfaces, ","))
	return string(d.Kind) + " " + strings.Join(parts, " ")
}

// describeIntrospected writes an introspected type.
func describeIntrospected(m map[string]any) string {
	var parts []string
	for _, key := range []string{"fields", "inputFields"} {
		list, _ := m[key].([]any)
		for _, f := range list {
			f := f.(map[string]any)
			var args []string
			if as, ok := f["args"].([]any); ok {
				for _, a := range as {
					args = append(args, a.(map[string]any)["name"].(string)+":"+introspectedRef(a.(map[string]any)["type"]))
				}
			}
			parts = append(parts, f["name"].(string)+"("+strings.Join(args, ",")+"):"+introspectedRef(f["type"]))
		}
	}
	names := func(key string) []string {
		var out []string
		list, _ := m[key].([]any)
		for _, x := range list {
			out = append(out, x.(map[string]any)["name"].(string))
		}
		return out
	}
	parts = append(parts, names("enumValues")...)
	possible := names("possibleTypes")
	if m["kind"] != "UNION" {
		possible = nil
	}
	parts = append(parts, "|"+strings.Join(possible, ","), "&"+strings.Join(names("interfaces"), ","))
	return m["kind"].(string) + " " + strings.Join(parts, " ")
}

// introspectedRef writes an introspected type reference as SDL does.
func introspectedRef(v any) string {
	m := v.(map[string]any)
	switch m["kind"] {
	case "NON_NULL":
		return introspectedRef(m["ofType"]) + "!"
	case "LIST":
		return "[" + introspectedRef(m["ofType"]) + "]"
	}
	return m["name"].(string)
}

// githubOperations runs testdata/github/operations.graphql: every
// operation answers without errors, with each field it selects on every
// object it gets, and lookups by a key a list showed answer that item.
func githubOperations(t *testing.T, s *server, cp *contractProject) {
	b, err := os.ReadFile("testdata/github/operations.graphql")
	if err != nil {
		t.Fatal(err)
	}
	doc, gerr := parser.ParseQuery(&ast.Source{Input: string(b)})
	if gerr != nil {
		t.Fatal(gerr)
	}
	run := func(op string, vars map[string]any) map[string]any {
		t.Helper()
		body, _ := json.Marshal(map[string]any{"query": string(b), "operationName": op, "variables": vars})
		r := s.do("POST", cp.runtime, body, "Authorization", "Bearer "+cp.key)
		if r.Status != 200 || r.JSON["errors"] != nil {
			t.Fatalf("%s(%v): %d %.600s", op, vars, r.Status, r.Raw)
		}
		d := r.data(t)
		if missing := shapeGaps(doc.Operations.ForName(op).SelectionSet, d, ""); len(missing) > 0 {
			t.Errorf("%s: the answer lacks %v", op, missing)
		}
		return d
	}
	viewer := run("Viewer", nil)
	repos := get(viewer, "viewer", "repositories", "nodes").([]any)
	if len(repos) == 0 {
		t.Fatalf("the viewer has no repositories: %v", viewer)
	}
	repo := repos[0].(map[string]any)
	page := run("RepositoryPage", map[string]any{"id": repo["id"]})
	if get(page, "node", "id") != repo["id"] || get(page, "node", "nameWithOwner") != repo["nameWithOwner"] {
		t.Errorf("node(id: %v) answered %v, not the repository the list showed", repo["id"], get(page, "node"))
	}
	run("RepositoryByName", map[string]any{"owner": get(repo, "owner", "login"), "name": repo["name"]})
	if edges := get(page, "node", "issues", "edges").([]any); len(edges) > 0 {
		issue := get(edges[0], "node").(map[string]any)
		got := run("IssueDetail", map[string]any{"id": issue["id"]})
		if get(got, "node", "number") != issue["number"] || get(got, "node", "title") != issue["title"] {
			t.Errorf("node(id: %v) answered %v, not the issue the list showed", issue["id"], get(got, "node"))
		}
	}
	login := get(viewer, "viewer", "login")
	if got := run("UserProfile", map[string]any{"login": login}); get(got, "user", "id") != get(viewer, "viewer", "id") {
		t.Errorf("user(login: %v) answered %v, not the viewer", login, get(got, "user"))
	}
	run("SearchRepositories", map[string]any{"q": "is:public"})
	run("NodeById", map[string]any{"id": get(viewer, "viewer", "id")})
}

// shapeGaps lists the fields of sel missing from v (an answer's object,
// list or null), at path; an inline fragment counts where __typename is
// its type.
func shapeGaps(sel ast.SelectionSet, v any, path string) []string {
	switch x := v.(type) {
	case []any:
		var out []string
		for i, item := range x {
			out = append(out, shapeGaps(sel, item, fmt.Sprintf("%s[%d]", path, i))...)
		}
		return out
	case map[string]any:
		var out []string
		for _, s := range sel {
			switch s := s.(type) {
			case *ast.Field:
				key := s.Alias
				if key == "" {
					key = s.Name
				}
				child, ok := x[key]
				if !ok {
					out = append(out, path+"."+key)
					continue
				}
				if len(s.SelectionSet) > 0 {
					out = append(out, shapeGaps(s.SelectionSet, child, path+"."+key)...)
				}
			case *ast.InlineFragment:
				if tn, ok := x["__typename"].(string); !ok || tn == s.TypeCondition {
					out = append(out, shapeGaps(s.SelectionSet, x, path)...)
				}
			}
		}
		return out
	}
	return nil
}

// TestBigSchemaSmallPlans: a 1.3 MB schema of two entity types imports
// into a STARTER project, a guest project over /public-graphql and a
// session project over MCP, and is served; an edit of the STARTER project
// works. Past the bounds (4 MiB of SDL; 1 MB for any other body) each
// surface answers PAYLOAD_TOO_LARGE and the projects keep their schema.
func TestBigSchemaSmallPlans(t *testing.T) {
	t.Parallel() // node processes only: own ports, data and clock
	p := abuseProc(t)
	doc := bigFewTables(1300 << 10)
	over := "# " + strings.Repeat("x", contract.MaxSDLBytes) + "\n" + doc

	starter := p.signUp("big-starter@example.com")
	id := get(starter.must(`mutation($s:String!){ createProject(name:"Shelves", sdl:$s) { id } }`, map[string]any{"s": doc}), "createProject", "id")
	starter.must(`mutation($p:ID!){ setContractRows(projectId:$p, type:"Book", rows: 9) { id } }`, map[string]any{"p": id})
	r := starter.gql(importSchemaMutation, map[string]any{"p": id, "s": over})
	if !tooLarge(r) {
		t.Errorf("4 MiB + of SDL on /graphql: %d %.300s; want PAYLOAD_TOO_LARGE", r.Status, r.Raw)
	}
	got := starter.must(`query($id:ID){ project(id:$id) { contract { version document } } }`, map[string]any{"id": id})
	if get(got, "project", "contract", "document") != doc || get(got, "project", "contract", "version") != float64(1) {
		t.Errorf("the STARTER project after the refused import: version %v, a document of %d bytes", get(got, "project", "contract", "version"), len(fmt.Sprint(get(got, "project", "contract", "document"))))
	}

	a := &assistant{s: p.server}
	g := get(a.must(`mutation { createGuestProject(name: "Shelves") { projectId slug shareToken } }`, nil), "createGuestProject").(map[string]any)
	a.must(importSchemaMutation, map[string]any{"p": g["projectId"], "s": doc})
	books := p.gql("/mock/"+g["slug"].(string)+"/graphql?token="+g["shareToken"].(string), `{ books(first: 3) { totalCount edges { node { id title author { name } } } } }`, nil)
	if books.Status != 200 || books.JSON["errors"] != nil || len(get(books.data(t), "books", "edges").([]any)) != 3 {
		t.Errorf("the guest project's runtime: %d %.400s", books.Status, books.Raw)
	}
	r = a.gql(importSchemaMutation, map[string]any{"p": g["projectId"], "s": over})
	if !tooLarge(r) {
		t.Errorf("4 MiB + of SDL on /public-graphql: %d %.300s; want PAYLOAD_TOO_LARGE", r.Status, r.Raw)
	}
	// Any other operation keeps the 1 MB body.
	r = a.gql(`mutation($n:String!){ createGuestProject(name: $n) { slug } }`, map[string]any{"n": doc})
	if r.Status != 413 || !tooLarge(r) {
		t.Errorf("a 1.3 MB createGuestProject: %d %.300s; want 413 PAYLOAD_TOO_LARGE", r.Status, r.Raw)
	}

	ag := newAgent(t, mcpConnect(t, p.base))
	ms := ag.must("create_session_project", map[string]any{"name": "Shelves"})
	out := ag.must("import_graphql_schema", map[string]any{"session": ms["session"], "sdl": doc})
	if fmt.Sprint(out["tables"]) != "[Author Book]" {
		t.Errorf("MCP import: tables %v", out["tables"])
	}
}
