package exec

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// FuzzPrepareExecute runs arbitrary documents and variables against the
// test schema: Prepare and Execute must never panic, Execute must return,
// and the response must be valid JSON.
func FuzzPrepareExecute(f *testing.F) {
	seeds := [][2]string{
		{`{ products { total items { id name price tags category { name } sizes(limit: 2) } } }`, ``},
		{`query ($p: Int, $d: SortDirection) { products(page: $p, sortDirection: $d) { page } }`, `{"p": 2, "d": "DESC"}`},
		{`query ($i: ProductInput!) { echo(input: $i, j: {a: [1, $i]}) }`, `{"i": {"name": "x", "tags": "t", "meta": {"k": [1, null]}}}`},
		{`{ search(text: "x") { __typename ... on Product { id } ... on Category { name } } }`, ``},
		{`{ a: product(id: 1) { secret } fail internal panics notReady { id } badInt }`, ``},
		{`mutation { log(entry: "a") createProduct(input: {name: "n"}) { id meta } }`, ``},
		{`{ __schema { types { name fields { name type { ofType { name } } } } } }`, ``},
		{`query Q($x: Boolean!) { nested @include(if: $x) { inner { value } } ...F } fragment F on Query { loose(a: $x) }`, `{"x": true}`},
		{`{ nested { inner { inner { inner { inner { inner { value } } } } } } }`, ``},
		{`{`, ``},
		{`query ($v: [[Int!]]) { echo(nested: $v) }`, `{"v": [[1], 2, null]}`},
		{`{ echo(one: {a: 1}) }`, `[]`},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	log := new([]string)
	ex := newTestExecutor(f, log)
	f.Fuzz(func(t *testing.T, query, variables string) {
		*log = (*log)[:0]
		req := Request{Query: query}
		if variables != "" && decodeJSON([]byte(variables), &req.Variables) != nil {
			req.Variables = nil
		}
		p, res := ex.Prepare(req)
		if res == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var err error
			if res, err = p.Execute(ctx, nil); err != nil {
				t.Fatalf("Execute: %v", err)
			}
		}
		if out := res.AppendJSON(nil); !json.Valid(out) {
			t.Fatalf("invalid JSON: %s", out)
		}
	})
}
