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
		[]persistence.Put{{Kind: "apikey", ID: "k", Value: []byte("v")}}); err != nil {
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

// TestCopiesReadAndReplacedWhole: a grain's copy is read page by page,
// each page with the version it was read at, and replaced in one
// transaction that first checks the version held (the replication's
// snapshots; see cluster.install).
func TestCopiesReadAndReplacedWhole(t *testing.T) {
	db, _ := mustOpen(t)
	ranges := []persistence.Range{{Kind: "project", Prefix: "p1", Exact: true},
		{Kind: "overlay", Prefix: "p1/"}, {Kind: "expiry", Suffix: "/p1"}}
	v1 := persistence.Version{Gen: 2, Seq: 7}
	puts := []persistence.Put{{Kind: "project", ID: "p1", Value: []byte("state")},
		{Kind: "expiry", ID: "100/p1", Value: []byte("x")}, {Kind: "expiry", ID: "100/p2", Value: []byte("other's")}}
	for i := range 5 {
		puts = append(puts, persistence.Put{Kind: "overlay", ID: "p1/t/" + string(rune('a'+i)), Value: []byte(strings.Repeat("r", 10))})
	}
	if applied, _, err := db.ApplyIf("project/p1", v1, puts, nil, nil); err != nil || !applied {
		t.Fatalf("ApplyIf: %v %v", applied, err)
	}
	// Pages of at most 25 bytes of values: 5, then 2 rows a page.
	var got []string
	afterKind, afterID := "", ""
	for page := 0; ; page++ {
		v, recs, more, err := db.ReadRanges("project/p1", ranges, afterKind, afterID, 25)
		if err != nil || v != v1 {
			t.Fatalf("page %d: version %v, %v", page, v, err)
		}
		for _, r := range recs {
			got = append(got, r.Kind+":"+r.ID)
		}
		if !more {
			break
		}
		afterKind, afterID = recs[len(recs)-1].Kind, recs[len(recs)-1].ID
	}
	want := "project:p1 overlay:p1/t/a overlay:p1/t/b overlay:p1/t/c overlay:p1/t/d overlay:p1/t/e expiry:100/p1"
	if strings.Join(got, " ") != want {
		t.Fatalf("pages read %v, want %s", got, want)
	}
	// An older copy is not installed; a newer one replaces every record
	// of the ranges, and only those.
	older := func(have persistence.Version) bool { return have.Less(persistence.Version{Gen: 2, Seq: 6}) }
	if applied, have, err := db.ApplyIf("project/p1", persistence.Version{Gen: 2, Seq: 6}, nil, ranges, older); err != nil || applied || have != v1 {
		t.Fatalf("an older copy: applied %v, have %v, %v", applied, have, err)
	}
	v2 := persistence.Version{Gen: 3, Seq: 1}
	newer := func(have persistence.Version) bool { return have.Less(v2) }
	if applied, _, err := db.ApplyIf("project/p1", v2, []persistence.Put{{Kind: "overlay", ID: "p1/t/z", Value: []byte("z")}}, ranges, newer); err != nil || !applied {
		t.Fatalf("a newer copy: applied %v, %v", applied, err)
	}
	var left []string
	for _, k := range []string{"project", "overlay", "expiry"} {
		_ = db.Scan(k, "", func(id string, _ []byte) error { left = append(left, k+":"+id); return nil })
	}
	if strings.Join(left, " ") != "overlay:p1/t/z expiry:100/p2" {
		t.Fatalf("after replacing the copy: %v", left)
	}
}
