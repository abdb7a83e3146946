package cluster

import (
	"fmt"
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
// snapshot cut off after its first page must leave the replica's copy as
// it was (it used to clear the copy at the first page).
func TestSnapshotPushIsFenced(t *testing.T) {
	r, db := newTestReplica(t)
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
	if ack, err := r.write(&pb.Write{Key: "apikey/k", Ver: &pb.Version{Gen: 3, Seq: 1}, Records: rec("held")}); err != nil || !ack.Ok {
		t.Fatalf("write 3.1: %v %v", ack, err)
	}
	// A first page of several, from the promised generation: taken, but
	// nothing changes until the last page arrives.
	ack, err = r.push(&pb.Snapshot{Key: "apikey/k", Ver: &pb.Version{Gen: 3, Seq: 2}, Records: rec("part"), First: true})
	if err != nil || !ack.Ok {
		t.Fatalf("first page: %v %v", ack, err)
	}
	expect(t, db, "held", persistence.Version{Gen: 3, Seq: 1})
	ack, err = r.push(&pb.Snapshot{Key: "apikey/k", Ver: &pb.Version{Gen: 3, Seq: 2}, Records: rec("whole"), Last: true})
	if err != nil || !ack.Ok {
		t.Fatalf("last page: %v %v", ack, err)
	}
	expect(t, db, "whole", persistence.Version{Gen: 3, Seq: 2})
}

// TestSnapshotsNeverGoBack: a replica's copy only moves forward. A
// restarting node's catch-up pulled a peer's copy and installed it over
// its own, although writes had brought its own copy further meanwhile; an
// acknowledged write held by that node and the writer only was then held
// by the writer alone (TestClusterRollingRestart lost one in CI). Two
// snapshots pushed at once must not mix either.
func TestSnapshotsNeverGoBack(t *testing.T) {
	r, db := newTestReplica(t)
	for seq, v := range []string{"one", "two"} {
		if ack, err := r.write(&pb.Write{Key: "apikey/k", Ver: &pb.Version{Gen: 3, Seq: uint64(seq + 1)}, Records: rec(v)}); err != nil || !ack.Ok {
			t.Fatalf("write %d: %v %v", seq+1, ack, err)
		}
	}
	// A pulled copy older than the one held is not installed.
	if _, err := install(db, r.records, "apikey/k", persistence.Version{Gen: 3, Seq: 1}, toPuts(rec("one"))); err != nil {
		t.Fatal(err)
	}
	expect(t, db, "two", persistence.Version{Gen: 3, Seq: 2})
	// Nor is a pushed one; the replica holds what the sender wanted it to.
	ack, err := r.push(&pb.Snapshot{Key: "apikey/k", Ver: &pb.Version{Gen: 3, Seq: 1}, Records: rec("one"), First: true, Last: true})
	if err != nil || !ack.Ok || ack.Have.GetSeq() != 2 {
		t.Fatalf("an older snapshot: %v %v; want ok, holding 3.2", ack, err)
	}
	expect(t, db, "two", persistence.Version{Gen: 3, Seq: 2})
	// Two senders' snapshots interleave: the later first page wins, the
	// other's remaining pages are refused.
	push := func(v uint64, val string, first, last bool) bool {
		t.Helper()
		ack, err := r.push(&pb.Snapshot{Key: "apikey/k", Ver: &pb.Version{Gen: 3, Seq: v}, Records: []*pb.Record{{Kind: "apikey", Id: "k", Value: []byte(val)}}, First: first, Last: last})
		if err != nil {
			t.Fatal(err)
		}
		return ack.Ok
	}
	if !push(4, "four-a", true, false) || !push(5, "five-a", true, false) {
		t.Fatal("first pages refused")
	}
	if push(4, "four-b", false, true) {
		t.Fatal("the last page of a snapshot another one's first page replaced was taken")
	}
	expect(t, db, "two", persistence.Version{Gen: 3, Seq: 2})
	if !push(5, "five-b", false, true) {
		t.Fatal("the last page of the current snapshot was refused")
	}
	expect(t, db, "five-b", persistence.Version{Gen: 3, Seq: 5})
}

func newTestReplica(t *testing.T) (*replica, *persistence.DB) {
	t.Helper()
	db, err := persistence.Open(filepath.Join(t.TempDir(), "replica.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return &replica{db: db, records: func(string) []persistence.Range {
		return []persistence.Range{{Kind: "apikey", Prefix: "k", Exact: true}}
	}, log: slog.New(slog.NewTextHandler(io.Discard, nil))}, db
}

func rec(v string) []*pb.Record { return []*pb.Record{{Kind: "apikey", Id: "k", Value: []byte(v)}} }

// expect checks the replica's record apikey/k and its version.
func expect(t *testing.T, db *persistence.DB, val string, ver persistence.Version) {
	t.Helper()
	got, err := db.Get("apikey", "k")
	v, _ := db.Version("apikey/k")
	if err != nil || string(got) != val || v != ver {
		t.Fatalf("the replica holds %q at %v (%v), want %q at %v", got, v, err, val, ver)
	}
}

// TestWriteNeedsItsBase: a write applies only on top of the copy it was
// made on. A replica holding an older activation's unacknowledged writes
// up to seq 3 must not take the newer activation's write 4, made on its
// own seq 3: by seq alone the two copies look alike, and the replica
// would hold a mixture under the newer version.
func TestWriteNeedsItsBase(t *testing.T) {
	r, db := newTestReplica(t)
	base := &pb.Version{} // a grain's first write is made on no copy
	for seq := uint64(1); seq <= 3; seq++ {
		if ack, err := r.write(&pb.Write{Key: "apikey/k", Ver: &pb.Version{Gen: 2, Seq: seq}, Base: base, Records: rec("old lineage")}); err != nil || !ack.Ok {
			t.Fatalf("write 2.%d: %v %v", seq, ack, err)
		}
		base = &pb.Version{Gen: 2, Seq: seq}
	}
	ack, err := r.write(&pb.Write{Key: "apikey/k", Ver: &pb.Version{Gen: 3, Seq: 4}, Base: &pb.Version{Gen: 3, Seq: 3}, Records: rec("new lineage")})
	if err != nil || ack.Ok || !ack.Behind {
		t.Fatalf("a write on another copy: %v %v; want behind", ack, err)
	}
	expect(t, db, "old lineage", persistence.Version{Gen: 2, Seq: 3})
	// The first write of a new activation, on the copy it pulled: applied.
	ack, err = r.write(&pb.Write{Key: "apikey/k", Ver: &pb.Version{Gen: 3, Seq: 4}, Base: &pb.Version{Gen: 2, Seq: 3}, Records: rec("next")})
	if err != nil || !ack.Ok {
		t.Fatalf("a write on the copy held: %v %v", ack, err)
	}
	expect(t, db, "next", persistence.Version{Gen: 3, Seq: 4})
}

// TestInstallRacingWrites: copies pulled outside the replica actor (a
// catch-up) are installed while the actor applies writes; the copy's
// version never goes back and the last write is what it holds.
func TestInstallRacingWrites(t *testing.T) {
	r, db := newTestReplica(t)
	const writes = 300
	done := make(chan struct{})
	go func() {
		defer close(done)
		for seq := uint64(1); seq <= writes; seq++ {
			base := &pb.Version{Gen: 1, Seq: seq - 1}
			if seq == 1 {
				base = &pb.Version{} // made on no copy
			}
			ack, err := r.write(&pb.Write{Key: "apikey/k", Ver: &pb.Version{Gen: 1, Seq: seq}, Base: base, Records: rec(fmt.Sprint(seq))})
			if err != nil || !ack.Ok {
				t.Errorf("write %d: %v %v", seq, ack, err)
				return
			}
		}
	}()
	last := persistence.Version{}
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		have, _ := db.Version("apikey/k")
		if have.Less(last) {
			t.Fatalf("the version went back from %v to %v", last, have)
		}
		last = have
		// A peer's copy one write behind what this replica holds now.
		if have.Seq > 1 {
			old := persistence.Version{Gen: 1, Seq: have.Seq - 1}
			if _, err := install(db, r.records, "apikey/k", old, toPuts(rec(fmt.Sprint(old.Seq)))); err != nil {
				t.Fatal(err)
			}
		}
	}
	expect(t, db, fmt.Sprint(writes), persistence.Version{Gen: 1, Seq: writes})
}
