package graphql

import (
	"bytes"
	"context"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// nestedFixture is make bench -only schema's project (cmd/benchmark
// schema.go): 24 entity types in a chain (parent, children), every third
// listing rows of another with no field back (related), two connections;
// 20 rows a type, 100 for every other one. It returns the harness and the
// group's 50 queries.
func nestedFixture(tb testing.TB) (*rtHarness, []string) {
	tb.Helper()
	b, err := os.ReadFile("testdata/contract/nested/schema24.txt")
	if err != nil {
		tb.Fatal(err)
	}
	sdl, queries, _ := strings.Cut(string(b), "---\n")
	file := tb.TempDir() + "/schema24.graphql"
	if err := os.WriteFile(file, []byte(sdl), 0o600); err != nil {
		tb.Fatal(err)
	}
	p := contractProject(tb, file)
	rows := map[string]int{} // the bench's schemaRows: by the type's place in the chain
	for _, line := range strings.Split(sdl, "\n") {
		if name, ok := strings.CutSuffix(strings.TrimPrefix(line, "type "), " {"); ok && line != name && name != "Query" {
			rows[name] = 20 + 80*(len(rows)%2)
		}
	}
	if len(rows) != 24 {
		tb.Fatalf("%d entity types", len(rows))
	}
	for _, name := range slices.Sorted(maps.Keys(rows)) {
		p.Contract.Tables = append(p.Contract.Tables, model.ContractTable{Type: name, Rows: rows[name]})
	}
	h := &rtHarness{tb: tb, rt: rtCompile(tb, p, Options{}), pool: memPool{}, ov: engine.NewOverlay()}
	return h, strings.Split(strings.TrimSpace(queries), "\n")
}

// TestContractNestedDirect: the bench's nested queries written directly
// answer the bytes the resolvers answer.
func TestContractNestedDirect(t *testing.T) {
	fast, queries := nestedFixture(t)
	slow := &rtHarness{tb: t, rt: resolversOnly(t, fast.rt), pool: fast.pool, ov: fast.ov}
	for _, q := range queries {
		a, b := fast.raw(q, nil), slow.raw(q, nil)
		if !bytes.Equal(a, b) || bytes.Contains(a, []byte(`"errors"`)) || len(a) < 200 {
			t.Errorf("%s\ndirect:    %.600s\nresolvers: %.600s", q, a, b)
		}
	}
}

// BenchmarkContractNested runs the bench's 50 nested queries in turn.
func BenchmarkContractNested(b *testing.B) {
	h, queries := nestedFixture(b)
	i := 0
	for b.Loop() {
		runOn(b, h.rt, h.pool, queries[i%len(queries)])
		i++
	}
}

// TestContractNestedAllocs: a nested query's rows are written from the
// columns: lists of rows no key holds (related) and relations take the
// direct writer, with no row objects, maps or query per row; the
// allocations of a request do not grow with its rows (four times the
// roots may bind a few more tables and grow the answer's buffer, a few
// allocations; before, every related list cost several).
func TestContractNestedAllocs(t *testing.T) {
	h, queries := nestedFixture(t)
	allocs := func(q string) float64 {
		prep, refused := h.rt.Prepare(exec.Request{Query: q})
		if refused != nil {
			t.Fatalf("%s: %s", q, refused.AppendJSON(nil))
		}
		run := func() {
			if _, err := h.rt.Query(context.Background(), prep, h.pool, nil); err != nil {
				t.Fatal(err)
			}
		}
		run() // compiles the plan
		return testing.AllocsPerRun(20, run)
	}
	for _, q := range []string{queries[0], queries[3], queries[24]} {
		big := strings.NewReplacer("(first: 5)", "(first: 20)", "(first: 8)", "(first: 20)").Replace(q)
		small, large := allocs(q), allocs(big)
		t.Logf("%s: %.0f allocations, %.0f for 20 roots", q, small, large)
		if large > small+10 {
			t.Errorf("%s: %.0f allocations for 5 or 8 roots, %.0f for 20: per-row allocations", q, small, large)
		}
	}
}
