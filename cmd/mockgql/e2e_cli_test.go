package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportCommand runs `mockgql import` against a real server.
func TestImportCommand(t *testing.T) {
	s := startServer(t)
	u := s.signUp("cli@example.com")
	file := filepath.Join(t.TempDir(), "people.csv")
	if err := os.WriteFile(file, []byte("id,name,team\n1,Ann,red\n2,Bob,blue\n3,Cy,red\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := importCmd([]string{"--server", s.base, "--token", u.token, "--code", "people", "--variant-field", "team", file})
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	d := u.must(`{ dataSources { importCode recordCount variants { name recordCount } } }`, nil)
	if got := get(d, "dataSources", 0); get(got, "importCode") != "people" || get(got, "recordCount") != 3.0 || len(get(got, "variants").([]any)) != 2 {
		t.Fatalf("after import: %v", d)
	}
	err = importCmd([]string{"--server", s.base, "--token", u.token, "--code", "people", file})
	if err == nil || !strings.Contains(err.Error(), "CONFLICT") {
		t.Fatalf("second import: %v", err)
	}
}

// TestGuestSession builds a guest project's model through the public API
// with the session cookie, and checks that another session cannot touch it.
func TestGuestSession(t *testing.T) {
	s := startServer(t)
	owner := s.curator() // guests see the curated pool only
	owner.importVia("things", "json", `[{"id":1,"label":"a"},{"id":2,"label":"b"}]`, "").data(t)

	r := s.gql("/public-graphql", `mutation { createGuestProject(name: "Mine") { projectId slug shareToken } }`, nil)
	g := get(r.data(t), "createGuestProject")
	var cookie string
	for _, c := range r.Header.Values("Set-Cookie") {
		if strings.HasPrefix(c, "mgq_session=") {
			cookie = strings.SplitN(c, ";", 2)[0]
		}
	}
	if cookie == "" || !strings.Contains(strings.Join(r.Header.Values("Set-Cookie"), ";"), "HttpOnly") {
		t.Fatalf("session cookie: %v", r.Header.Values("Set-Cookie"))
	}
	pid := get(g, "projectId")
	mk := `mutation($p:ID!){ createModellingTable(input:{projectId:$p, name:"Thing", source:{importCode:"things"}}) { id } }`
	if r := s.gql("/public-graphql", mk, map[string]any{"p": pid}); r.errCode() != "UNAUTHENTICATED" && r.errCode() != "FORBIDDEN" {
		t.Fatalf("no cookie edited: %s", r.Raw)
	}
	other := s.gql("/public-graphql", `mutation { createGuestProject { projectId } }`, nil)
	otherCookie := strings.SplitN(other.Header.Get("Set-Cookie"), ";", 2)[0]
	if r := s.gql("/public-graphql", mk, map[string]any{"p": pid}, "Cookie", otherCookie); r.errCode() != "FORBIDDEN" {
		t.Fatalf("another session edited: %s", r.Raw)
	}
	tid := get(s.gql("/public-graphql", mk, map[string]any{"p": pid}, "Cookie", cookie).data(t), "createModellingTable", "id")
	s.gql("/public-graphql", `mutation($t:ID!){ createModellingAttribute(input:{tableId:$t, name:"label", type: STRING, mappingType: SOURCE, sourceMapping:{path:"label"}}) { id } }`,
		map[string]any{"t": tid}, "Cookie", cookie).data(t)
	s.gql("/public-graphql", `mutation($p:ID!){ generateDefaultGqlOperations(projectId:$p) { name } }`, map[string]any{"p": pid}, "Cookie", cookie).data(t)
	path := "/mock/" + get(g, "slug").(string) + "/graphql?token=" + get(g, "shareToken").(string)
	d := s.gql(path, `{ things(sortField: "label", sortDirection: DESC) { items { label } } }`, nil).data(t)
	if get(d, "things", "items", 0, "label") != "b" {
		t.Fatalf("guest runtime: %v", d)
	}
	ds := s.gql("/public-graphql", `{ availableDataSources { importCode fieldPaths sampleDocuments(limit: 1) } }`, nil).data(t)
	if get(ds, "availableDataSources", 0, "importCode") != "things" {
		t.Fatalf("availableDataSources: %v", ds)
	}
}

// TestSchemaDiffCommand runs `mockgql schema diff` as a process on schema
// files: exit 0 when nothing breaks (dangerous and safe changes included),
// 1 on a breaking change, 2 when a schema or the command line is wrong, so
// that a CI job fails on breaking changes only.
func TestSchemaDiffCommand(t *testing.T) {
	t.Parallel() // child processes only, each case its own
	dir := t.TempDir()
	file := func(name, sdl string) string {
		path := filepath.Join(dir, name)
		writeFile(t, path, sdl)
		return path
	}
	base := file("base.graphql", "enum Status { ACTIVE }\ntype Product { id: ID! status: Status }\ntype Query { products(page: Int): [Product!]! }\n")
	additive := file("additive.graphql", "enum Status { ACTIVE DRAFT }\ntype Product { id: ID! status: Status price: Float }\n"+
		"type Query { products(page: Int = 1): [Product!]! }\n")
	breaking := file("breaking.graphql", "enum Status { ACTIVE }\ntype Product { id: ID! status: Status }\n"+
		"type Query { products(page: Int, market: String!): [Product!]! }\n")
	broken := file("broken.graphql", "type Query { products: [Nope] }\n")
	for _, tc := range []struct {
		name string
		args []string
		code int
		says []string
	}{
		{"no change", []string{"diff", base, base}, 0, []string{"0 changes: 0 breaking, 0 dangerous, 0 safe"}},
		{"dangerous and safe only", []string{"diff", base, additive}, 0, []string{
			"DANGEROUS  ENUM_VALUE_ADDED  Status.DRAFT", "DANGEROUS  DEFAULT_CHANGED   Query.products(page:)",
			"SAFE       FIELD_ADDED       Product.price", "3 changes: 0 breaking, 2 dangerous, 1 safe"}},
		{"breaking", []string{"diff", base, breaking}, 1, []string{
			"BREAKING  ARGUMENT_ADDED  Query.products(market:)", "1 changes: 1 breaking", "mockgql: 1 breaking changes"}},
		{"breaking backwards", []string{"diff", additive, base}, 1, []string{"ENUM_VALUE_REMOVED", "FIELD_REMOVED", "Product.price"}},
		{"new schema invalid", []string{"diff", base, broken}, 2, []string{"new schema"}},
		{"old schema missing", []string{"diff", filepath.Join(dir, "none.graphql"), base}, 2, []string{"none.graphql"}},
		{"one file", []string{"diff", base}, 2, []string{"usage: mockgql schema diff OLD.graphql NEW.graphql"}},
		{"no subcommand", nil, 2, []string{"usage: mockgql schema diff"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, code := runSchema(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s", code, tc.code, out)
			}
			for _, s := range tc.says {
				if !strings.Contains(out, s) {
					t.Errorf("output lacks %q:\n%s", s, out)
				}
			}
		})
	}
}
