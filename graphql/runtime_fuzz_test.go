package graphql

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/graphql/exec"
)

// FuzzRuntimeQuery runs arbitrary documents against the test model: any
// document must be refused or answered, never fail with an INTERNAL error
// (a panic in a resolver becomes one). Mutations run too, without applying.
func FuzzRuntimeQuery(f *testing.F) {
	files, _ := filepath.Glob("testdata/runtime/*.graphql")
	for _, file := range files {
		src, _ := os.ReadFile(file)
		for _, doc := range strings.Split(string(src), "\n# ---\n") {
			f.Add(doc)
		}
	}
	f.Add(`{ searchProducts(priceEq: [1], categories: [{a: 1}], nameLike: null) { total } }`)
	h := newRTHarness(f)
	f.Fuzz(func(t *testing.T, query string) {
		prep, refused := h.rt.Prepare(exec.Request{Query: query})
		if refused != nil {
			return
		}
		var res *exec.Result
		var err error
		if prep.Mutation() {
			res, _, err = h.rt.Mutate(context.Background(), prep, h.pool, h.ov)
		} else {
			res, err = h.rt.Query(context.Background(), prep, h.pool, h.ov)
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range res.Errors {
			if e.Extensions["code"] == "INTERNAL" {
				t.Fatalf("internal error for %q: %v (%v)", query, e, e.Err)
			}
		}
	})
}
