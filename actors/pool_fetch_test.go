package actors

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/persistence"
)

// peerStore is this node's store with a Fetch that copies a grain's
// records from another node's store, as cluster.Store.Fetch pulls them.
type peerStore struct {
	*persistence.DB
	peer    *persistence.DB
	fetches int
}

func (s *peerStore) Fetch(key, kind, id string) bool {
	s.fetches++
	var puts []persistence.Put
	for _, r := range GrainRecords(key) {
		_ = s.peer.Scan(r.Kind, r.Prefix, func(rid string, v []byte) error {
			if !r.Exact || rid == r.Prefix {
				puts = append(puts, persistence.Put{Kind: r.Kind, ID: rid, Value: append([]byte(nil), v...)})
			}
			return nil
		})
	}
	if len(puts) > 0 {
		_ = s.Write(puts...)
	}
	b, _ := s.Get(kind, id)
	return b != nil
}

func openDB(t *testing.T, name string) *persistence.DB {
	db, err := persistence.Open(filepath.Join(t.TempDir(), name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestPoolFetchesMissingDataset: a node whose copy of a dataset never
// arrived fetches it from another node on first use; a code no node has
// is looked for at most once every fetchAgainAfter.
func TestPoolFetchesMissingDataset(t *testing.T) {
	peer := openDB(t, "peer.db")
	_, puts, entry := encodeDataset(t, testDataset(t, "people", `[{"id":1,"name":"Ann"},{"id":2,"name":"Bob"}]`), time.Now())
	if err := peer.Write(append(puts, entry)...); err != nil {
		t.Fatal(err)
	}
	store := &peerStore{DB: openDB(t, "self.db"), peer: peer}
	pool := NewPool(store)
	got, err := pool.load("people")
	if err != nil || got == nil || got.Len() != 2 {
		t.Fatalf("Load after a fetch: %v, %v", got, err)
	}
	// Two fetches: the catalog entry, then the blob (a unit of its own).
	if got, _ := pool.load("nobody"); got != nil || store.fetches != 3 {
		t.Fatalf("missing code: %v after %d fetches", got, store.fetches)
	}
	if got, _ := pool.load("nobody"); got != nil || store.fetches != 3 {
		t.Fatalf("a missing code was looked for again at once (%d fetches)", store.fetches)
	}
}

// TestCollectGarbageSparesYoungBlobs: a blob no catalog entry points at is
// deleted only once it is older than the minimum age; a young one may be
// an upload under way on another node, whose entry is written last.
func TestCollectGarbageSparesYoungBlobs(t *testing.T) {
	db := openDB(t, "gc.db")
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	d := testDataset(t, "things", `[{"id":1}]`)
	blob := func(at time.Time) (string, persistence.Put) {
		id, puts, entry := encodeDataset(t, d, at)
		if err := db.Write(puts...); err != nil {
			t.Fatal(err)
		}
		return id, entry
	}
	live, entry := blob(now.Add(-72 * time.Hour))
	if err := db.Write(entry); err != nil {
		t.Fatal(err)
	}
	inFlight, _ := blob(now.Add(-time.Minute))
	abandoned, _ := blob(now.Add(-48 * time.Hour))
	legacy := "AbCdEfGhIj" // a blob ID from before IDs carried their time
	if err := db.Write(persistence.Put{Kind: kindDataBlob, ID: "things/" + legacy + "/000000", Value: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	if err := NewPool(db).CollectGarbage(now, 24*time.Hour); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]bool{live: true, inFlight: true, abandoned: false, legacy: false} {
		var n int
		_ = db.Scan(kindDataBlob, "things/"+id+"/", func(string, []byte) error { n++; return nil })
		if (n > 0) != want {
			t.Errorf("blob %s: kept %v, want %v", id, n > 0, want)
		}
	}
}

// TestPoolRetriesAFailedLoad: a dataset that could not be read (its blob
// had not arrived) is read again on the next use, not refused for good.
func TestPoolRetriesAFailedLoad(t *testing.T) {
	db := openDB(t, "retry.db")
	_, puts, entry := encodeDataset(t, testDataset(t, "late", `[{"id":1},{"id":2}]`), time.Now())
	if err := db.Write(entry); err != nil {
		t.Fatal(err)
	}
	pool := NewPool(db)
	if got, err := pool.load("late"); err == nil || got != nil {
		t.Fatalf("Load without the blob: %v, %v; want an error", got, err)
	}
	if err := db.Write(puts...); err != nil {
		t.Fatal(err)
	}
	if got, err := pool.load("late"); err != nil || got == nil || got.Len() != 2 {
		t.Fatalf("Load once the blob arrived: %v, %v", got, err)
	}
}

// testDataset reads a JSON dataset with import code code.
func testDataset(t *testing.T, code, data string) *dataset.Dataset {
	t.Helper()
	d, err := dataset.Read(strings.NewReader(data), dataset.Options{ImportCode: code, Format: dataset.JSON})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// encodeDataset returns the blob of d as uploaded at, and the catalog
// entry that points at it (the entry an import commits last).
func encodeDataset(t *testing.T, d *dataset.Dataset, at time.Time) (blobID string, puts []persistence.Put, entry persistence.Put) {
	t.Helper()
	blobID, puts, err := blobPuts(d, at)
	if err != nil {
		t.Fatal(err)
	}
	meta, err := json.Marshal(DatasetMeta{ImportCode: d.ImportCode(), Name: d.ImportCode(), Format: "json", RecordCount: d.Len(), BlobID: blobID})
	if err != nil {
		t.Fatal(err)
	}
	return blobID, puts, persistence.Put{Kind: kindDataset, ID: d.ImportCode(), Value: meta}
}

// writeEntry writes d's blob and a catalog entry for it under key, owned
// by owner, as an import does; it returns the blob ID.
func writeEntry(t *testing.T, db *persistence.DB, key, owner string, d *dataset.Dataset) string {
	t.Helper()
	blobID, puts, entry := encodeDataset(t, d, time.Now())
	m := DatasetMeta{ImportCode: d.ImportCode(), BlobID: blobID, Owner: owner}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	entry.ID, entry.Value = key, b
	if err := db.Write(append(puts, entry)...); err != nil {
		t.Fatal(err)
	}
	return blobID
}

// TestPoolScopesCodes: a code resolves to the account's own dataset
// first, then to the entry under the bare code when it is curated or the
// account's own from before codes were scoped (a store written by an
// older node); another account's entry is none, whatever its key.
func TestPoolScopesCodes(t *testing.T) {
	db := openDB(t, "scopes.db")
	writeEntry(t, db, "cur", "", testDataset(t, "cur", `[{"id":1},{"id":2}]`))
	writeEntry(t, db, "legacy", "acc1", testDataset(t, "legacy", `[{"id":1},{"id":2},{"id":3}]`))
	writeEntry(t, db, catalogKey("acc1", "cur"), "acc1", testDataset(t, "cur", `[{"id":1}]`))
	writeEntry(t, db, catalogKey("acc2", "mine"), "acc2", testDataset(t, "mine", `[{"id":1}]`))
	pool := NewPool(db)
	tests := []struct {
		account, code string
		rows          int // -1: none
	}{
		{"acc1", "cur", 1}, {"acc2", "cur", 2}, {"", "cur", 2},
		{"acc1", "legacy", 3}, {"acc2", "legacy", -1}, {"", "legacy", -1},
		{"acc2", "mine", 1}, {"acc1", "mine", -1}, {"", "mine", -1},
		{"acc1", "acc2:mine", -1}, {"", "acc2:mine", -1},
	}
	for _, tt := range tests {
		got := -1
		if d := pool.forAccount(tt.account).Dataset(tt.code); d != nil {
			got = d.Len()
		}
		if got != tt.rows {
			t.Errorf("account %q, code %q: %d rows; want %d", tt.account, tt.code, got, tt.rows)
		}
	}
}

// TestPoolNoticesAnotherNodesReimport: a node that cached a dataset
// notices, within recheckAfter, that another node deleted it and its owner
// imported the code again (a new blob under the same catalog key), and
// reads the new contents; a code it found empty shows a new upload too.
func TestPoolNoticesAnotherNodesReimport(t *testing.T) {
	db := openDB(t, "reimport.db")
	key := catalogKey("acc1", "things")
	writeEntry(t, db, key, "acc1", testDataset(t, "things", `[{"id":1}]`))
	pool := NewPool(db)
	now := time.Now()
	pool.now = func() int64 { return now.UnixNano() }
	scoped := pool.forAccount("acc1")
	if d := scoped.Dataset("things"); d == nil || d.Len() != 1 {
		t.Fatalf("first read: %v", d)
	}
	if d := scoped.Dataset("later"); d != nil {
		t.Fatalf("a code nobody has: %v", d)
	}
	writeEntry(t, db, key, "acc1", testDataset(t, "things", `[{"id":1},{"id":2}]`))
	writeEntry(t, db, catalogKey("acc1", "later"), "acc1", testDataset(t, "later", `[{"id":1}]`))
	if d := scoped.Dataset("things"); d == nil || d.Len() != 1 {
		t.Fatalf("within recheckAfter the cached contents serve: %v", d)
	}
	now = now.Add(recheckAfter)
	if d := scoped.Dataset("things"); d == nil || d.Len() != 2 {
		t.Fatalf("after recheckAfter: %v; want the re-imported 2 rows", d)
	}
	if d := scoped.Dataset("later"); d == nil || d.Len() != 1 {
		t.Fatalf("a new upload after recheckAfter: %v", d)
	}
	gone, _ := json.Marshal(DatasetMeta{ImportCode: "things", Owner: "acc1", Deleted: true})
	if err := db.Write(persistence.Put{Kind: kindDataset, ID: key, Value: gone}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(recheckAfter)
	if d := scoped.Dataset("things"); d != nil {
		t.Fatalf("a deleted dataset still served: %v", d)
	}
}

// BenchmarkScopedPoolDataset: what a table's dataset lookup costs a query
// (once per table per request): a curated dataset read by a guest project
// (one cached entry), by an account project (its own entry, cached as
// absent, then the curated one), and an account's own dataset.
func BenchmarkScopedPoolDataset(b *testing.B) {
	db, err := persistence.Open(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	for _, e := range []struct{ key, owner, code string }{{"cur", "", "cur"}, {"acc1:own", "acc1", "own"}} {
		d, err := dataset.Read(strings.NewReader(`[{"id":1}]`), dataset.Options{ImportCode: e.code, Format: dataset.JSON})
		if err != nil {
			b.Fatal(err)
		}
		blobID, puts, err := blobPuts(d, time.Now())
		if err != nil {
			b.Fatal(err)
		}
		meta, _ := json.Marshal(DatasetMeta{ImportCode: e.code, BlobID: blobID, Owner: e.owner})
		if err := db.Write(append(puts, persistence.Put{Kind: kindDataset, ID: e.key, Value: meta})...); err != nil {
			b.Fatal(err)
		}
	}
	pool := NewPool(db)
	for _, bc := range []struct{ name, account, code string }{
		{"curated by a guest project", "", "cur"}, {"curated by an account project", "acc1", "cur"}, {"own by an account project", "acc1", "own"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := pool.forAccount(bc.account)
			for b.Loop() {
				if s.Dataset(bc.code) == nil {
					b.Fatal("no dataset")
				}
			}
		})
	}
}
