package graphql

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// The direct writers (runtime_direct.go) must answer exactly as the
// resolvers do. These tests run every request through two runtimes of the
// same model, one with the direct writers and one without, each with its
// own overlay, and compare the bytes of the responses.

// genericRuntime returns a copy of rt whose executor has no direct
// writers: every field goes through its resolver. Test-only.
func genericRuntime(tb testing.TB, rt *Runtime) *Runtime {
	tb.Helper()
	cfg := *rt.exec
	cfg.DirectPlan = nil
	ex, err := exec.NewExecutor(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	cp := *rt
	cp.exec = ex
	return &cp
}

// rtPair runs requests through a direct and a generic harness.
type rtPair struct {
	tb              testing.TB
	direct, generic *rtHarness
}

func newRTPair(tb testing.TB, p *model.Project, pool engine.Pool) *rtPair {
	tb.Helper()
	rt := rtCompile(tb, p, Options{MaxPageSize: 50})
	return &rtPair{
		tb:      tb,
		direct:  &rtHarness{tb: tb, rt: rt, pool: pool, ov: engine.NewOverlay()},
		generic: &rtHarness{tb: tb, rt: genericRuntime(tb, rt), pool: pool, ov: engine.NewOverlay()},
	}
}

// check runs one request (mutations applied) on both and compares.
func (p *rtPair) check(query string, vars map[string]any) []byte {
	p.tb.Helper()
	got, want := p.direct.raw(query, vars), p.generic.raw(query, vars)
	if !bytes.Equal(got, want) {
		p.tb.Errorf("direct and generic answers differ for\n%s\nvariables %v\ndirect:  %s\ngeneric: %s", query, vars, got, want)
	}
	return got
}

// TestDirectGoldenEquivalence replays the golden inputs through both paths.
func TestDirectGoldenEquivalence(t *testing.T) {
	files, _ := filepath.Glob("testdata/runtime/*.graphql")
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			p := newRTPair(t, rtProject(t), rtPool(t))
			for _, doc := range strings.Split(string(src), "\n# ---\n") {
				p.check(doc, goldenVariables(t, doc))
			}
		})
	}
}

// goldenVariables reads the "# variables:" line of a golden request.
func goldenVariables(tb testing.TB, doc string) map[string]any {
	for _, line := range strings.Split(doc, "\n") {
		if v, ok := strings.CutPrefix(line, "# variables:"); ok {
			req, err := exec.DecodeRequest([]byte(`{"query": "{}", "variables": ` + v + `}`))
			if err != nil {
				tb.Fatalf("variables %q: %v", v, err)
			}
			return req.Variables
		}
	}
	return nil
}

// oddJSON holds values of every kind under the same paths, so that each
// attribute type meets text, numbers, booleans, objects and nulls:
// escapes, HTML, U+2028, -0, huge and fractional numbers, numbers as
// text, duplicate, missing, numeric and non-scalar ids. No id is "": a row
// with the id "" and a row without one (whose id is its position) would
// both be found by the key "", and the overlay would then give the row the
// record of one or the other, whichever its map yields last.
const oddJSON = `[
 {"id": 1, "kind": "A", "s": "plain", "n": 1, "b": true, "j": {"a": [1, "<b>"]}, "ref": 2},
 {"id": 2.5, "kind": "B", "s": "<html> & \u2028 \"q\" \\ \n \t \u0001 é 😀", "n": "42", "b": "true", "j": "<tag>&\u2029", "ref": "1"},
 {"id": "x\"y", "kind": "A", "s": 12.5, "n": 1e10, "b": 0, "j": 1e300, "ref": null},
 {"id": true, "s": true, "n": -0.0, "b": false, "j": true, "ref": 2.5},
 {"id": -0, "s": null, "n": 2147483648, "b": null, "j": null, "ref": true},
 {"s": [1, 2], "n": "1e2", "b": [], "j": [], "ref": "x\"y"},
 {"id": 1e21, "n": 3.7, "s": 1e21, "j": "", "ref": 1e21},
 {"id": {"nested": 1}, "n": " 42", "s": 1e-7, "j": 0.1, "ref": {"nested": 1}},
 {"id": 1, "s": "dup id", "n": "NaN", "ref": 1},
 {"id": " ", "s": "", "n": "0x1p4", "j": "x", "ref": " "},
 {"id": 7, "n": -2147483648, "s": "-2147483649", "ref": 7, "kind": "A"},
 {"id": 100000000000000000000, "n": 123456789012345680000, "s": 9007199254740993, "ref": "100000000000000000000"},
 {"id": "5", "n": 2.0, "s": "00012", "ref": 5, "b": "false"}
]`

