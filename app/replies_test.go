package app_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mockgql/mockgql/actors/actorstest"
)

// TestMutationDeliveredTwice: cluster.Request resends a call with the same
// request ID when the first answer does not arrive, and after a failover
// the resent call reaches a new activation. Either way the mutation is
// applied once and both deliveries get the same answer, because the answer
// is written with the mutation's changes.
func TestMutationDeliveredTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mockgql.db")
	clock := newTestClock()
	first := startNode(t, path, clock)
	importProducts(t, first.svc, "products")
	s := newShop(t, first, "twice@example.com", "twice", "products")
	call := func(nd *node) actorstest.RuntimeAnswer {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		// A runtime call whose API key the HTTP node checked.
		r, err := actorstest.Runtime(ctx, nd.env.Caller, s.project.ID, "resent-1", "twice",
			[]byte(`{"query":"mutation { createProduct(input: {name: \"Once\"}) { id name } }"}`))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	count := func(nd *node) int {
		names := productNames(t, nd.svc, "twice", s.runtime.Value, "")
		return len(slices.DeleteFunc(names, func(n string) bool { return n != "Once" }))
	}
	a, b := call(first), call(first)
	if a.Status != 200 || string(a.Body) != string(b.Body) || count(first) != 1 {
		t.Fatalf("same activation: %s then %s, %d rows named Once", a.Body, b.Body, count(first))
	}
	first.stop()
	second := startNode(t, path, clock) // a new activation, from the store
	if c := call(second); string(c.Body) != string(a.Body) || count(second) != 1 {
		t.Fatalf("new activation: %s (first answer %s), %d rows named Once", c.Body, a.Body, count(second))
	}
}
