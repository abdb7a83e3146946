package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/model"
)

// TestRuntimeAnswerCache: a repeated query is answered from the node's
// answer cache (issue 33), and only while what its answer was made from
// is current: a mutation and a model edit each give the next request a
// fresh answer, and the fault step still applies to a cached answer. (A
// bound dataset cannot be replaced under its code; the cache checks the
// pool's datasets anyway, for one that could not be read before.)
func TestRuntimeAnswerCache(t *testing.T) {
	nd := startNode(t, "", nil)
	svc, ctx := nd.svc, context.Background()
	importProducts(t, svc, "products")
	s := newShop(t, nd, "cache@example.com", "cached", "products")
	stats := nd.env.RuntimePath().AnswerCache
	const q = `{ products(pageSize: 10) { total items { id name price } } }`
	answer := func() string {
		t.Helper()
		res, err := runtime(ctx, svc, "cached", s.runtime.Value, "", q)
		if err != nil || res.Status != 200 {
			t.Fatalf("runtime: %+v, %v", res, err)
		}
		return string(res.Body)
	}

	first, before := answer(), stats()
	for range 50 {
		if got := answer(); got != first {
			t.Fatalf("repeated answer %s, want %s", got, first)
		}
	}
	if after := stats(); after.Hits-before.Hits != 50 || after.Stored != before.Stored {
		t.Fatalf("50 repeats: %d hits and %d stored; want 50 hits, none stored", after.Hits-before.Hits, after.Stored-before.Stored)
	}

	t.Run("a mutation", func(t *testing.T) {
		mutate(t, svc, "cached", s.full.Value, "", `mutation { updateProduct(id: "p2", input: {name: "Trackball"}) { id } }`, "updateProduct")
		if got := answer(); !strings.Contains(got, "Trackball") {
			t.Fatalf("after the mutation: %s", got)
		}
	})
	t.Run("a model edit", func(t *testing.T) {
		if _, err := svc.Management.CreateAttribute(ctx, s.owner.p, model.Attribute{TableID: s.table.ID, Name: "label", Type: model.TypeString,
			Mapping: model.MappingSource, SourcePath: "name"}); err != nil {
			t.Fatal(err)
		}
		res, err := runtime(ctx, svc, "cached", s.runtime.Value, "", `{ products(pageSize: 10) { items { label } } }`)
		if err != nil || res.Status != 200 || !strings.Contains(string(res.Body), `{"label":"Laptop"}`) {
			t.Fatalf("the new attribute: %+v, %v", res, err)
		}
		if got := answer(); !strings.Contains(got, "Trackball") {
			t.Fatalf("after the edit: %s", got)
		}
	})
	t.Run("faults", func(t *testing.T) {
		answer() // cached
		if _, err := svc.Management.SetFaults(ctx, s.owner.p, s.project.ID, "", &model.FaultSettings{ErrorRate: 1, ErrorCode: model.CodeUnavailable}); err != nil {
			t.Fatal(err)
		}
		h := stats().Hits
		res, err := runtime(ctx, svc, "cached", s.runtime.Value, "", q)
		if err != nil || !strings.Contains(string(res.Body), "injected fault") {
			t.Fatalf("with an error rate of 1: %s, %v", res.Body, err)
		}
		if _, err := svc.Management.SetFaults(ctx, s.owner.p, s.project.ID, "", nil); err != nil {
			t.Fatal(err)
		}
		if got := answer(); strings.Contains(got, "injected") || stats().Hits != h+2 { // the refused one was a hit too
			t.Fatalf("without faults: %s, %d hits", got, stats().Hits-h)
		}
	})
}

// TestRuntimeAnswerCacheOff: with Config.AnswerCacheBytes 0
// (--answer-cache-mb 0) every request is executed, and answers the same.
func TestRuntimeAnswerCacheOff(t *testing.T) {
	nd := startNode(t, "", nil, func(e *actors.Env) { e.Config.AnswerCacheBytes = 0 })
	svc, ctx := nd.svc, context.Background()
	importProducts(t, svc, "products")
	s := newShop(t, nd, "nocache@example.com", "uncached", "products")
	var first string
	for i := range 5 {
		res, err := runtime(ctx, svc, "uncached", s.runtime.Value, "", `{ products { total } }`)
		if err != nil || res.Status != 200 {
			t.Fatalf("runtime: %+v, %v", res, err)
		}
		if i == 0 {
			first = string(res.Body)
		} else if string(res.Body) != first {
			t.Fatalf("answer %s, then %s", first, res.Body)
		}
	}
	if st := nd.env.RuntimePath().AnswerCache(); st != (actors.AnswerCacheStats{}) {
		t.Fatalf("a cache that is off: %+v", st)
	}
}