// oddProject is a model over oddJSON that reads every path as every type,
// with constants, generated and unmapped attributes, relations by text
// and by number (one of them to a table that is not ready) and a variant.
func oddProject(tb testing.TB) *model.Project {
	b := &rtModel{tb: tb, p: &model.Project{ID: "odd"}}
	odd := b.table("Odd", "odd", nil)
	for _, a := range []struct {
		name string
		typ  model.ScalarType
		path string
	}{
		{"s", model.TypeString, "s"}, {"sid", model.TypeID, "s"}, {"sdt", model.TypeDateTime, "s"},
		{"sn", model.TypeInt, "s"}, {"sf", model.TypeFloat, "s"}, {"sb", model.TypeBoolean, "s"}, {"sj", model.TypeJSON, "s"},
		{"n", model.TypeInt, "n"}, {"nf", model.TypeFloat, "n"}, {"ns", model.TypeString, "n"}, {"nj", model.TypeJSON, "n"},
		{"b", model.TypeBoolean, "b"}, {"bs", model.TypeString, "b"}, {"j", model.TypeJSON, "j"}, {"js", model.TypeString, "j"},
		{"ref", model.TypeString, "ref"}, {"missing", model.TypeString, "nowhere"},
	} {
		b.src(odd, a.name, a.typ, a.path)
	}
	b.attr(odd, model.Attribute{Name: "c", Type: model.TypeString, Mapping: model.MappingConstant, Constant: json.RawMessage(`"<k>"`)})
	b.attr(odd, model.Attribute{Name: "cj", Type: model.TypeJSON, Mapping: model.MappingConstant, Constant: json.RawMessage(`{"b": 1, "a": "<"}`)})
	b.attr(odd, model.Attribute{Name: "g", Type: model.TypeInt, Mapping: model.MappingGenerated, Generator: &model.Generator{Kind: "number.int"}})
	b.attr(odd, model.Attribute{Name: "ge", Type: model.TypeString, Mapping: model.MappingGenerated, Generator: &model.Generator{Kind: "person.email"}})
	b.attr(odd, model.Attribute{Name: "note", Type: model.TypeString, Mapping: model.MappingNone})
	b.defaults(odd)
	b.op(odd, "searchOdds", model.OpList, rtParam("minN", "n", model.OpGte), rtParam("sLike", "s", model.OpLike))
	ghost := b.table("Ghost", "missing", nil)
	b.src(ghost, "ref", model.TypeString, "ref")
	b.defaults(ghost)
	oddA := "A"
	variant := b.table("OddA", "odd", &oddA)
	b.src(variant, "s", model.TypeString, "s")
	b.defaults(variant)
	b.relation(model.Relation{SourceTableID: odd.ID, TargetTableID: odd.ID, Cardinality: model.OneToMany, Direction: model.Bidirectional,
		SourceAttribute: "id", TargetAttribute: "ref", FieldName: "children", InverseFieldName: "parent"})
	b.relation(model.Relation{SourceTableID: odd.ID, TargetTableID: odd.ID, Cardinality: model.OneToOne,
		SourceAttribute: "n", TargetAttribute: "id", FieldName: "byN"})
	b.relation(model.Relation{SourceTableID: odd.ID, TargetTableID: ghost.ID, Cardinality: model.OneToOne, Direction: model.Bidirectional,
		SourceAttribute: "id", TargetAttribute: "ref", FieldName: "ghost", InverseFieldName: "odd"})
	b.relation(model.Relation{SourceTableID: odd.ID, TargetTableID: variant.ID, Cardinality: model.OneToMany,
		SourceAttribute: "s", TargetAttribute: "s", FieldName: "sameS"})
	return b.p
}

