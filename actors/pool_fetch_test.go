package actors

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model/dataset"
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
	d, err := dataset.Read(strings.NewReader(`[{"id":1,"name":"Ann"},{"id":2,"name":"Bob"}]`), dataset.Options{ImportCode: "people", Format: dataset.JSON})
	if err != nil {
		t.Fatal(err)
	}
	blobID, puts, err := blobPuts(d)
	if err != nil {
		t.Fatal(err)
	}
	meta := []byte(`{"importCode":"people","name":"people","format":"json","recordCount":2,"blobId":"` + blobID + `"}`)
	if err := peer.Write(append(puts, persistence.Put{Kind: kindDataset, ID: "people", Value: meta})...); err != nil {
		t.Fatal(err)
	}
	store := &peerStore{DB: openDB(t, "self.db"), peer: peer}
	pool := NewPool(store)
	got, err := pool.Load("people")
	if err != nil || got == nil || got.Len() != 2 {
		t.Fatalf("Load after a fetch: %v, %v", got, err)
	}
	// Two fetches: the catalog entry, then the blob (a unit of its own).
	if got, _ := pool.Load("nobody"); got != nil || store.fetches != 3 {
		t.Fatalf("missing code: %v after %d fetches", got, store.fetches)
	}
	if got, _ := pool.Load("nobody"); got != nil || store.fetches != 3 {
		t.Fatalf("a missing code was looked for again at once (%d fetches)", store.fetches)
	}
}
