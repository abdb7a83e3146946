package graphql

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mockgql/mockgql/dataset"
)

// powerDocument uses every opt-in argument and field of the differential
// project, so graphql-js validates them against the introspected schema.
const powerDocument = `
query List($w: ProductWhere, $o: [ProductOrderBy!]) {
  powerProduct(page: 1, pageSize: 5, where: $w, orderBy: $o) { total items { id name } }
}
query Conn($after: String, $before: String) {
  powerProductConnection(first: 2, after: $after, last: 1, before: $before,
      where: {or: [{price: {gt: 10}}, {not: {category: {isNull: true}}}], and: [{sku: {nin: ["1"]}}]},
      orderBy: [{field: price, direction: DESC}, {field: name}]) {
    totalCount edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}
query Agg {
  aggProduct(where: {stock: {gte: 1}}, groupBy: [category, inStock]) {
    count sum { price stock } avg { price } min { stock } max { stock }
    groups { key count sum { price } }
  }
}
`

// graphqlJSDir holds check.mjs and a pinned graphql-js; CI runs npm ci
// there. The executor's introspection test (package exec) uses it too.
const graphqlJSDir = "testdata/graphqljs"

// node runs check.mjs with args and stdin, failing the test on a non-zero
// exit with what check.mjs printed.
func node(t *testing.T, stdin []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("node", append([]string{"check.mjs"}, args...)...)
	cmd.Dir = graphqlJSDir
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node check.mjs %v: %v\n%s", args, err, stderr.Bytes())
	}
	return out
}

// requireNodeModule skips the test when node or a package is missing,
// but fails when MGQ_REQUIRE_TOOLS=1 (CI).
func requireNodeModule(t *testing.T, dir, pkg string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg)); err != nil {
		if os.Getenv("MGQ_REQUIRE_TOOLS") == "1" {
			t.Fatalf("%s is not installed in %s (run npm ci there): %v", pkg, dir, err)
		}
		t.Skipf("%s is not installed: run npm ci in %s", pkg, dir)
	}
}

// TestPowerSchemaGraphQLJS builds and validates, with graphql-js, the
// runtime schema with every option on and an AGGREGATE operation, and
// validates a document using all of them.
func TestPowerSchemaGraphQLJS(t *testing.T) {
	requireNodeModule(t, graphqlJSDir, "graphql")
	query := node(t, nil, "query")
	rnd := rand.New(rand.NewPCG(1, 1))
	pool := memPool{"items": rtDataset(t, "items", dataset.NDJSON, "kind", diffDataset(t, rnd, 20))}
	h := &rtHarness{tb: t, rt: rtCompile(t, diffProject(t), Options{}), pool: pool, ov: NewOverlay()}
	body := h.raw(string(query), nil)
	doc := filepath.Join(t.TempDir(), "power.graphql")
	if err := os.WriteFile(doc, []byte(powerDocument), 0o644); err != nil {
		t.Fatal(err)
	}
	node(t, body, "check", doc)
}
