package graphql

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/model"
)

// The differential test of the opt-in query power: random where trees,
// multi-key orderBy, Relay windows and aggregates, answered by the engine
// and by a naive reference written from the schema's descriptions.

// powerOps adds, to table t of the differential project, a LIST operation
// with every option and an AGGREGATE operation.
func (b *rtModel) powerOps(t *model.Table, tn string) {
	b.tb.Helper()
	o := &model.Operation{ID: b.id("o"), TableID: t.ID, Name: "power" + tn, Kind: model.OpList, Enabled: true,
		Options: &model.OperationOptions{Relay: true, Where: true, OrderBy: true}}
	b.must(b.p.AddOperation(o))
	b.op(t, "agg"+tn, model.OpAggregate)
}

// whereTree is a random where filter: a Go value (for the literal) and
// the reference's matcher.
type whereTree struct {
	lit   any
	match func(r *diffRow) bool
}

var whereOps = []string{"eq", "neq", "gt", "gte", "lt", "lte", "like", "in", "nin", "isNull"}

func randWhere(rnd *rand.Rand, depth int) whereTree {
	m := map[string]any{}
	var parts []func(r *diffRow) bool
	for n := 1 + rnd.IntN(2); n > 0; n-- {
		switch x := rnd.IntN(10); {
		case x < 6 || depth == 0:
			a := diffAttrs[rnd.IntN(len(diffAttrs))].name
			if rnd.IntN(8) == 0 {
				a = "currency"
			}
			op := whereOps[rnd.IntN(len(whereOps))]
			arg := randWhereArg(rnd, a, op)
			ops, _ := m[a].(map[string]any)
			if _, dup := ops[op]; dup {
				continue
			}
			if ops == nil {
				ops = map[string]any{}
				m[a] = ops
			}
			ops[op] = arg
			parts = append(parts, func(r *diffRow) bool { return refWhereOp(op, r.vals[a], arg) })
		case x < 8:
			key := []string{"and", "or"}[rnd.IntN(2)]
			if _, dup := m[key]; dup {
				continue
			}
			var subs []whereTree
			list := []any{}
			for k := rnd.IntN(3); k >= 0; k-- {
				s := randWhere(rnd, depth-1)
				subs = append(subs, s)
				list = append(list, s.lit)
			}
			m[key] = list
			parts = append(parts, func(r *diffRow) bool {
				for _, s := range subs {
					if ok := s.match(r); ok != (key == "and") {
						return ok
					}
				}
				return key == "and"
			})
		default:
			if _, dup := m["not"]; dup {
				continue
			}
			s := randWhere(rnd, depth-1)
			m["not"] = s.lit
			parts = append(parts, func(r *diffRow) bool { return !s.match(r) })
		}
	}
	return whereTree{lit: m, match: func(r *diffRow) bool {
		for _, p := range parts {
			if !p(r) {
				return false
			}
		}
		return true
	}}
}

func randWhereArg(rnd *rand.Rand, attr, op string) any {
	switch op {
	case "isNull":
		return rnd.IntN(2) == 0
	case "in", "nin":
		return randArg(rnd, attr, model.OpIn)
	}
	return randArg(rnd, attr, model.Operator(op))
}

// refWhereOp is one FilterOperators condition, from its description.
func refWhereOp(op string, v dataset.Value, arg any) bool {
	switch op {
	case "isNull":
		return (v.Kind == dataset.Null) == arg.(bool)
	case "nin":
		list := arg.([]any)
		if len(list) == 0 {
			return true
		}
		typed := false
		for _, x := range list {
			typed = typed || engine.ValueOfGo(x).Kind == v.Kind
		}
		return typed && !refMatch(model.OpIn, v, arg)
	}
	return refMatch(model.Operator(op), v, arg)
}

