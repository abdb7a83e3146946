package exec

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/internal/testdata"
)

// graphqlJSDir holds check.mjs and a pinned graphql-js; CI runs npm ci there.
const graphqlJSDir = "../testdata/graphqljs"

// node runs check.mjs with args and stdin, failing the test on a non-zero
// exit with what check.mjs printed.
func node(t *testing.T, stdin []byte, args ...string) []byte {
	t.Helper()
	return testdata.Node(t, graphqlJSDir, stdin, append([]string{"check.mjs"}, args...)...)
}

// requireGraphQLJS skips the test when node or graphql-js is missing, and
// fails it under MGQ_REQUIRE_TOOLS=1 (CI).
func requireGraphQLJS(t *testing.T) {
	t.Helper()
	testdata.RequireNodeModule(t, graphqlJSDir, "graphql")
}

// TestIntrospectGraphQLJS runs GraphiQL's introspection query (generated
// by graphql-js itself) and checks that graphql-js builds, validates and
// prints a client schema from the result, and validates client documents
// against it. The printed schema is compared with a golden file.
func TestIntrospectGraphQLJS(t *testing.T) {
	requireGraphQLJS(t)
	query := node(t, nil, "query")
	// Introspection does not count toward the depth limit; the default
	// field limit leaves room for GraphiQL's query (229 fields).
	ex := newTestExecutorWith(t, nil, func(e *Executor) { e.MaxDepth = 2 })
	res, body := runQuery(t, ex, string(query), "", "IntrospectionQuery")
	if res.Refused || len(res.Errors) > 0 {
		t.Fatalf("introspection failed: %s", body)
	}
	sdl := node(t, body, "check", "test_queries.graphql")
	golden := filepath.Join(graphqlJSDir, "test_schema.golden.graphql")
	if *update {
		if err := os.WriteFile(golden, sdl, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestIntrospectGraphQLJS -update)", err)
	}
	if !bytes.Equal(sdl, want) {
		t.Errorf("printed schema differs from %s:\n%s", golden, sdl)
	}
}

// TestIntrospectGraphQLJSRejects checks that check.mjs does fail, so that
// the test above cannot pass vacuously.
func TestIntrospectGraphQLJSRejects(t *testing.T) {
	requireGraphQLJS(t)
	cmd := exec.Command("node", "check.mjs", "check")
	cmd.Dir = graphqlJSDir
	cmd.Stdin = bytes.NewReader([]byte(`{"data":{"__schema":{"types":[]}}}`))
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("check.mjs accepted a broken introspection result: %s", out)
	}
}

// TestIntrospectionDocumentOrder: with DocumentOrder, __Schema.types and
// directives follow the document (built-ins after, by name); without it,
// every type is listed by name.
func TestIntrospectionDocumentOrder(t *testing.T) {
	const sdl = `directive @zeta on FIELD_DEFINITION
directive @alpha on FIELD_DEFINITION
type Query { b: Zed a: Alpha }
type Zed { x: Int }
type Alpha { y: Int }
`
	names := func(order bool) string {
		ex, err := NewExecutor(Executor{Schema: mustLoadSchema(t, sdl), DocumentOrder: order})
		if err != nil {
			t.Fatal(err)
		}
		_, body := runQuery(t, ex, `{ __schema { types { name } directives { name } } }`, "", "")
		var out struct {
			Data struct {
				Schema struct {
					Types, Directives []struct{ Name string }
				} `json:"__schema"`
			}
		}
		if err := decodeJSON(body, &out); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, x := range append(out.Data.Schema.Types[:3], out.Data.Schema.Directives[:2]...) {
			got = append(got, x.Name)
		}
		return strings.Join(got, " ")
	}
	if got := names(true); got != "Query Zed Alpha zeta alpha" {
		t.Errorf("document order: %s", got)
	}
	if got := names(false); got != "Alpha Boolean Float alpha deprecated" {
		t.Errorf("name order: %s", got)
	}
}
