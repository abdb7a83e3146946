package main

import (
	"os"
	"strings"
	"testing"
	"time"
)

// shopFrontSDL is a schema a team brings: described, with a mutation and a
// query the import cannot map (they answer generated values).
const shopFrontSDL = `"""
The Corner Shop API. Products and their makers.
"""
type Query {
  products(first: Int, after: String): ProductConnection!
  product(id: ID!): Product
  weather(city: String): String
}

type Mutation {
  recalculateEverything(seed: Int): Boolean
}

type Product {
  id: ID!
  title: String!
  price: Float!
}

type ProductConnection {
  edges: [ProductEdge!]!
  pageInfo: PageInfo!
}

type ProductEdge {
  cursor: String!
  node: Product!
}

type PageInfo {
  hasNextPage: Boolean!
  endCursor: String
}
`

// TestBoardSchemaFrontDoor (issue 29 item 4): the schema path is the front
// door. A visitor without an account pastes a schema on the landing page,
// Creates and Runs — rows in 3 actions, in a guest project named after the
// schema's description — and the playground says what the import could not
// map, linking to the Schema tab, whose tables are ready.
func TestBoardSchemaFrontDoor(t *testing.T) {
	s := startServer(t)
	p := newPage(t, s)
	p.open("/", "#startSdl")
	if got := p.text("main"); strings.Index(got, "Start from your GraphQL schema") > strings.Index(got, "Sign up") {
		t.Errorf("the landing page does not offer the schema first:\n%.400s", got)
	}
	p.shot("landing-schema")
	a := &actions{p: p}
	a.set("#startSdl", shopFrontSDL)
	if got := p.js(`document.querySelector("#schemaProjectName").placeholder`); got != "The Corner Shop API" {
		t.Errorf("the name a described schema suggests: %v", got)
	}
	a.click("#schemaCreate")
	p.wait(".graphiql-execute-button")
	p.waitText(".graphiql-query-editor", "products(first: 5)")
	a.click(".graphiql-execute-button")
	if res := p.waitText(".result-window", `"title"`); strings.Count(res, `"title"`) != 5 {
		t.Errorf("the starter query's rows:\n%s", res)
	}
	if a.n > 3 {
		t.Fatalf("%d actions from a schema on the landing page to rows; at most 3 wanted", a.n)
	}
	p.waitText("h1", "The Corner Shop API")
	sum := p.waitText("#importSummary", "1 mutation saves nothing")
	if !strings.Contains(sum, "recalculateEverything") || !strings.Contains(sum, "1 query answers generated values: weather") {
		t.Errorf("the summary of what the import could not map: %q", sum)
	}
	p.shot("schema-import-summary")
	p.click("#mapGenerated")
	p.wait(`a[data-tab="schema"][aria-current="page"]`)
	p.click(`a[data-tab="model"]`)
	p.wait(".ready")
	if got := p.text("main"); strings.Contains(got, "not ready") {
		t.Errorf("a schema project's Model tab says not ready:\n%.600s", got)
	}
	p.shot("schema-model-ready")
}

// TestBoardSchemaFrontDoorLimits: a schema past the STARTER plan's tables is
// refused with what it needs, what the plan allows and the plan that fits;
// the schema stays in the box and the owner changes plan and creates in one
// action. A schema with no description and no file name asks for a name.
// Choosing the same file again reads it again.
func TestBoardSchemaFrontDoorLimits(t *testing.T) {
	s := startServer(t)
	u := s.signUp("frontdoor@example.com")
	p := newPage(t, s)
	p.signedIn(u)
	p.open("/board/projects", "#startSdl")

	sdl := manyTypes(7)
	p.set("#startSdl", sdl)
	p.set("#schemaProjectName", "Seven")
	p.click("#schemaCreate")
	msg := p.waitText("#startFromSchema .status.error", "this model needs 7")
	for _, want := range []string{"5 tables on the STARTER plan", "the PROFESSIONAL plan allows 50"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the refusal %q does not say %q", msg, want)
		}
	}
	if got := p.js(`document.querySelector("#startSdl").value`); got != sdl {
		t.Fatal("the refusal emptied the schema box")
	}
	p.shot("schema-plan-limit")
	p.click("#schemaChangePlan")
	p.wait(".graphiql-execute-button")
	p.waitText("h1", "Seven")
	if d := u.must(`{ account { plan } }`, nil); get(d, "account", "plan") != "PROFESSIONAL" {
		t.Errorf("the plan after the change in place: %v", d)
	}

	// No description, no file: the form asks for a name and makes nothing.
	p.open("/board/projects", "#startSdl")
	p.set("#startSdl", "type Query { a: Int }")
	p.click("#schemaCreate")
	p.waitText("#startFromSchema .status.error", "Name the project")
	if got := p.js(`document.activeElement.id`); got != "schemaProjectName" {
		t.Errorf("focus after the name was asked for: %v", got)
	}
	if n := len(get(u.must(`{ projects { id } }`, nil), "projects").([]any)); n != 1 {
		t.Errorf("%d projects after an unnamed Create, want 1", n)
	}

	// The same file, changed on disk, chosen again: read again.
	a := &actions{p: p}
	path := tempFile(t, "again.graphql", "type Query { first: Int }")
	a.file("#startFile", path)
	p.waitText("#startChosen", "Read again.graphql")
	if err := os.WriteFile(path, []byte("type Query { second: Int }"), 0o600); err != nil {
		t.Fatal(err)
	}
	a.file("#startFile", path)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		got := p.js(`document.querySelector("#startSdl").value`)
		if got == "type Query { second: Int }" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the same file chosen again was not read again: %q", got)
		}
	}
}
