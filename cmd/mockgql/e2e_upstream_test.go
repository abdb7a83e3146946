package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDriftCheck (issue 30, "Drift check"): a project stands in for a
// real API, here another project on the same node serving the real
// schema behind an API key (the node runs with --upstream-private, as an
// operator with the real API on its own network would). checkUpstream
// names a field the mock has and the real API lacks as BREAKING, with the
// key given as a header and without it the real API is unreachable;
// checkOperations names the client document valid on the mock and not
// upstream; `mockgql check-upstream` prints both and exits 1, and 0 once
// the mock matches.
func TestDriftCheck(t *testing.T) {
	s := startServer(t, func(c *serveConfig) { c.UpstreamPrivate = true })
	u := s.signUp("drift@example.com")
	u.must(`mutation { setPlan(plan: TEAM) { plan } }`, nil)
	const mockSDL = `type Query { books: [Book!]! book(id: ID!): Book }
type Book { id: ID! title: String! isbn: String }`
	const realSDL = `type Query { books: [Book!]! book(id: ID!): Book authors: [Author!]! }
type Book { id: ID! title: String! subtitle: String }
type Author { id: ID! name: String! }`
	mock := get(u.must(`mutation($s:String!){ createProject(name: "Mock", sdl:$s) { id } }`, map[string]any{"s": mockSDL}), "createProject", "id").(string)
	real := get(u.must(`mutation($s:String!){ createProject(name: "Real", sdl:$s) { id slug } }`, map[string]any{"s": realSDL}), "createProject").(map[string]any)
	key := get(u.must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"real", scope: RUNTIME) { value } }`, map[string]any{"p": real["id"]}), "createApiKey", "value").(string)
	upstreamURL := s.base + "/mock/" + real["slug"].(string) + "/graphql"
	headers := []map[string]string{{"name": "X-API-Key", "value": key}}

	check := u.must(`query($p:ID!,$u:String!,$h:[UpstreamHeaderInput!]){ checkUpstream(projectId:$p, url:$u, headers:$h) { url breaking changes { criticality type path } } }`,
		map[string]any{"p": mock, "u": upstreamURL, "h": headers})
	got := mustJSON(get(check, "checkUpstream"))
	for _, want := range []string{`"breaking":1`, `{"criticality":"BREAKING","path":"Book.isbn","type":"FIELD_REMOVED"}`, `"path":"Book.subtitle"`, `"path":"Query.authors"`} {
		if !bytes.Contains(got, []byte(want)) {
			t.Errorf("checkUpstream: %s; want %s", got, want)
		}
	}
	// Only the headers given reach the real API: without the key it
	// answers no schema, and the refusal says so.
	r := u.gql(`query($p:ID!,$u:String!){ checkUpstream(projectId:$p, url:$u) { breaking } }`, map[string]any{"p": mock, "u": upstreamURL})
	if r.errCode() != "UNAVAILABLE" || !strings.Contains(string(r.Raw), "no introspection result") {
		t.Errorf("checkUpstream without the real API's key: %s; want UNAVAILABLE", r.Raw)
	}
	r = u.gql(`query($p:ID!){ checkUpstream(projectId:$p, url:"ftp://example.com/") { breaking } }`, map[string]any{"p": mock})
	if r.errCode() != "BAD_USER_INPUT" {
		t.Errorf("an ftp url: %s; want BAD_USER_INPUT", r.Raw)
	}

	docs := []string{`query BookCard($id: ID!) { book(id: $id) { title isbn } }`, `query Shelf { books { id title } }`, `query Authors { authors { name } }`}
	ops := u.must(`query($p:ID!,$d:[String!]!,$u:String,$h:[UpstreamHeaderInput!]){ checkOperations(projectId:$p, documents:$d, url:$u, headers:$h) { name mockErrors upstreamErrors differs } }`,
		map[string]any{"p": mock, "d": docs, "u": upstreamURL, "h": headers})
	list := get(ops, "checkOperations").([]any)
	want := []string{"BookCard differs", "Shelf same", "Authors differs"}
	for i, o := range list {
		m := o.(map[string]any)
		state := "same"
		if m["differs"] == true {
			state = "differs"
		}
		if got := m["name"].(string) + " " + state; got != want[i] {
			t.Errorf("checkOperations[%d]: %s (%v); want %s", i, got, m, want[i])
		}
	}
	if e := mustJSON(get(list[0], "upstreamErrors")); !bytes.Contains(e, []byte(`isbn`)) || !bytes.Contains(e, []byte(`line 1`)) {
		t.Errorf("BookCard's upstream errors: %s; want the isbn field and its line", e)
	}

	// The CLI, as a CI job runs it: exit 1 on drift, naming the field and
	// the document; 0 once the mock matches the real API.
	dir := t.TempDir()
	for i, d := range docs[:2] {
		sub := filepath.Join(dir, "src", "screens", []string{"book", "shelf"}[i])
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, "query.graphql"), []byte(d), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var out, errOut bytes.Buffer
	args := []string{"check-upstream", "--server", s.base, "--token", u.token, "--project", mock, "--url", upstreamURL,
		"--header", "X-API-Key: " + key, "--documents", filepath.Join(dir, "src", "**", "*.graphql")}
	if code := run(args, &out, &errOut); code != 1 || !strings.Contains(out.String(), "FIELD_REMOVED") ||
		!strings.Contains(out.String(), "FAILS UPSTREAM") || !strings.Contains(out.String(), "BookCard") {
		t.Errorf("check-upstream exited %d:\n%s%s\nwant 1 naming Book.isbn and BookCard", code, out.String(), errOut.String())
	}
	u.must(`mutation($p:ID!,$s:String!){ importGraphQLSchema(projectId:$p, sdl:$s) { project { id } } }`, map[string]any{"p": mock, "s": realSDL})
	out.Reset()
	errOut.Reset()
	if code := run(args, &out, &errOut); code != 0 {
		t.Errorf("check-upstream after the mock took the real schema exited %d:\n%s%s", code, out.String(), errOut.String())
	}
	t.Logf("check-upstream:\n%s", out.String())
}
