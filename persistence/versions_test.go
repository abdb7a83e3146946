package persistence_test

import (
	"strings"
	"testing"

	"github.com/mockgql/mockgql/persistence"
)

// TestPromiseForUnheldKeyWritesNothing: a promise for a grain that holds
// no records (the activation a lookup of an unknown ID makes) is kept in
// memory, so the file does not grow with lookups; the grain's first
// records make it durable, and a promise for a held grain is durable at
// once. It used to write a _promise record for every lookup.
func TestPromiseForUnheldKeyWritesNothing(t *testing.T) {
	db, path := mustOpen(t)
	for i := range 200 {
		key := "project/p" + strings.Repeat("x", 100) + string(rune('a'+i%26)) + string(rune('a'+i/26))
		if got, ok, err := db.Promise(key, 1); err != nil || !ok || got != 1 {
			t.Fatalf("Promise(%s): %d %v %v", key, got, ok, err)
		}
	}
	if n := db.PendingPromises(); n != 200 {
		t.Fatalf("PendingPromises = %d, want 200", n)
	}
	if _, ok, _ := db.Promise("project/pxa", 1); !ok {
		t.Fatal("the first promise of a fresh key was refused")
	}
	if got, ok, _ := db.Promise("project/pxa", 1); ok || got != 1 {
		t.Fatalf("a second promise of the same generation: ok %v, promised %d; want a refusal naming 1", ok, got)
	}
	// The grain that gets records keeps its promise across a restart.
	if _, _, err := db.Promise("apikey/k", 7); err != nil {
		t.Fatal(err)
	}
	if err := db.Apply("apikey/k", persistence.Version{Gen: 3, Seq: 1},
		[]persistence.Put{{Kind: "apikey", ID: "k", Value: []byte("v")}}, nil); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := db.Promise("apikey/k", 9); !ok {
		t.Fatal("a promise above the held one was refused")
	}
	_ = db.Close()
	db2, err := persistence.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	if g, _ := db2.Promised("apikey/k"); g != 9 {
		t.Fatalf("after a restart the held grain's promise is %d, want 9", g)
	}
	for _, k := range []string{"project/pxa", "project/p" + strings.Repeat("x", 100) + "aa"} {
		if g, _ := db2.Promised(k); g != 0 {
			t.Fatalf("an unheld key's promise %s was written to disk (%d)", k, g)
		}
	}
	if vs, _ := db2.Versions(); len(vs) != 1 {
		t.Fatalf("versions on disk: %v, want only apikey/k", vs)
	}
	if _, _, err := db2.Promise("project/"+strings.Repeat("x", persistence.MaxGrainKey), 1); err == nil {
		t.Fatal("a promise for an over-long key was accepted")
	}
}