// objLiteral writes a map as a GraphQL input object literal.
func objLiteral(x any) string {
	switch t := x.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ": " + objLiteral(t[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(t))
		for i, e := range t {
			parts[i] = objLiteral(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return literal(x)
}

type orderKey struct {
	field string
	desc  bool
}

func randOrder(rnd *rand.Rand) []orderKey {
	var keys []orderKey
	for n := rnd.IntN(4); n > 0; n-- {
		keys = append(keys, orderKey{diffAttrs[rnd.IntN(len(diffAttrs))].name, rnd.IntN(2) == 0})
	}
	return keys
}

func orderLiteral(keys []orderKey) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		dir := "ASC"
		if k.desc {
			dir = "DESC"
		}
		parts[i] = fmt.Sprintf("{field: %s, direction: %s}", k.field, dir)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// refPower is the reference list: filter, then a stable sort by every key.
func (ref *diffRef) refPower(w whereTree, keys []orderKey) []*diffRow {
	var rows []*diffRow
	for _, r := range ref.rows {
		if w.match(r) {
			rows = append(rows, r)
		}
	}
	slices.SortStableFunc(rows, func(a, b *diffRow) int {
		for _, k := range keys {
			c := refCompare(a.vals[k.field], b.vals[k.field])
			if k.desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
	return rows
}

func rowIDs(rows []*diffRow) []string {
	ids := []string{}
	for _, r := range rows {
		ids = append(ids, r.id)
	}
	return ids
}

// refAggregate is the reference answer of an AGGREGATE query, as JSON.
func refAggregate(rows []*diffRow, by []string) map[string]any {
	out := refStats(rows)
	var groups []any
	index := map[string]int{}
	var members [][]*diffRow
	var keys []map[string]any
	for _, r := range rows {
		if len(by) == 0 {
			break
		}
		key := map[string]any{}
		for _, a := range by {
			key[a] = jsonValue(r.vals[a])
		}
		k := fmt.Sprint(key)
		if _, ok := index[k]; !ok {
			index[k] = len(members)
			members = append(members, nil)
			keys = append(keys, key)
		}
		members[index[k]] = append(members[index[k]], r)
	}
	for i, m := range members {
		g := refStats(m)
		g["key"] = keys[i]
		groups = append(groups, g)
	}
	if groups == nil {
		groups = []any{}
	}
	out["groups"] = groups
	return out
}

func jsonValue(v dataset.Value) any {
	switch v.Kind {
	case dataset.Number:
		return v.Num
	case dataset.String:
		return v.Str
	case dataset.Bool:
		return v.Bool
	}
	return nil
}

func refStats(rows []*diffRow) map[string]any {
	out := map[string]any{"count": float64(len(rows))}
	for _, stat := range []string{"sum", "avg", "min", "max"} {
		m := map[string]any{}
		for _, a := range []string{"price", "stock"} {
			var nums []float64
			for _, r := range rows {
				if v := r.vals[a]; v.Kind == dataset.Number {
					nums = append(nums, v.Num)
				}
			}
			if len(nums) == 0 {
				m[a] = nil
				continue
			}
			sum := 0.0
			for _, x := range nums {
				sum += x
			}
			m[a] = map[string]float64{"sum": sum, "avg": sum / float64(len(nums)), "min": slices.Min(nums), "max": slices.Max(nums)}[stat]
		}
		out[stat] = m
	}
	return out
}

// sameJSON compares decoded JSON, numbers within a relative 1e-9.
func sameJSON(a, b any) bool {
	if x, ok := a.(float64); ok {
		y, ok := b.(float64)
		return ok && math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(x))
	}
	switch t := a.(type) {
	case map[string]any:
		u, ok := b.(map[string]any)
		if !ok || len(t) != len(u) {
			return false
		}
		for k := range t {
			if !sameJSON(t[k], u[k]) {
				return false
			}
		}
		return true
	case []any:
		u, ok := b.([]any)
		if !ok || len(t) != len(u) {
			return false
		}
		for i := range t {
			if !sameJSON(t[i], u[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

const aggSelection = `count sum { price stock } avg { price stock } min { price stock } max { price stock } groups { key count sum { price stock } avg { price stock } min { price stock } max { price stock } }`

// powerCheck runs one random power query of each shape on every engine
// and compares with the reference.
func powerCheck(t *testing.T, rnd *rand.Rand, engines []*diffEngine, tn string, ref *diffRef) {
	t.Helper()
	w := randWhere(rnd, 3)
	keys := randOrder(rnd)
	want := ref.refPower(w, keys)
	pg, size := 1+rnd.IntN(4), 1+rnd.IntN(30)
	list := fmt.Sprintf(`{ power%s(page: %d, pageSize: %d, where: %s, orderBy: %s) { total items { id } } }`, tn, pg, size, objLiteral(w.lit), orderLiteral(keys))
	lo, hi := min(len(want), (pg-1)*size), min(len(want), pg*size)
	first := 1 + rnd.IntN(30)
	conn := fmt.Sprintf(`{ power%sConnection(first: %d, where: %s, orderBy: %s) { totalCount edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage } } }`, tn, first, objLiteral(w.lit), orderLiteral(keys))
	by := []string{}
	for _, a := range []string{"category", "inStock", "stock"} {
		if rnd.IntN(3) == 0 {
			by = append(by, a)
		}
	}
	agg := fmt.Sprintf(`{ agg%s(where: %s, groupBy: [%s]) { %s } }`, tn, objLiteral(w.lit), strings.Join(by, ", "), aggSelection)
	wantAgg := refAggregate(ref.refPower(w, nil), by)
	for _, e := range engines {
		out := e.h.do(list, nil)
		if out["errors"] != nil {
			t.Fatalf("%s: %s: %v", e.name, list, out["errors"])
		}
		page := out["data"].(map[string]any)["power"+tn].(map[string]any)
		if got := idsOf(page["items"]); int(page["total"].(float64)) != len(want) || !slices.Equal(got, rowIDs(want[lo:hi])) {
			if dbgPower != nil {
				dbgPower(e.h, tn, w)
			}
			t.Fatalf("%s: %s: total %v ids %v, want %d %v", e.name, list, page["total"], got, len(want), rowIDs(want[lo:hi]))
		}
		out = e.h.do(conn, nil)
		c := out["data"].(map[string]any)["power"+tn+"Connection"].(map[string]any)
		var got []string
		for _, ed := range c["edges"].([]any) {
			got = append(got, ed.(map[string]any)["node"].(map[string]any)["id"].(string))
		}
		if n := min(first, len(want)); !slices.Equal(got, rowIDs(want[:n])) || int(c["totalCount"].(float64)) != len(want) ||
			c["pageInfo"].(map[string]any)["hasNextPage"] != (len(want) > first) {
			t.Fatalf("%s: %s: %v, want %v", e.name, conn, c, rowIDs(want[:n]))
		}
		if len(want) > 0 {
			powerAfterCheck(t, rnd, e, tn, w, keys, want)
			powerWindowCheck(t, rnd, e, tn, w, keys, want)
		}
		aggCheck(t, e, tn, agg, wantAgg)
	}
}

// aggCheck runs the AGGREGATE query agg on e and compares with want.
func aggCheck(t *testing.T, e *diffEngine, tn, agg string, want map[string]any) {
	t.Helper()
	out := e.h.do(agg, nil)
	if out["errors"] != nil {
		t.Fatalf("%s: %s: %v", e.name, agg, out["errors"])
	}
	var wantJSON any
	b, _ := json.Marshal(want)
	_ = json.Unmarshal(b, &wantJSON)
	if got := out["data"].(map[string]any)["agg"+tn]; !sameJSON(got, wantJSON) {
		t.Fatalf("%s: %s:\n got %v\nwant %v", e.name, agg, got, wantJSON)
	}
}

// prebuildPower waits for the group and sum indexes of the differential
// dataset, so that aggregates take them rather than scanning meanwhile.
func prebuildPower(t *testing.T, engines []*diffEngine) {
	t.Helper()
	ds := engines[0].h.pool.(memPool)["items"]
	deadline := time.Now().Add(time.Minute)
	for _, by := range []string{"", "category", "inStock", "stock"} {
		for _, num := range []string{"price", "stock"} {
			for (by != "" && ds.GroupsReady(by) == nil) || ds.SumsReady(by, num) == nil {
				if time.Now().After(deadline) {
					t.Fatalf("indexes of %s/%s not built in a minute", by, num)
				}
				time.Sleep(time.Millisecond)
			}
		}
	}
}

// TestAggregateEveryRow compares aggregates over every row (no where) and
// under a single eq, which read the precomputed sums, with the reference:
// on the dataset as imported, after creates (live rows added to the
// sums), and after updates and deletes (the sums no longer apply: a pass
// over the rows).
func TestAggregateEveryRow(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 7))
	engines, refs := diffSetup(t, rnd, 2000, true)
	prebuildPower(t, engines)
	all := whereTree{lit: map[string]any{}, match: func(*diffRow) bool { return true }}
	eq := func(attr string, v any) whereTree { // one eq: one group of the column's sums
		return whereTree{lit: map[string]any{attr: map[string]any{"eq": v}}, match: func(r *diffRow) bool { return refWhereOp("eq", r.vals[attr], v) }}
	}
	wheres := []whereTree{eq("category", "toys"), eq("category", ""), eq("category", nil), eq("category", "none such"), eq("category", 2), eq("inStock", true), eq("stock", 5)}
	check := func() {
		for _, tn := range []string{"Product", "ProductA"} {
			for _, by := range [][]string{nil, {"category"}, {"inStock"}, {"stock"}, {"category", "inStock"}} {
				agg := fmt.Sprintf(`{ agg%s(groupBy: [%s]) { %s } }`, tn, strings.Join(by, ", "), aggSelection)
				want := refAggregate(refs[tn].refPower(all, nil), by)
				for _, e := range engines {
					aggCheck(t, e, tn, agg, want)
				}
			}
			for _, w := range wheres {
				agg := fmt.Sprintf(`{ agg%s(where: %s) { %s } }`, tn, objLiteral(w.lit), aggSelection)
				want := refAggregate(refs[tn].refPower(w, nil), nil)
				for _, e := range engines {
					aggCheck(t, e, tn, agg, want)
				}
			}
		}
	}
	check()
	for i := 0; i < 5; i++ {
		diffCreate(t, rnd, engines[0].h, "Product", refs["Product"])
	}
	check()
	for i := 0; i < 10; i++ {
		diffMutate(t, rnd, engines[0].h, "Product", refs["Product"])
	}
	check()
}

// powerAfterCheck checks a connection page after the cursor of a random
// match (the seek) against the reference.
func powerAfterCheck(t *testing.T, rnd *rand.Rand, e *diffEngine, tn string, w whereTree, keys []orderKey, want []*diffRow) {
	t.Helper()
	at, first := rnd.IntN(len(want)), 1+rnd.IntN(30)
	cursor := base64.RawURLEncoding.EncodeToString([]byte("row:" + want[at].id))
	q := fmt.Sprintf(`{ power%sConnection(first: %d, after: %q, where: %s, orderBy: %s) { totalCount edges { node { id } } pageInfo { hasNextPage hasPreviousPage } } }`,
		tn, first, cursor, objLiteral(w.lit), orderLiteral(keys))
	out := e.h.do(q, nil)
	if out["errors"] != nil {
		t.Fatalf("%s: %s: %v", e.name, q, out["errors"])
	}
	c := out["data"].(map[string]any)["power"+tn+"Connection"].(map[string]any)
	var got []string
	for _, ed := range c["edges"].([]any) {
		got = append(got, ed.(map[string]any)["node"].(map[string]any)["id"].(string))
	}
	rest := want[at+1:]
	n := min(first, len(rest))
	info := c["pageInfo"].(map[string]any)
	if !slices.Equal(got, rowIDs(rest[:n])) || int(c["totalCount"].(float64)) != len(want) ||
		info["hasNextPage"] != (len(rest) > first) || info["hasPreviousPage"] != true {
		t.Fatalf("%s: %s: %v, want %v", e.name, q, c, rowIDs(rest[:n]))
	}
}

// relayWindow is a random combination of the Relay arguments (-1: absent)
// with the cursors of matches at positions after and before.
type relayWindow struct{ first, last, after, before int }

// randWindow draws a window that walks backwards (last, or before) more
// often than not, over n matches (n > 0).
func randWindow(rnd *rand.Rand, n int) relayWindow {
	x := relayWindow{first: -1, last: -1, after: -1, before: -1}
	if rnd.IntN(3) == 0 {
		x.after = rnd.IntN(n)
	}
	if rnd.IntN(2) == 0 {
		x.before = rnd.IntN(n)
	}
	if rnd.IntN(3) == 0 {
		x.first = rnd.IntN(31)
	}
	if x.first < 0 || rnd.IntN(3) == 0 {
		x.last = rnd.IntN(31)
	}
	return x
}

// args is the window's argument text.
func (x relayWindow) args(want []*diffRow) string {
	var parts []string
	cursor := func(i int) string { return base64.RawURLEncoding.EncodeToString([]byte("row:" + want[i].id)) }
	if x.first >= 0 {
		parts = append(parts, fmt.Sprintf("first: %d", x.first))
	}
	if x.last >= 0 {
		parts = append(parts, fmt.Sprintf("last: %d", x.last))
	}
	if x.after >= 0 {
		parts = append(parts, fmt.Sprintf("after: %q", cursor(x.after)))
	}
	if x.before >= 0 {
		parts = append(parts, fmt.Sprintf("before: %q", cursor(x.before)))
	}
	return strings.Join(parts, ", ")
}

// bounds is the Relay algorithm on positions: the matches after after and
// before before, then the first first, then the last last.
func (x relayWindow) bounds(n int) (lo, hi int) {
	lo, hi = 0, n
	if x.after >= 0 {
		lo = x.after + 1
	}
	if x.before >= 0 {
		hi = x.before
	}
	hi = max(lo, hi)
	if first := x.first; first >= 0 || x.last < 0 {
		if first < 0 {
			first = 20
		}
		hi = min(hi, lo+first)
	}
	if x.last >= 0 {
		lo = max(lo, hi-x.last)
	}
	return lo, hi
}

// powerWindowCheck checks a connection page of random Relay arguments
// (last and before seek backwards) against the reference.
func powerWindowCheck(t *testing.T, rnd *rand.Rand, e *diffEngine, tn string, w whereTree, keys []orderKey, want []*diffRow) {
	t.Helper()
	x := randWindow(rnd, len(want))
	q := fmt.Sprintf(`{ power%sConnection(%s, where: %s, orderBy: %s) { totalCount edges { node { id } } pageInfo { hasNextPage hasPreviousPage } } }`,
		tn, x.args(want), objLiteral(w.lit), orderLiteral(keys))
	out := e.h.do(q, nil)
	if out["errors"] != nil {
		t.Fatalf("%s: %s: %v", e.name, q, out["errors"])
	}
	c := out["data"].(map[string]any)["power"+tn+"Connection"].(map[string]any)
	got := []string{}
	for _, ed := range c["edges"].([]any) {
		got = append(got, ed.(map[string]any)["node"].(map[string]any)["id"].(string))
	}
	lo, hi := x.bounds(len(want))
	info := c["pageInfo"].(map[string]any)
	if !slices.Equal(got, rowIDs(want[lo:hi])) || int(c["totalCount"].(float64)) != len(want) ||
		info["hasNextPage"] != (hi < len(want)) || info["hasPreviousPage"] != (lo > 0) {
		t.Fatalf("%s: %s: %v, want %v prev %v next %v", e.name, q, c, rowIDs(want[lo:hi]), lo > 0, hi < len(want))
	}
}

func idsOf(items any) []string {
	ids := []string{}
	for _, it := range items.([]any) {
		ids = append(ids, it.(map[string]any)["id"].(string))
	}
	return ids
}

// TestPowerDifferential compares where, orderBy, the first page of a
// connection and aggregates with the reference, between random mutations,
// cached and uncached.
func TestPowerDifferential(t *testing.T) {
	for _, tc := range []struct {
		name             string
		rows, queries, m int
		seed             uint64
		prebuild         bool // the indexes (bitset algebra) rather than scans
	}{
		{"small", 300, 400, 40, 3, false},
		{"large", 4000, 300, 30, 4, true},
		{"indexed", 300, 600, 60, 5, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(tc.seed, 7))
			engines, refs := diffSetup(t, rnd, tc.rows, tc.prebuild)
			if tc.prebuild {
				prebuildPower(t, engines)
			}
			for i := 0; i < tc.queries; i++ {
				if i%(tc.queries/tc.m) == 0 && i > 0 {
					tn := []string{"Product", "ProductA"}[rnd.IntN(2)]
					diffMutate(t, rnd, engines[i%2].h, tn, refs[tn])
				}
				tn := []string{"Product", "ProductA"}[rnd.IntN(2)]
				powerCheck(t, rnd, engines, tn, refs[tn])
			}
		})
	}
}

var dbgPower func(h *rtHarness, tn string, w whereTree)

// diffCreate creates a random row of table tn through h and mirrors it in
// ref (diffMutate's create, alone).
func diffCreate(tb testing.TB, rnd *rand.Rand, h *rtHarness, tn string, ref *diffRef) {
	tb.Helper()
	input, vals := randInput(rnd)
	diffCreateRow(tb, h, tn, ref, input, vals)
}

// TestAggregateSelectedStats: an aggregate builds only the statistics
// the query selects (directly, in groups, through inline fragments and
// fragment spreads); what it selects equals the full answer's.
func TestAggregateSelectedStats(t *testing.T) {
	rnd := rand.New(rand.NewPCG(13, 7))
	engines, _ := diffSetup(t, rnd, 500, true)
	prebuildPower(t, engines)
	h := engines[0].h
	full := h.do(`{ aggProduct(groupBy: [category]) { `+aggSelection+` } }`, nil)["data"].(map[string]any)["aggProduct"].(map[string]any)
	for _, tc := range []struct {
		query string
		want  []string // statistics present in the groups
	}{
		{`{ aggProduct(groupBy: [category]) { count groups { key count avg { price } } } }`, []string{"avg"}},
		{`{ aggProduct(groupBy: [category]) { groups { key ... on ProductGroup { min { stock } } } } }`, []string{"min"}},
		{`query { aggProduct(groupBy: [category]) { groups { key ...G } } } fragment G on ProductGroup { max { price } sum { stock } }`, []string{"max", "sum"}},
	} {
		got := h.do(tc.query, nil)
		if got["errors"] != nil {
			t.Fatalf("%s: %v", tc.query, got["errors"])
		}
		groups := got["data"].(map[string]any)["aggProduct"].(map[string]any)["groups"].([]any)
		fullGroups := full["groups"].([]any)
		if len(groups) != len(fullGroups) {
			t.Fatalf("%s: %d groups, want %d", tc.query, len(groups), len(fullGroups))
		}
		for i, g := range groups {
			gm, fm := g.(map[string]any), fullGroups[i].(map[string]any)
			for _, stat := range tc.want {
				for attr, v := range gm[stat].(map[string]any) {
					if !sameJSON(v, fm[stat].(map[string]any)[attr]) {
						t.Errorf("%s: group %d %s.%s = %v, want %v", tc.query, i, stat, attr, v, fm[stat].(map[string]any)[attr])
					}
				}
			}
		}
	}
}
