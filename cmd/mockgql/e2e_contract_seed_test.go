package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestContractSeed: the generated rows of a contract project follow its
// seed (createProject(sdl:, seed:), importGraphQLSchema(seed:)) instead of
// its ID, so projects made from the same schema with the same seed answer
// the same rows, and with another seed, or none, other rows;
// setContractSeed sets it later.
func TestContractSeed(t *testing.T) {
	s := startServer(t)
	u := s.signUp("contract-seed@example.com")
	u.must(`mutation { setPlan(plan: PROFESSIONAL) { plan } }`, nil)
	doc := contractDoc(t, "relay.graphql")
	key := func(id string) string {
		k := u.must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"k", scope: FULL) { value } }`, map[string]any{"p": id})
		return get(k, "createApiKey", "value").(string)
	}
	project := func(name string, seed any) *contractProject {
		d := u.must(`mutation($n:String!,$s:String!,$seed:String){ createProject(name:$n, sdl:$s, seed:$seed) { id slug contract { seed } } }`,
			map[string]any{"n": name, "s": doc, "seed": seed})
		if got := get(d, "createProject", "contract", "seed"); got != seed {
			t.Fatalf("%s: contract.seed %v, want %v", name, got, seed)
		}
		cp := &contractProject{owner: u, id: get(d, "createProject", "id").(string), slug: get(d, "createProject", "slug").(string)}
		cp.runtime, cp.key = "/mock/"+cp.slug+"/graphql", key(cp.id)
		return cp
	}
	rows := func(cp *contractProject) string {
		b, _ := json.Marshal(cp.mustQuery(s, relayBooks, nil))
		return string(b)
	}
	a, b, c := project("a", "team-42"), project("b", "team-42"), project("c", "team-43")
	d, e := project("d", nil), project("e", nil)
	if rows(a) != rows(b) {
		t.Fatalf("the same schema and seed, other rows:\n%s\n%s", rows(a), rows(b))
	}
	if rows(a) == rows(c) {
		t.Fatalf("another seed, the same rows: %s", rows(a))
	}
	if rows(d) == rows(e) || rows(d) == rows(a) {
		t.Fatalf("no seed: rows follow the project's ID, yet they are the same: %s", rows(d))
	}

	// A new version without a seed keeps it; seed "" goes back to the ID.
	u.must(`mutation($p:ID!,$s:String!){ importGraphQLSchema(projectId:$p, sdl:$s) { project { id } } }`, map[string]any{"p": a.id, "s": doc + "\n"})
	if rows(a) != rows(b) {
		t.Fatal("a new version without seed dropped the seed")
	}
	u.must(`mutation($p:ID!,$s:String!){ importGraphQLSchema(projectId:$p, sdl:$s, seed:"") { project { id } } }`, map[string]any{"p": a.id, "s": doc})
	if rows(a) == rows(b) {
		t.Fatal("seed \"\" kept the seed")
	}
	// setContractSeed sets it on a project made without one.
	sd := u.must(`mutation($p:ID!){ setContractSeed(projectId:$p, seed:"team-42") { contract { seed } } }`, map[string]any{"p": d.id})
	if get(sd, "setContractSeed", "contract", "seed") != "team-42" || rows(d) != rows(b) {
		t.Fatalf("setContractSeed: %v; rows like b's: %v", sd, rows(d) == rows(b))
	}
	if r := u.gql(`mutation($p:ID!,$seed:String!){ setContractSeed(projectId:$p, seed:$seed) { id } }`, map[string]any{"p": d.id, "seed": strings.Repeat("x", 257)}); r.errCode() != "BAD_USER_INPUT" {
		t.Fatalf("setContractSeed with 257 bytes: %s", r.Raw)
	}
	r := u.gql(`mutation($p:ID!,$s:String!,$seed:String){ importGraphQLSchema(projectId:$p, sdl:$s, seed:$seed) { project { id } } }`,
		map[string]any{"p": a.id, "s": doc, "seed": strings.Repeat("x", 257)})
	if r.errCode() != "BAD_USER_INPUT" {
		t.Fatalf("a seed of 257 bytes: %s", r.Raw)
	}
}

// TestMCPContractSeed: import_graphql_schema takes a seed, so two session
// projects an assistant makes from one schema with one seed answer the
// same rows.
func TestMCPContractSeed(t *testing.T) {
	s := startServer(t)
	ag := newAgent(t, mcpConnect(t, s.base))
	doc := contractDoc(t, "relay.graphql")
	books := func(seed any) string {
		sp := ag.must("create_session_project", map[string]any{"name": "Books"})
		args := map[string]any{"session": sp["session"], "sdl": doc}
		if seed != nil {
			args["seed"] = seed
		}
		ag.must("import_graphql_schema", args)
		out := ag.must("run_query", map[string]any{"session": sp["session"], "query": relayBooks})
		b, _ := json.Marshal(out["data"])
		return string(b)
	}
	a, b, c := books("team-42"), books("team-42"), books(nil)
	if a != b || a == c || a == "null" {
		t.Fatalf("the same seed: equal %v; no seed: different %v\n%s", a == b, a != c, a)
	}
}
