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
