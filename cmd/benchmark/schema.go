package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The schema group (issue 33 item 3): a schema project of 24 entity types
// (schemaSDL: relations both ways, many-to-many lists with no field back,
// two Relay connections), 50 distinct nested queries of 2 and 3 levels,
// every answer computed (answer cache off). mockgql is measured against a
// bare gin handler answering each query with its bytes (the ceiling),
// then against the SDL mock servers people use, serving the same SDL:
// graphql-yoga with @graphql-tools/mock and graphql-faker (schemapeers.go),
// whose answers differ from ours (throughput only). -only schema runs it
// alone.

// schemaTypes are the schema's 24 entity types, a chain: each type's
// children are the next type's rows (the next type's parent holds the key).
var schemaTypes = []string{
	"Organization", "Team", "Member", "Project", "Board", "Column", "Card", "Comment",
	"Attachment", "Label", "Milestone", "Sprint", "Release", "Build", "Artifact", "Deployment",
	"Environment", "Service", "Incident", "Alert", "Runbook", "Owner", "Tag", "Note",
}

// schemaConnections are the types listed through a Relay connection too.
var schemaConnections = []int{0, 12}

// schemaRelated is the type whose rows type i lists without a field back
// (a link no key holds), or -1.
func schemaRelated(i int) int {
	if i%3 != 0 {
		return -1
	}
	return (i + 7) % len(schemaTypes)
}

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }

// schemaSDL is the group's schema.
func schemaSDL() string {
	var b, q strings.Builder
	b.WriteString("enum Status { ACTIVE ARCHIVED DRAFT }\n\n")
	b.WriteString("type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }\n\n")
	for i, t := range schemaTypes {
		fmt.Fprintf(&b, "type %s {\n  id: ID!\n  name: String!\n  title: String\n  email: String\n  price: Float!\n  count: Int!\n  active: Boolean!\n  status: Status!\n  createdAt: String\n", t)
		if i > 0 {
			fmt.Fprintf(&b, "  parent: %s\n", schemaTypes[i-1])
		}
		if i+1 < len(schemaTypes) {
			fmt.Fprintf(&b, "  children: [%s!]!\n", schemaTypes[i+1])
		}
		if r := schemaRelated(i); r >= 0 {
			fmt.Fprintf(&b, "  related: [%s!]!\n", schemaTypes[r])
		}
		b.WriteString("}\n\n")
		l := lowerFirst(t)
		fmt.Fprintf(&q, "  %ss(first: Int): [%s!]!\n  %s(id: ID!): %s\n", l, t, l, t)
	}
	for _, i := range schemaConnections {
		t := schemaTypes[i]
		fmt.Fprintf(&b, "type %sConnection { edges: [%sEdge!]! pageInfo: PageInfo! totalCount: Int! }\ntype %sEdge { cursor: String! node: %s! }\n\n", t, t, t, t)
		fmt.Fprintf(&q, "  %sConnection(first: Int, after: String): %sConnection!\n", lowerFirst(t), t)
	}
	return b.String() + "type Query {\n" + q.String() + "}\n"
}

// schemaScalars are the scalar selections the queries rotate through.
var schemaScalars = []string{"id name price", "id title count", "id name active status", "id email createdAt", "id name count price"}

// schemaSelection selects type i's scalars and, below depth 3, its
// relations: parent, children and related, as the variant v picks them.
func schemaSelection(i, depth, v int) string {
	sel := schemaScalars[(i+v+depth)%len(schemaScalars)]
	if depth == 3 {
		return sel
	}
	var rel []string
	if i+1 < len(schemaTypes) && (v+depth)%2 == 0 {
		rel = append(rel, "children { "+schemaSelection(i+1, depth+1, v)+" }")
	}
	if r := schemaRelated(i); r >= 0 {
		rel = append(rel, "related { "+schemaSelection(r, depth+1, v)+" }")
	}
	if i > 0 && (len(rel) == 0 || depth == 1 && v%3 == 1) {
		rel = append(rel, "parent { "+schemaSelection(i-1, depth+1, v)+" }")
	}
	if len(rel) > 2 {
		rel = rel[:2]
	}
	return sel + " " + strings.Join(rel, " ")
}

// schemaQueries are the group's 50 distinct nested queries: a list of
// each type with its related rows two levels down in two variants, and
// the two connections.
func schemaQueries() []string {
	var out []string
	for v := 0; len(out) < 48; v++ {
		for i, t := range schemaTypes {
			out = append(out, fmt.Sprintf("{ %ss(first: %d) { %s } }", lowerFirst(t), 5+v*3, schemaSelection(i, 1, v)))
		}
	}
	for _, i := range schemaConnections {
		out = append(out, fmt.Sprintf("{ %sConnection(first: 6) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { %s } } } }",
			lowerFirst(schemaTypes[i]), schemaSelection(i, 1, 0)))
	}
	return out
}

