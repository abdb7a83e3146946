package graphql

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/model"
)

// The differential test runs thousands of random list queries, between
// random mutations, through the real engine (indexes, overlay deltas, the
// cache on and off) and through diffRef, a deliberately naive reference
// written from the query rules of docs/using/runtime.md alone (filter every row, stable sort, slice), and
// requires identical answers.

// diffAttrs are the SOURCE attributes of the test tables: name, type, path.
var diffAttrs = []struct {
	name string
	typ  model.ScalarType
}{
	{"name", model.TypeString}, {"price", model.TypeFloat}, {"category", model.TypeString},
	{"sku", model.TypeString}, {"stock", model.TypeInt}, {"inStock", model.TypeBoolean},
}

// diffParams are the parameters of each test table's list operation.
var diffParams = []struct {
	name, attr string
	op         model.Operator
}{
	{"priceEq", "price", model.OpEq}, {"priceNeq", "price", model.OpNeq}, {"priceGt", "price", model.OpGt},
	{"priceGte", "price", model.OpGte}, {"priceLt", "price", model.OpLt}, {"priceLte", "price", model.OpLte},
	{"priceIn", "price", model.OpIn}, {"nameLike", "name", model.OpLike}, {"nameEq", "name", model.OpEq},
	{"nameGte", "name", model.OpGte}, {"nameLt", "name", model.OpLt}, {"cat", "category", model.OpEq},
	{"catIn", "category", model.OpIn}, {"catNeq", "category", model.OpNeq}, {"skuLt", "sku", model.OpLt},
	{"skuGte", "sku", model.OpGte}, {"stockGte", "stock", model.OpGte}, {"stockLte", "stock", model.OpLte},
	{"stockNeq", "stock", model.OpNeq}, {"inStock", "inStock", model.OpEq}, {"cur", "currency", model.OpEq},
	{"skuLike", "sku", model.OpLike},
}

var diffWords = []string{"alpha", "Beta", "gamma", "DELTA", "eps", "zeta", "Eta", "theta", "Alphabet", "mu", "Ærøskøbing", "ÉCOLE", "a"}

