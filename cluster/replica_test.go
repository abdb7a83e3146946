package cluster

import (
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/mockgql/mockgql/cluster/pb"
	"github.com/mockgql/mockgql/persistence"
)

// TestPromiseExceedsHeldGeneration: a replica holds the writes of a
// generation it never promised (the writer's majority did without it); a
// new activation must get a higher one, or it would write under that
// generation next to the activation it is meant to fence.
func TestPromiseExceedsHeldGeneration(t *testing.T) {
	db, err := persistence.Open(filepath.Join(t.TempDir(), "replica.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	r := &replica{db: db, records: func(string) []persistence.Range { return nil }, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if ack, err := r.write(&pb.Write{Key: "apikey/k", Ver: &pb.Version{Gen: 5, Seq: 1}}); err != nil || !ack.Ok {
		t.Fatalf("write of generation 5: %v %v", ack, err)
	}
	for _, tc := range []struct {
		gen uint64
		ok  bool
	}{{4, false}, {5, false}, {6, true}, {6, false}} {
		ack, err := r.promise(&pb.Promise{Key: "apikey/k", Gen: tc.gen})
		if err != nil || ack.Ok != tc.ok || !tc.ok && ack.Promised < 5 {
			t.Fatalf("promise %d: ok %v, promised %d (%v); want ok %v and a refusal naming at least 5", tc.gen, ack.GetOk(), ack.GetPromised(), err, tc.ok)
		}
	}
}

// TestSnapshotPushIsFenced: a write found a replica behind, and the writer
// sends it a snapshot; a newer activation's promise reaches the replica in
// between. The snapshot must be refused like the write would be, and a
// snapshot cut off after its first page must not pass for a whole copy.
func TestSnapshotPushIsFenced(t *testing.T) {
	db, err := persistence.Open(filepath.Join(t.TempDir(), "replica.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	r := &replica{db: db, records: func(string) []persistence.Range {
		return []persistence.Range{{Kind: "apikey", Prefix: "k", Exact: true}}
	}, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	rec := func(v string) []*pb.Record { return []*pb.Record{{Kind: "apikey", Id: "k", Value: []byte(v)}} }
	if ack, err := r.promise(&pb.Promise{Key: "apikey/k", Gen: 3}); err != nil || !ack.Ok {
		t.Fatalf("promise 3: %v %v", ack, err)
	}
	ack, err := r.push(&pb.Snapshot{Key: "apikey/k", Ver: &pb.Version{Gen: 2, Seq: 9}, Records: rec("stale"), First: true, Last: true})
	if err != nil || ack.Ok {
		t.Fatalf("a generation-2 snapshot after promising 3 was applied: %v %v", ack, err)
	}
	if v, _ := db.Get("apikey", "k"); v != nil {
		t.Fatalf("the refused snapshot left %q", v)
	}
	// A first page of several, from the promised generation: applied, but
	// the records hold no version until the last page arrives.
	ack, err = r.push(&pb.Snapshot{Key: "apikey/k", Ver: &pb.Version{Gen: 3, Seq: 2}, Records: rec("part"), First: true})
	if err != nil || !ack.Ok {
		t.Fatalf("first page: %v %v", ack, err)
	}
	if v, _ := db.Version("apikey/k"); v != (persistence.Version{}) {
		t.Fatalf("after a first page only, the version is %v, want none", v)
	}
	ack, err = r.push(&pb.Snapshot{Key: "apikey/k", Ver: &pb.Version{Gen: 3, Seq: 2}, Records: rec("whole"), Last: true})
	if err != nil || !ack.Ok {
		t.Fatalf("last page: %v %v", ack, err)
	}
	if v, _ := db.Version("apikey/k"); v != (persistence.Version{Gen: 3, Seq: 2}) {
		t.Fatalf("after the last page the version is %v, want {3 2}", v)
	}
}