// schemaRows is the rows of type i: 20, and 100 for every other type, so
// that a parent of the smaller kind lists about five children.
func schemaRows(i int) int {
	if i%2 == 1 {
		return 100
	}
	return 20
}

// schemaBench runs the group on a server of its own.
func schemaBench(bin, self, dir string, o options, rep *report) error {
	srv, err := startMockgql(bin, filepath.Join(dir, "schema"), "--ip-limit", "0", "--ip-limit-management", "0", "--answer-cache-mb", "0")
	if err != nil {
		return err
	}
	defer srv.stop()
	if err := benchAccount(srv); err != nil {
		return err
	}
	sdl := schemaSDL()
	key, err := schemaProject(srv, sdl)
	if err != nil {
		return err
	}
	const path = "/mock/schema-bench/graphql"
	queries := schemaQueries()
	set, err := collectMix(srv, path, key, queries)
	if err != nil {
		return err
	}
	if err := schemaSane(set, queries); err != nil {
		return err
	}
	const name = "schema: 50 nested queries, 24 types"
	if pp := os.Getenv("BENCH_PPROF"); pp != "" {
		go saveProfiles(pp, name)
	}
	if err := measureMix(self, dir, name, srv, path, key, set, o, rep); err != nil {
		return err
	}
	return schemaPeers(srv, path, key, sdl, set, dir, o, rep)
}

// schemaProject imports sdl as the project schema-bench, sets its row
// counts and returns a FULL key.
func schemaProject(srv *mockgql, sdl string) (string, error) {
	d, err := srv.gql(`mutation($s:String!){ createProject(name: "Schema bench", slug: "schema-bench", sdl:$s) { id contract { tables { type } } } }`,
		map[string]any{"s": sdl})
	if err != nil {
		return "", err
	}
	p := d["createProject"].(map[string]any)
	pid := p["id"].(string)
	if n := len(p["contract"].(map[string]any)["tables"].([]any)); n != len(schemaTypes) {
		return "", fmt.Errorf("the schema project has %d tables, want %d", n, len(schemaTypes))
	}
	for i, t := range schemaTypes {
		if _, err := srv.gql(`mutation($p:ID!,$t:String!,$n:Int!){ setContractRows(projectId:$p, type:$t, rows:$n) { id } }`,
			map[string]any{"p": pid, "t": t, "n": schemaRows(i)}); err != nil {
			return "", err
		}
	}
	d, err = srv.gql(`mutation($p:ID!){ createApiKey(projectId:$p, name:"bench", scope: FULL) { value } }`, map[string]any{"p": pid})
	if err != nil {
		return "", err
	}
	return d["createApiKey"].(map[string]any)["value"].(string), nil
}

// schemaSane checks mockgql's answers: each root list holds the rows
// asked for, every object its selected fields, and the nested lists hold
// related rows (more objects than roots in all).
func schemaSane(set *mixSet, queries []string) error {
	var roots, nested int
	for i, body := range set.bodies {
		var r struct {
			Data map[string]any
		}
		if err := json.Unmarshal([]byte(set.answers[body]), &r); err != nil {
			return err
		}
		for _, v := range r.Data {
			list, ok := v.([]any)
			if !ok { // a connection
				list = nil
				for _, e := range v.(map[string]any)["edges"].([]any) {
					list = append(list, e.(map[string]any)["node"])
				}
			}
			if len(list) == 0 {
				return fmt.Errorf("schema: no rows for %s: %.300s", queries[i], set.answers[body])
			}
			roots += len(list)
			n, err := countObjects(list)
			if err != nil {
				return fmt.Errorf("schema: %s: %w", queries[i], err)
			}
			nested += n - len(list)
		}
	}
	if nested < roots {
		return fmt.Errorf("schema: %d root rows list only %d related rows", roots, nested)
	}
	return nil
}

// countObjects counts the objects in v, failing on one without its id.
func countObjects(v any) (int, error) {
	switch x := v.(type) {
	case []any:
		n := 0
		for _, e := range x {
			c, err := countObjects(e)
			if err != nil {
				return 0, err
			}
			n += c
		}
		return n, nil
	case map[string]any:
		if id, _ := x["id"].(string); id == "" {
			return 0, fmt.Errorf("an object without its id: %v", x)
		}
		n := 1
		for _, f := range x {
			c, err := countObjects(f)
			if err != nil {
				return 0, err
			}
			n += c
		}
		return n, nil
	}
	return 0, nil
}

// schemaFixtureFile is the group's SDL and queries as graphql's tests read
// them (TestContractNestedDirect): go run ./cmd/benchmark schema-fixture
// writes it; TestSchemaFixture checks it is current.
const schemaFixtureFile = "graphql/testdata/contract/nested/schema24.txt"

// schemaFixture is the SDL, a line "---", then the queries one a line.
func schemaFixture() string {
	return schemaSDL() + "---\n" + strings.Join(schemaQueries(), "\n") + "\n"
}
