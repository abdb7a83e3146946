package graphql

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/internal/testdata"
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
	return testdata.Node(t, graphqlJSDir, stdin, append([]string{"check.mjs"}, args...)...)
}

// TestPowerSchemaGraphQLJS builds and validates, with graphql-js, the
// runtime schema with every option on and an AGGREGATE operation, and
// validates a document using all of them.
func TestPowerSchemaGraphQLJS(t *testing.T) {
	testdata.RequireNodeModule(t, graphqlJSDir, "graphql")
	query := node(t, nil, "query")
	rnd := rand.New(rand.NewPCG(1, 1))
	pool := memPool{"items": rtDataset(t, "items", dataset.NDJSON, "kind", diffDataset(t, rnd, 20))}
	h := &rtHarness{tb: t, rt: rtCompile(t, diffProject(t), Options{}), pool: pool, ov: engine.NewOverlay()}
	body := h.raw(string(query), nil)
	doc := filepath.Join(t.TempDir(), "power.graphql")
	if err := os.WriteFile(doc, []byte(powerDocument), 0o644); err != nil {
		t.Fatal(err)
	}
	node(t, body, "check", doc)
}
