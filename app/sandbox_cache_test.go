package app_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// TestSandboxAnswerCache: the node's answer cache keys on the sandbox. The
// project's cached answer stays a hit while a sandbox's answers to the
// same body come and go, and no answer of one is served to the other.
func TestSandboxAnswerCache(t *testing.T) {
	nd := startNode(t, "", nil)
	svc, ctx := nd.svc, context.Background()
	importProducts(t, svc, "products")
	s := newShop(t, nd, "sandbox-cache@example.com", "sbcache", "products")
	stats := nd.env.RuntimePath().AnswerCache
	const q = `{ products(pageSize: 10) { total items { id name } } }`
	body, _ := json.Marshal(map[string]string{"query": q})
	run := func(sandbox, query string) string {
		t.Helper()
		b := body
		if query != q {
			b, _ = json.Marshal(map[string]string{"query": query})
		}
		res, err := svc.Runtime.Runtime(ctx, model.RuntimeRequest{Slug: "sbcache", KeyValue: s.full.Value, Body: b, Sandbox: sandbox})
		if err != nil || res.Status != 200 || strings.Contains(string(res.Body), `"errors"`) {
			t.Fatalf("sandbox %q: %+v, %v", sandbox, res, err)
		}
		return string(res.Body)
	}
	plain := run("", q)
	run("", q) // stored, then a hit
	run("s", `mutation { updateProduct(id: "p2", input: {name: "Only in s"}) { id } }`)
	for range 3 {
		if got := run("s", q); !strings.Contains(got, "Only in s") {
			t.Fatalf("in the sandbox: %s", got)
		}
		before := stats()
		if got := run("", q); got != plain {
			t.Fatalf("without a sandbox: %s, want %s", got, plain)
		}
		if after := stats(); after.Hits != before.Hits+1 {
			t.Fatalf("the project's answer was not served from the cache beside the sandbox's (%d hits, then %d)", before.Hits, after.Hits)
		}
	}
	if got := run("other", q); got != plain {
		t.Fatalf("a sandbox with no changes: %s, want the project's %s", got, plain)
	}
}