func oddPool(tb testing.TB) memPool {
	return memPool{"odd": rtDataset(tb, "odd", dataset.JSON, "kind", oddJSON)}
}

const oddAll = `__typename id s sid sdt sn sf sb sj n nf ns nj b bs j js ref missing c cj g ge note`

// oddQueries exercise every field, relations, aliases, fragments,
// directives, paging, sorting, filters, refused arguments, tables that are
// not ready and variables.
var oddQueries = []struct {
	query string
	vars  string
}{
	{`{ odds(pageSize: 50) { __typename total page pageSize items { ` + oddAll + ` } } }`, ``},
	{`{ odds(pageSize: 50) { items { id parent { id s } children { id n } byN { id nf byN { id } } ghost { id } sameS { id s } } } }`, ``},
	{`{ a: odds(page: 2, pageSize: 3) { t: total p: page items { x: id y: id ...F ... on Odd { z: s } } } b: odds(page: 99) { total items { id } } } fragment F on Odd { s n __typename }`, ``},
	{`{ a: odds(page: 0, pageSize: 0) { pageSize items { id } } b: odds(page: -3, pageSize: 5000) { page pageSize total } }`, ``},
	{`{ s: odds(sortField: "s", sortDirection: DESC) { items { id s } } n: odds(sortField: "n") { items { id n } } x: odds(sortField: "nope") { items { id } } }`, ``},
	{`{ r: odds(sortField: "ref", sortDirection: DESC, pageSize: 4) { items { id ref } } j: odds(sortField: "j", page: 2, pageSize: 4) { items { id j } } }`, ``},
	{`{ searchOdds(minN: 2) { total items { id n } } l: searchOdds(sLike: "HTML") { items { id s } } }`, ``},
	{`{ searchOdds(minN: [1]) { total } }`, ``},
	{`{ searchOdds(bogus: 1) { total } odds(bogus: 1) { total } }`, ``},
	{`{ ghosts { total items { id } } ghost(id: "1") { id } odds(pageSize: 2) { items { ghost { odd { id } } } } }`, ``},
	{`{ oddAs { total items { id s } } oddA(id: "1") { id s } x: oddA(id: "2.5") { id } }`, ``},
	{`{ a: odd(id: "1") { id s } b: odd(id: "2.5") { id } c: odd(id: "x\"y") { id } d: odd(id: "true") { id } e: odd(id: "-0") { id } f: odd(id: "1e+21") { id } g: odd(id: "6") { id } h: odd(id: "5") { id } i: odd(id: "") { id } i2: odd(id: " ") { id } j: odd(id: "100000000000000000000") { id } k: odd(id: "nope") { id } l: odd(id: "0") { id } m: odd(id: "7") { id } n: odd(id: "8") { id s } }`, ``},
	{`{ odd(id: "1") { parent { parent { parent { id children { id } } } } } }`, ``},
	{`{ __typename odds { __typename items { __typename } } __schema { queryType { name } } }`, ``},
	{`query Q($p: Int, $s: Int, $f: String, $d: SortDirection, $id: ID!, $inc: Boolean!) {
	    odds(page: $p, pageSize: $s, sortField: $f, sortDirection: $d) { total page pageSize items { id s @include(if: $inc) n @skip(if: $inc) } }
	    odd(id: $id) { id nf }
	  }`, `{"p": 2, "s": 4, "f": "nf", "d": "DESC", "id": "7", "inc": true}`},
	{`query Q($p: Int, $id: ID!, $inc: Boolean!) { odds(page: $p) { total items { id s @include(if: $inc) } } odd(id: $id) { id } }`, `{"id": "2.5", "inc": false}`},
	{`query Q($m: FilterValue, $l: FilterValue) { searchOdds(minN: $m, sLike: $l) { total items { id } } }`, `{"m": 1.5, "l": "i"}`},
	{`query Q($m: FilterValue) { searchOdds(minN: $m) { total items { id } } }`, `{"m": {"x": 1}}`},
	{`mutation { createOdd(input: {s: "new <x>", n: 5, ref: "1", j: {k: ["<v>"]}}) { ` + oddAll + ` parent { id } } }`, ``},
	{`mutation { updateOdd(id: "1", input: {s: null, n: 3, nf: 2.5, note: "n\u2028"}) { id s n nf note children { id } } deleteOdd(id: "x\"y") { id s } }`, ``},
	{`mutation { u: updateOdd(id: "7", input: {ref: "2.5", sj: "<", j: 1.5}) { id parent { id } } d: deleteOdd(id: "5") { id } }`, ``},
}

