package cluster

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/memberlist"

	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/persistence"
)

// startNodes starts real nodes on loopback, each with its own bbolt file,
// joined into one cluster, and waits until each sees all. fenced[i], if
// given, is node i's OnFenced.
func startNodes(t *testing.T, count int, fenced ...func()) []*Node {
	t.Helper()
	var nodes []*Node
	for i := range count {
		db, err := persistence.Open(filepath.Join(t.TempDir(), fmt.Sprintf("n%d.db", i)))
		if err != nil {
			t.Fatal(err)
		}
		var join []string
		if i > 0 {
			join = []string{nodes[0].Addr()}
		}
		var onFenced func()
		if i < len(fenced) {
			onFenced = fenced[i]
		}
		n, err := Start(Config{NodeName: fmt.Sprintf("n%d", i), Bind: "127.0.0.1:0", Join: join, DB: db,
			Logger: slog.New(slog.DiscardHandler), RequestTimeout: 2 * time.Second, OnFenced: onFenced,
			Store: StoreConfig{Replicas: 3, Timeout: time.Second},
			Tune: func(c *memberlist.Config) {
				c.ProbeInterval, c.ProbeTimeout, c.GossipInterval = 200*time.Millisecond, 100*time.Millisecond, 50*time.Millisecond
			}})
		if err != nil {
			_ = db.Close()
			t.Fatal(err)
		}
		t.Cleanup(func() { n.Stop(false); _ = db.Close() })
		nodes = append(nodes, n)
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, n := range nodes {
		for n.Members() < count {
			if time.Now().After(deadline) {
				t.Fatalf("%s sees %d members, want %d", n.cfg.NodeName, n.Members(), count)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return nodes
}

// TestClusterStaleActivationCannotWrite: two activations of one grain
// exist at once (a membership disagreement: each node believes it owns
// the grain). The later one acquired a newer generation and wrote; the
// earlier one's writes must now fail, even though its own copy holds the
// newer records. It used to write under the records' generation, on top of
// the newer activation's state, and every replica accepted it: each
// activation overwrote the other's actor-slot grants without a refusal
// anywhere (the over-grant TestClusterPartition reported).
func TestClusterStaleActivationCannotWrite(t *testing.T) {
	nodes := startNodes(t, 2)
	sa, sb := nodes[0].Store(), nodes[1].Store()
	put := func(v string) persistence.Put { return persistence.Put{Kind: "apikey", ID: "k1", Value: []byte(v)} }

	if err := sa.Acquire("apikey", "k1"); err != nil {
		t.Fatalf("first activation: %v", err)
	}
	if err := sa.Write(put("granted by a")); err != nil {
		t.Fatalf("first activation's write: %v", err)
	}
	if err := sb.Acquire("apikey", "k1"); err != nil {
		t.Fatalf("second activation: %v", err)
	}
	if got, _ := sb.Get("apikey", "k1"); string(got) != "granted by a" {
		t.Fatalf("the second activation caught up to %q, want the first one's write", got)
	}
	if err := sb.Write(put("granted by b")); err != nil {
		t.Fatalf("second activation's write: %v", err)
	}
	// Node a holds b's write now (it is one of the grain's replicas).
	if got, _ := sa.Get("apikey", "k1"); string(got) != "granted by b" {
		t.Fatalf("node a holds %q, want the second activation's write", got)
	}
	err := sa.Write(put("stale grant by a"))
	var me *model.Error
	if !errors.As(err, &me) || me.Code != model.CodeUnavailable {
		t.Fatalf("the stale activation's write answered %v, want UNAVAILABLE", err)
	}
	for _, s := range []*Store{sa, sb} {
		if got, _ := s.Get("apikey", "k1"); string(got) != "granted by b" {
			t.Fatalf("a replica holds %q after the stale write, want the second activation's", got)
		}
	}
	// Once released, node a's next activation takes over properly.
	sa.Release("apikey", "k1")
	if err := sa.Acquire("apikey", "k1"); err != nil {
		t.Fatalf("a's new activation: %v", err)
	}
	if err := sa.Write(put("granted by a again")); err != nil {
		t.Fatalf("a's new activation's write: %v", err)
	}
	if err := sb.Write(put("stale grant by b")); err == nil {
		t.Fatal("b's activation, now stale, could still write")
	}
}

// TestClusterDroppedNodeFencesAtOnce: a member dropped a node (its
// protoactor blocked the node's ID, as it does when memberlist reports the
// node dead) while the node itself noticed nothing, as after a partition
// shorter than its own failure detection. protoactor never tells it; the
// node must learn it from the member's memberlist metadata and fence
// itself within about a second, not serve on excluded until protoactor's
// gossip expires 20 s later. The member that dropped it must not fence.
func TestClusterDroppedNodeFencesAtOnce(t *testing.T) {
	var fenced [3]chan struct{}
	var calls []func()
	// Each node's reason when it fenced, for the failure message: node b
	// fenced too once in CI (2026-12-07), for a reason nobody saw.
	var mu sync.Mutex
	var nodes []*Node
	var reasons [3]string
	for i := range fenced {
		fenced[i] = make(chan struct{})
		calls = append(calls, func() {
			mu.Lock()
			if nodes != nil {
				reasons[i] = nodes[i].fenceReason()
			}
			mu.Unlock()
			close(fenced[i])
		})
	}
	started := startNodes(t, 3, calls...)
	mu.Lock()
	nodes = started
	mu.Unlock()
	a, c := nodes[0], nodes[2]
	if by := a.prov.blockedBy(); len(by) > 0 {
		t.Fatalf("before anything happened, node a reads that %v blocked it", by)
	}
	c.cluster.Remote.BlockList().Block(a.system.ID)
	select {
	case <-fenced[0]:
	case <-time.After(10 * time.Second):
		t.Fatalf("node a did not fence within 10 s of being dropped (blocked by %v)", a.prov.blockedBy())
	}
	if why := a.fenceReason(); !strings.Contains(why, c.system.ID) {
		t.Errorf("node a's reason does not name the node that dropped it: %q", why)
	}
	select {
	case <-fenced[1]:
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("node b fenced itself too: %q", reasons[1])
	case <-fenced[2]:
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("node c, which dropped a, fenced itself too: %q", reasons[2])
	case <-time.After(time.Second):
	}
}
