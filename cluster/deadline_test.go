package cluster

import (
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/persistence"
)

// silenceReplica replaces n's replica actor with one that never answers
// (a replica that hangs: a frozen process, a stuck disk).
func silenceReplica(t *testing.T, n *Node) {
	t.Helper()
	pid := actor.NewPID(n.system.Address(), replicaName)
	if err := n.system.Root.StopFuture(pid).Wait(); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		_, err := n.system.Root.SpawnNamed(actor.PropsFromFunc(func(actor.Context) {}), replicaName)
		if err == nil {
			return
		}
		if i > 100 {
			t.Fatalf("respawn the replica: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestClusterWriteHonoursDeadline: with two of three replicas hung, a write
// cannot find a majority; WriteBy gives up by the request's deadline
// instead of waiting the store's Timeout (here 20 s) per round, three
// rounds. Replication used to wait a fixed RequestFuture timeout whatever
// the request's deadline.
func TestClusterWriteHonoursDeadline(t *testing.T) {
	nodes := startNodes(t, 3)
	s := nodes[0].Store()
	s.cfg.Timeout = 20 * time.Second
	if err := s.Acquire("apikey", "k1"); err != nil {
		t.Fatal(err)
	}
	put := persistence.Put{Kind: "apikey", ID: "k1", Value: []byte("v")}
	if err := s.WriteBy(time.Now().Add(10*time.Second), put); err != nil {
		t.Fatalf("a write with every replica up: %v", err)
	}
	silenceReplica(t, nodes[1])
	silenceReplica(t, nodes[2])
	start := time.Now()
	err := s.WriteBy(time.Now().Add(300*time.Millisecond), put)
	took := time.Since(start)
	if model.ErrorCode(err) != model.CodeUnavailable {
		t.Fatalf("a write without a majority: %v", err)
	}
	// The bound is the store's Timeout, far above the deadline: a write
	// that waited for a replica past its deadline would take at least 20 s.
	if took >= s.cfg.Timeout/2 {
		t.Fatalf("the write took %v; its deadline was 300ms", took)
	}
}