// TestDirectEquivalence runs oddQueries before and after the mutations
// among them, on both paths.
func TestDirectEquivalence(t *testing.T) {
	p := newRTPair(t, oddProject(t), oddPool(t))
	for round := 0; round < 2; round++ {
		for _, q := range oddQueries {
			var vars map[string]any
			if q.vars != "" {
				vars = goldenVariables(t, "# variables: "+q.vars)
			}
			p.check(q.query, vars)
		}
	}
}

// FuzzDirectEquivalence runs arbitrary documents and variables on both
// paths of the odd model.
func FuzzDirectEquivalence(f *testing.F) {
	for _, q := range oddQueries {
		f.Add(q.query, q.vars)
	}
	p := newRTPair(f, oddProject(f), oddPool(f))
	f.Fuzz(func(t *testing.T, query, vars string) {
		req, err := exec.DecodeRequest([]byte(`{"query": "{}", "variables": ` + vars + `}`))
		if err != nil {
			req.Variables = nil
		}
		p.tb = t
		p.direct.tb, p.generic.tb = t, t
		p.check(query, req.Variables)
	})
}

// TestDirectAllocs bounds the allocations of the hot path: Prepare (a
// cached document), Query and AppendJSON.
func TestDirectAllocs(t *testing.T) {
	bench := &rtHarness{tb: t, rt: rtBenchRuntime(t, Options{}), pool: memPool{"bench": rtBenchDataset(t, 10_000)}, ov: engine.NewOverlay()}
	for _, p := range []string{"price", "category"} { // the indexes, not a scan while they build
		bench.pool.Dataset("bench").Order(p)
	}
	fixture := newRTHarness(t)
	tests := []struct {
		name  string
		h     *rtHarness
		query string
		max   float64
	}{
		// The view, its table view, the run's buffer, the Result, the
		// response, and the page's rows the indexes select: six, whatever
		// the number of rows.
		{"list", bench, rtBenchListQuery, 6 + poolSlack},
		{"single", bench, `{ product(id: "7654") { id name price category } }`, 5},
		// Plus the variables, the arguments and the list query.
		{"list with variables", bench, `query($c: FilterValue) { search(category: $c, pageSize: 5) { total items { id } } }`, 15 + poolSlack},
		// Plus two table views, one with more than 8 attributes: relations
		// by text and by number add nothing per row.
		{"to-one relations", fixture, `{ orders { items { id customer { id name } product { id name } } } }`, 5 + 3},
		{"to-many relations", fixture, `{ customers { items { id orders { id } } } }`, 5 + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vars := map[string]any{"c": "toys"}
			tt.h.raw(tt.query, vars) // fill the caches
			got := testing.AllocsPerRun(50, func() { tt.h.raw(tt.query, vars) })
			if got > tt.max {
				t.Errorf("%v allocations, want at most %v", got, tt.max)
			}
		})
	}
}
