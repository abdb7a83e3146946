package cluster

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mockgql/mockgql/cluster/pb"
	"github.com/mockgql/mockgql/persistence"
)

// gateReplica replaces n's replica actor with its real replica that holds
// every Write until gate is closed (a slow local disk), and reports each
// held one on held.
func gateReplica(t *testing.T, n *Node, gate <-chan struct{}, held chan<- struct{}) {
	t.Helper()
	rep := &replica{db: n.store.db, records: n.store.cfg.Records, log: n.cfg.Logger}
	respawnReplica(t, n, actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*pb.Write); ok {
			select {
			case held <- struct{}{}:
			default:
			}
			<-gate
		}
		rep.Receive(ctx)
	}))
}

// TestClusterReplicasCommitWhileOwnerDoes: the owner's commit and the
// replicas' run at once, so a write waits for the slower of the two, not
// their sum. With the owner's own commit held, both other replicas hold
// the write already; once the owner's commit goes through, the write is
// acknowledged. The owner used to send the write to the replicas only
// after its own commit returned.
func TestClusterReplicasCommitWhileOwnerDoes(t *testing.T) {
	nodes := startNodes(t, 3)
	s := nodes[0].Store()
	s.cfg.Timeout = 20 * time.Second // the held commit does not time out
	if err := s.Acquire("apikey", "k1"); err != nil {
		t.Fatal(err)
	}
	gate, held := make(chan struct{}), make(chan struct{}, 1)
	gateReplica(t, nodes[0], gate, held)
	opened := false
	open := func() {
		if !opened {
			opened = true
			close(gate)
		}
	}
	t.Cleanup(open)
	done := make(chan error, 1)
	go func() { done <- s.Write(persistence.Put{Kind: "apikey", ID: "k1", Value: []byte("v1")}) }()
	<-held
	for _, n := range nodes[1:] {
		waitFor(t, n.store.db, "k1", "v1")
	}
	select {
	case err := <-done:
		t.Fatalf("the write was acknowledged before the owner's own commit: %v", err)
	default:
	}
	open()
	if err := <-done; err != nil {
		t.Fatalf("the write: %v", err)
	}
	if v, err := s.db.Get("apikey", "k1"); err != nil || string(v) != "v1" {
		t.Fatalf("the owner's copy after the acknowledgement: %q %v", v, err)
	}
}

// waitFor waits, a few seconds at most, until db holds val under apikey/id.
func waitFor(t *testing.T, db *persistence.DB, id, val string) {
	t.Helper()
	for i := 0; i < 500; i++ {
		if v, err := db.Get("apikey", id); err == nil && string(v) == val {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	v, err := db.Get("apikey", id)
	t.Fatalf("the replica holds %q (%v), want %q", v, err, val)
}

// TestClusterFailedOwnCommitIsNotReused: the owner's commit failed while
// the replicas took the write (they run at once), so the write is not
// acknowledged but the replicas hold it. The owner's next write must not
// reuse that version: the replicas would take it for a retry of the write
// they hold, acknowledge it and keep the failed write's records instead.
// They must end up holding the owner's copy, with the new write.
func TestClusterFailedOwnCommitIsNotReused(t *testing.T) {
	nodes := startNodes(t, 3)
	s := nodes[0].Store()
	s.cfg.Timeout = 20 * time.Second // every replica answers, however loaded the machine
	if err := s.Acquire("apikey", "k1"); err != nil {
		t.Fatal(err)
	}
	put := func(v string) persistence.Put { return persistence.Put{Kind: "apikey", ID: "k1", Value: []byte(v)} }
	if err := s.Write(put("v1")); err != nil {
		t.Fatal(err)
	}
	var failing atomic.Bool
	failing.Store(true)
	failOwnWrites(t, nodes[0], &failing)
	if err := s.Write(put("lost")); err == nil {
		t.Fatal("a write whose owner's commit failed was acknowledged")
	}
	for _, n := range nodes[1:] {
		waitFor(t, n.store.db, "k1", "lost") // the precondition: the replicas took it
	}
	failing.Store(false)
	if err := s.Write(put("v2")); err != nil {
		t.Fatalf("the next write: %v", err)
	}
	for _, n := range nodes {
		waitFor(t, n.store.db, "k1", "v2")
	}
}

// failOwnWrites replaces n's replica actor with its real replica that
// answers every Write with a failure, without applying it, while failing
// is set (a local disk refusing writes).
func failOwnWrites(t *testing.T, n *Node, failing *atomic.Bool) {
	t.Helper()
	rep := &replica{db: n.store.db, records: n.store.cfg.Records, log: n.cfg.Logger}
	respawnReplica(t, n, actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*pb.Write); ok && failing.Load() {
			ctx.Respond(&pb.WriteAck{})
			return
		}
		rep.Receive(ctx)
	}))
}

// respawnReplica replaces n's replica actor with props.
func respawnReplica(t *testing.T, n *Node, props *actor.Props) {
	t.Helper()
	pid := actor.NewPID(n.system.Address(), replicaName)
	if err := n.system.Root.StopFuture(pid).Wait(); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		if _, err := n.system.Root.SpawnNamed(props, replicaName); err == nil {
			return
		}
		if i > 100 {
			t.Fatal("respawn the replica")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