// diffDataset generates n documents with every kind of value the filters
// meet: numbers, numbers stored as text, null, absent paths, booleans,
// duplicates (ties), and a variant field.
func diffDataset(tb testing.TB, rnd *rand.Rand, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		doc := map[string]any{"id": i}
		if rnd.IntN(10) > 0 {
			doc["name"] = diffWords[rnd.IntN(len(diffWords))] + " " + diffWords[rnd.IntN(len(diffWords))] + strconv.Itoa(rnd.IntN(30))
		}
		switch x := rnd.IntN(10); {
		case x < 6:
			doc["price"] = rnd.IntN(200)
		case x < 7:
			doc["price"] = float64(rnd.IntN(400)) / 2
		case x < 8:
			doc["price"] = strconv.Itoa(rnd.IntN(200))
		case x < 9:
			doc["price"] = nil
		}
		switch x := rnd.IntN(20); {
		case x < 17:
			doc["category"] = []string{"tools", "toys", "Tools", "garden", ""}[rnd.IntN(5)]
		case x < 19:
			doc["category"] = nil
		default:
			doc["category"] = rnd.IntN(3)
		}
		doc["sku"] = strconv.Itoa(rnd.IntN(1000))
		doc["stock"] = rnd.IntN(50)
		if rnd.IntN(5) > 0 {
			doc["inStock"] = rnd.IntN(2) == 0
		}
		if k := rnd.IntN(3); k < 2 {
			doc["kind"] = []string{"A", "B"}[k]
		}
		line, err := json.Marshal(doc)
		if err != nil {
			tb.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// diffProject has Product (all rows) and ProductA (variant A), each with
// the attributes above, a constant currency and a list operation search
// with every parameter.
func diffProject(tb testing.TB) *model.Project {
	b := &rtModel{tb: tb, p: &model.Project{ID: "p1", Slug: "diff", Name: "Diff", Kind: model.KindAccount}}
	variantA := "A"
	for _, tn := range []string{"Product", "ProductA"} {
		var variant *string
		if tn == "ProductA" {
			variant = &variantA
		}
		t := b.table(tn, "items", variant)
		for _, a := range diffAttrs {
			b.src(t, a.name, a.typ, a.name)
		}
		b.attr(t, model.Attribute{Name: "currency", Type: model.TypeString, Mapping: model.MappingConstant, Constant: json.RawMessage(`"EUR"`)})
		b.defaults(t)
		var params []model.Parameter
		for _, p := range diffParams {
			params = append(params, rtParam(p.name, p.attr, p.op))
		}
		b.op(t, "search"+tn, model.OpList, params...)
		b.powerOps(t, tn)
	}
	return b.p
}

// diffRow is a row as the reference sees it.
type diffRow struct {
	id   string
	vals map[string]dataset.Value
}

// diffRef is the naive reference of one table: its rows in storage order.
type diffRef struct{ rows []*diffRow }

func newDiffRef(tb testing.TB, data string, variant string) *diffRef {
	ref := &diffRef{}
	dec := json.NewDecoder(strings.NewReader(data))
	for dec.More() {
		var doc map[string]any
		if err := dec.Decode(&doc); err != nil {
			tb.Fatal(err)
		}
		if variant != "" && doc["kind"] != variant {
			continue
		}
		r := &diffRow{id: strconv.Itoa(int(doc["id"].(float64))), vals: map[string]dataset.Value{}}
		for _, a := range diffAttrs {
			r.vals[a.name] = engine.ValueOfGo(doc[a.name])
		}
		r.vals["currency"] = dataset.Value{Kind: dataset.String, Str: "EUR"}
		ref.rows = append(ref.rows, r)
	}
	return ref
}

// refCompare orders values as docs/architecture.md (the query engine) says: by JSON type (null, boolean,
// number, text), numbers numerically, text byte-wise.
func refCompare(a, b dataset.Value) int {
	if a.Kind != b.Kind {
		return int(a.Kind) - int(b.Kind)
	}
	switch a.Kind {
	case dataset.Bool:
		if a.Bool == b.Bool {
			return 0
		}
		if !a.Bool {
			return -1
		}
		return 1
	case dataset.Number:
		if a.Num < b.Num {
			return -1
		}
		if a.Num > b.Num {
			return 1
		}
		return 0
	}
	return strings.Compare(a.Str, b.Str)
}

// refMatch is the operator table (docs/using/runtime.md) applied to one stored value.
func refMatch(op model.Operator, v dataset.Value, arg any) bool {
	switch op {
	case model.OpIn:
		for _, x := range arg.([]any) {
			if refMatch(model.OpEq, v, x) {
				return true
			}
		}
		return false
	}
	a := engine.ValueOfGo(arg)
	switch op {
	case model.OpEq:
		if a.Kind == dataset.Null {
			return v.Kind == dataset.Null
		}
		return v.Kind == a.Kind && refCompare(v, a) == 0
	case model.OpNeq:
		if a.Kind == dataset.Null {
			return v.Kind != dataset.Null
		}
		return v.Kind == a.Kind && refCompare(v, a) != 0
	case model.OpLike:
		return v.Kind == dataset.String && a.Kind == dataset.String && strings.Contains(strings.ToLower(v.Str), strings.ToLower(a.Str))
	}
	if v.Kind != a.Kind || (a.Kind != dataset.Number && a.Kind != dataset.String) {
		return false
	}
	c := refCompare(v, a)
	switch op {
	case model.OpGt:
		return c > 0
	case model.OpGte:
		return c >= 0
	case model.OpLt:
		return c < 0
	}
	return c <= 0
}

// diffQuery is one random list query.
type diffQuery struct {
	args       map[string]any // parameter name -> Go value (nil allowed)
	sortField  string
	desc       bool
	page, size int
}

// answer is the reference's answer: total and the page's ids.
func (ref *diffRef) answer(q diffQuery) (int, []string) {
	var rows []*diffRow
	for _, r := range ref.rows {
		ok := true
		for _, p := range diffParams {
			arg, set := q.args[p.name]
			if !set || (arg == nil && p.op == model.OpIn) {
				continue
			}
			if !refMatch(p.op, r.vals[p.attr], arg) {
				ok = false
				break
			}
		}
		if ok {
			rows = append(rows, r)
		}
	}
	if isSortable(q.sortField) {
		slices.SortStableFunc(rows, func(a, b *diffRow) int {
			c := refCompare(a.vals[q.sortField], b.vals[q.sortField])
			if q.desc {
				return -c
			}
			return c
		})
	}
	lo := min(len(rows), (q.page-1)*q.size)
	hi := min(len(rows), lo+q.size)
	ids := []string{}
	for _, r := range rows[lo:hi] {
		ids = append(ids, r.id)
	}
	return len(rows), ids
}

func isSortable(f string) bool {
	for _, a := range diffAttrs {
		if a.name == f {
			return true
		}
	}
	return false
}

// randArg returns a random argument for a parameter on attr: mostly of
// the attribute's type, sometimes of another type or null.
func randArg(rnd *rand.Rand, attr string, op model.Operator) any {
	if op == model.OpIn {
		n := rnd.IntN(4)
		if rnd.IntN(20) == 0 {
			n = 300
		}
		list := make([]any, n)
		for i := range list {
			for list[i] == nil { // elements of an in list are non-null
				list[i] = randArg(rnd, attr, model.OpEq)
			}
		}
		return list
	}
	switch x := rnd.IntN(20); {
	case x == 0:
		return nil
	case x == 1:
		return rnd.IntN(2) == 0
	case x == 2:
		return float64(rnd.IntN(100))
	case x == 3:
		return strconv.Itoa(rnd.IntN(100))
	}
	switch attr {
	case "price":
		return float64(rnd.IntN(420)) / 2
	case "stock":
		return float64(rnd.IntN(55))
	case "sku":
		return strconv.Itoa(rnd.IntN(1100))
	case "inStock":
		return rnd.IntN(2) == 0
	case "currency":
		return []string{"EUR", "USD"}[rnd.IntN(2)]
	case "category":
		return []string{"tools", "toys", "Tools", "garden", "", "none"}[rnd.IntN(6)]
	}
	w := diffWords[rnd.IntN(len(diffWords))]
	switch op {
	case model.OpLike:
		rs := []rune(w + " " + diffWords[rnd.IntN(len(diffWords))])
		i := rnd.IntN(len(rs))
		j := i + rnd.IntN(min(len(rs)-i, 7)+1)
		if rnd.IntN(2) == 0 {
			return strings.ToUpper(string(rs[i:j]))
		}
		return string(rs[i:j])
	case model.OpEq:
		return w + " " + diffWords[rnd.IntN(len(diffWords))] + strconv.Itoa(rnd.IntN(30))
	}
	rs := []rune(w)
	return string(rs[:1+rnd.IntN(len(rs))])
}

func randQuery(rnd *rand.Rand) diffQuery {
	q := diffQuery{args: map[string]any{}, page: 1 + rnd.IntN(8), size: 1 + rnd.IntN(40)}
	if rnd.IntN(10) == 0 {
		q.page = 1 + rnd.IntN(200)
	}
	for n := rnd.IntN(4); n > 0; n-- {
		p := diffParams[rnd.IntN(len(diffParams))]
		q.args[p.name] = randArg(rnd, p.attr, p.op)
	}
	fields := []string{"", "price", "name", "category", "sku", "stock", "inStock", "nope", "currency"}
	q.sortField = fields[rnd.IntN(len(fields))]
	q.desc = rnd.IntN(2) == 0
	return q
}

// literal writes a Go value as a GraphQL literal.
func literal(x any) string {
	switch t := x.(type) {
	case nil:
		return "null"
	case []any:
		parts := make([]string, len(t))
		for i, e := range t {
			parts[i] = literal(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case string:
		return strconv.Quote(t)
	}
	return fmt.Sprint(x)
}

func (q diffQuery) text(op string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "{ %s(page: %d, pageSize: %d", op, q.page, q.size)
	if q.sortField != "" {
		fmt.Fprintf(&b, ", sortField: %q", q.sortField)
	}
	if q.desc {
		b.WriteString(", sortDirection: DESC")
	}
	names := make([]string, 0, len(q.args))
	for k := range q.args {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		fmt.Fprintf(&b, ", %s: %s", k, literal(q.args[k]))
	}
	b.WriteString(") { total items { id } } }")
	return b.String()
}

// diffEngine runs list queries through one runtime.
type diffEngine struct {
	name string
	h    *rtHarness
}

func (e *diffEngine) answer(tb testing.TB, op string, q diffQuery) (int, []string) {
	tb.Helper()
	raw := e.h.raw(q.text(op), nil)
	var out struct {
		Data map[string]struct {
			Total int
			Items []struct{ ID string }
		}
		Errors []any
	}
	if err := json.Unmarshal(raw, &out); err != nil || len(out.Errors) > 0 {
		tb.Fatalf("%s: %s: %v %s", e.name, q.text(op), err, raw)
	}
	page := out.Data[op]
	ids := []string{}
	for _, it := range page.Items {
		ids = append(ids, it.ID)
	}
	return page.Total, ids
}

// diffMutate makes a random create, update or delete on table tn through
// the engine h and mirrors it in ref.
func diffMutate(tb testing.TB, rnd *rand.Rand, h *rtHarness, tn string, ref *diffRef) {
	tb.Helper()
	input, vals := randInput(rnd)
	switch x := rnd.IntN(10); {
	case x < 3 || len(ref.rows) == 0:
		diffCreateRow(tb, h, tn, ref, input, vals)
	case x < 8:
		r := ref.rows[rnd.IntN(len(ref.rows))]
		raw := h.raw(fmt.Sprintf("mutation { update%s(id: %q, input: {%s}) { id } }", tn, r.id, input), nil)
		if !bytes.Contains(raw, []byte(r.id)) {
			tb.Fatalf("update %s: %s", r.id, raw)
		}
		for k, v := range vals {
			if v.Kind != dataset.Null {
				r.vals[k] = v
			}
		}
	default:
		i := rnd.IntN(len(ref.rows))
		raw := h.raw(fmt.Sprintf("mutation { delete%s(id: %q) { id } }", tn, ref.rows[i].id), nil)
		if !bytes.Contains(raw, []byte(ref.rows[i].id)) {
			tb.Fatalf("delete %s: %s", ref.rows[i].id, raw)
		}
		ref.rows = slices.Delete(ref.rows, i, i+1)
	}
}

// diffCreateRow creates a row of table tn with input through h and
// mirrors it, with vals, in ref.
func diffCreateRow(tb testing.TB, h *rtHarness, tn string, ref *diffRef, input string, vals map[string]dataset.Value) {
	tb.Helper()
	var out struct {
		Data map[string]struct{ ID string }
	}
	raw := h.raw(fmt.Sprintf("mutation { create%s(input: {%s}) { id } }", tn, input), nil)
	if err := json.Unmarshal(raw, &out); err != nil || out.Data["create"+tn].ID == "" {
		tb.Fatalf("create: %v %s", err, raw)
	}
	r := &diffRow{id: out.Data["create"+tn].ID, vals: map[string]dataset.Value{"currency": {Kind: dataset.String, Str: "EUR"}}}
	for _, a := range diffAttrs {
		r.vals[a.name] = vals[a.name]
	}
	ref.rows = append(ref.rows, r)
}

// randInput returns a mutation input setting a random subset of the
// attributes, and the values it sets (Null for those it leaves).
func randInput(rnd *rand.Rand) (string, map[string]dataset.Value) {
	vals := map[string]dataset.Value{}
	var parts []string
	for _, a := range diffAttrs {
		if rnd.IntN(2) == 0 {
			continue
		}
		var x any
		switch a.typ {
		case model.TypeFloat:
			x = float64(rnd.IntN(400)) / 2
		case model.TypeInt:
			x = float64(rnd.IntN(50))
		case model.TypeBoolean:
			x = rnd.IntN(2) == 0
		default:
			x = randArg(rnd, a.name, model.OpEq)
			if _, ok := x.(string); !ok {
				x = diffWords[rnd.IntN(len(diffWords))]
			}
		}
		vals[a.name] = engine.ValueOfGo(x)
		parts = append(parts, a.name+": "+literal(x))
	}
	return strings.Join(parts, ", "), vals
}

// diffSetup makes a random dataset of n rows, the cached and uncached
// engines over it sharing one overlay, and the references of both tables.
// prebuild builds the indexes first; else the first queries scan while
// they build. tune, if any, adjusts each engine's Runtime before its first
// query.
func diffSetup(tb testing.TB, rnd *rand.Rand, n int, prebuild bool, tune ...func(*Runtime)) ([]*diffEngine, map[string]*diffRef) {
	data := diffDataset(tb, rnd, n)
	pool := memPool{"items": rtDataset(tb, "items", dataset.NDJSON, "kind", data)}
	if prebuild {
		for _, a := range diffAttrs {
			pool["items"].Order(a.name)
			pool["items"].Grams(a.name)
		}
	}
	p := diffProject(tb)
	ov := engine.NewOverlay()
	engines := []*diffEngine{
		{"cached", &rtHarness{tb: tb, rt: rtCompile(tb, p, Options{}), pool: pool, ov: ov}},
		{"uncached", &rtHarness{tb: tb, rt: rtCompile(tb, p, Options{CacheRows: 1}), pool: pool, ov: ov}},
	}
	for _, e := range engines {
		for _, f := range tune {
			f(e.h.rt)
		}
	}
	return engines, map[string]*diffRef{"Product": newDiffRef(tb, data, ""), "ProductA": newDiffRef(tb, data, "A")}
}

// TestListDifferential compares the engine with the naive reference on
// thousands of random queries, before and between random mutations, with
// the query cache at its default and with a cache too small to hold a row
// list (every query computed from the indexes). In "one runtime" a single
// uncached runtime reads the overlay, so every version is patched from the
// last resolved one and its live table from the last one built (two
// runtimes alternate their tables, and mostly resolve anew).
func TestListDifferential(t *testing.T) {
	for _, tc := range []listDiffCase{
		{"small", 300, 1500, 60, 1, false, false},
		{"large", 5000, 1500, 80, 2, true, false},
		{"one runtime", 2000, 1500, 150, 3, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) { runListDiff(t, tc, randQuery) })
	}
}

// listDiffCase is one run of the differential test: rows in the dataset,
// queries, mutation rounds among them, the seed, whether the indexes are
// built first, and whether one uncached runtime runs alone.
type listDiffCase struct {
	name             string
	rows, queries, m int
	seed             uint64
	prebuild, single bool
}

// runListDiff runs tc's queries, made by gen, through the engines and the
// reference, with random mutations between them, and requires identical
// answers.
func runListDiff(t *testing.T, tc listDiffCase, gen func(*rand.Rand) diffQuery, tune ...func(*Runtime)) {
	rnd := rand.New(rand.NewPCG(tc.seed, 99))
	engines, refs := diffSetup(t, rnd, tc.rows, tc.prebuild, tune...)
	if tc.single {
		engines = engines[1:]
	}
	for i := 0; i < tc.queries; i++ {
		if i%(tc.queries/tc.m) == 0 && i > 0 {
			tn := []string{"Product", "ProductA"}[rnd.IntN(2)]
			for k := rnd.IntN(3); k >= 0; k-- {
				diffMutate(t, rnd, engines[i%len(engines)].h, tn, refs[tn])
			}
		}
		tn := []string{"Product", "ProductA"}[rnd.IntN(2)]
		q := gen(rnd)
		wantTotal, wantIDs := refs[tn].answer(q)
		for _, e := range engines {
			total, ids := e.answer(t, "search"+tn, q)
			if total != wantTotal || !slices.Equal(ids, wantIDs) {
				t.Fatalf("query %d %s (%s): total %d ids %v, want total %d ids %v", i, q.text("search"+tn), e.name, total, ids, wantTotal, wantIDs)
			}
		}
	}
}
