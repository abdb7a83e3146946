package graphql

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzContractArguments sends arbitrary JSON as the filter, sort and
// paging variables of a contract project's fields: every answer is data
// or a client error, never INTERNAL (a panic the executor caught).
func FuzzContractArguments(f *testing.F) {
	for _, seed := range []string{
		`{"_or": [{"price": {"_gt": 10}}, {"_not": {"genre": {"_eq": "FICTION"}}}]}`,
		`{"title": {"_like": "%a_b%"}, "_and": [{"title": {"_ilike": "%%"}}]}`,
		`{"AND": {"title": {"startsWith": "a", "not": {"contains": "b"}}}, "NOT": []}`,
		`[{"price": "desc"}, {"title": "asc"}]`, `"PRICE_DESC"`, `-5`, `null`,
	} {
		f.Add(seed)
	}
	h := newContractHarness(f, "testdata/contract/filters.graphql")
	queries := []string{
		`query($v: books_bool_exp, $o: [books_order_by!], $n: Int) { hasuraBooks(where: $v, order_by: $o, limit: $n, offset: $n) { id } }`,
		`query($v: BookWhereInput, $o: [BookOrderByInput!], $n: Int) { prismaBooks(where: $v, orderBy: $o, skip: $n, take: $n) { id } }`,
		`query($v: BookFilter, $n: Int) { plainBooks(filter: $v) { id } bookPage(page: $n, perPage: $n) { total items { id } } }`,
		`query($n: Int, $c: String) { bookConnection(first: $n, after: $c) { totalCount edges { cursor } } }`,
	}
	f.Fuzz(func(t *testing.T, raw string) {
		h := &rtHarness{tb: t, rt: h.rt, pool: h.pool, ov: h.ov}
		var v any
		if json.Unmarshal([]byte(raw), &v) != nil {
			return
		}
		n, _ := v.(float64)
		c, _ := v.(string)
		for _, q := range queries {
			vars := map[string]any{"v": v, "o": v, "n": int(n), "c": c}
			if body := string(h.raw(q, vars)); strings.Contains(body, `"INTERNAL"`) {
				t.Fatalf("%s with %s: %s", q, raw, body)
			}
		}
	})
}
