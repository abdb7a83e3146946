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
	owner := s.signUp("guestdata@example.com")
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
