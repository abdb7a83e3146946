package main

import (
	"strings"
	"testing"
)

// TestBoardDriftCheck: on a contract project's Schema tab, "Compare with
// the real API" takes the real API's URL and Authorization (3 actions:
// the URL, the header, the button) and lists how it differs, BREAKING
// first; a viewer may compare too. Screenshots at 1280 and 390 px, axe.
func TestBoardDriftCheck(t *testing.T) {
	s := startServer(t, func(c *serveConfig) { c.UpstreamPrivate = true })
	u := s.signUp("board-drift@example.com")
	u.must(`mutation { setPlan(plan: TEAM) { plan } }`, nil)
	pid := boardContractProject(t, u, "Bookshop", `type Query { books: [Book!]! book(id: ID!): Book }
type Book { id: ID! title: String! isbn: String }`)
	real := get(u.must(`mutation($s:String!){ createProject(name: "Real bookshop", sdl:$s) { id slug } }`,
		map[string]any{"s": "type Query { books: [Book!]! book(id: ID!): Book }\ntype Book { id: ID! title: String! subtitle: String }"}), "createProject").(map[string]any)
	key := get(u.must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"real", scope: RUNTIME) { value } }`, map[string]any{"p": real["id"]}), "createApiKey", "value").(string)

	p := newPage(t, s)
	p.signedIn(u)
	p.open("/board/projects/"+pid+"/schema", "#schemaUpstream")
	p.set("#upstreamUrl", s.base+"/mock/"+real["slug"].(string)+"/graphql")
	p.set("#upstreamAuth", "Bearer "+key)
	p.click("#upstreamCompare")
	p.waitText("#schemaUpstream .status", "1 of 2 differences break")
	if got := p.text(`#upstreamChanges tr[data-criticality="BREAKING"]`); !strings.Contains(got, "Book.isbn") {
		t.Errorf("the breaking row: %q; want Book.isbn", got)
	}
	if got := p.text(`#upstreamChanges tr[data-criticality="SAFE"]`); !strings.Contains(got, "Book.subtitle") {
		t.Errorf("the safe row: %q; want Book.subtitle", got)
	}
	p.axe("drift check")
	p.shot("schema-upstream")
	p.phone()
	p.noSideways("#schemaUpstream", "the drift check")
	p.shot("schema-upstream-phone")

	// Without the key the real API answers no schema: the card says why.
	p.set("#upstreamAuth", "")
	p.click("#upstreamCompare")
	p.waitText("#schemaUpstream .status.error", "no introspection result")
}
