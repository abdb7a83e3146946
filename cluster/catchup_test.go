package cluster

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/memberlist"

	"github.com/mockgql/mockgql/persistence"
)

// startOn starts a node over the bbolt file at path, joining join.
func startOn(t *testing.T, name, path string, join ...string) (*Node, *persistence.DB) {
	t.Helper()
	db, err := persistence.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := Start(Config{NodeName: name, Bind: "127.0.0.1:0", Join: join, DB: db,
		Logger: slog.New(slog.DiscardHandler), RequestTimeout: 2 * time.Second,
		Store: StoreConfig{Replicas: 3, Timeout: time.Second, Records: func(key string) []persistence.Range {
			kind, id, _ := strings.Cut(key, "/")
			return []persistence.Range{{Kind: kind, Prefix: id, Exact: true}}
		}},
		Tune: func(c *memberlist.Config) {
			c.ProbeInterval, c.ProbeTimeout, c.GossipInterval = 200*time.Millisecond, 100*time.Millisecond, 50*time.Millisecond
		}})
	if err != nil {
		_ = db.Close()
		t.Fatal(err)
	}
	return n, db
}

// waitMembers waits (bounded) until every node sees count members.
func waitMembers(t *testing.T, count int, nodes ...*Node) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for _, n := range nodes {
		for n.Members() != count {
			if time.Now().After(deadline) {
				t.Fatalf("%s sees %d members, want %d", n.cfg.NodeName, n.Members(), count)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// TestClusterRestartedNodeCatchesUp: a node is down while its peers write
// (a majority holds the writes without it); it restarts on its own file and
// catches up, and its store — inspected directly — holds the newest
// records and version of every grain, the deletions included. A catch-up
// goes on without one silent member (a majority of every write's replicas
// answered) and fails without two, so the node does not serve.
func TestClusterRestartedNodeCatchesUp(t *testing.T) {
	dir := t.TempDir()
	a, dba := startOn(t, "a", filepath.Join(dir, "a.db"))
	defer func() { a.Stop(false); _ = dba.Close() }()
	b, dbb := startOn(t, "b", filepath.Join(dir, "b.db"), a.Addr())
	defer func() { b.Stop(false); _ = dbb.Close() }()
	c, dbc := startOn(t, "c", filepath.Join(dir, "c.db"), a.Addr())
	waitMembers(t, 3, a, b, c)
	sa := a.Store()
	write := func(id, v string) {
		t.Helper()
		var val []byte
		if v != "" {
			val = []byte(v)
		}
		if err := sa.Write(persistence.Put{Kind: "apikey", ID: id, Value: val}); err != nil {
			t.Fatalf("write %s: %v", id, err)
		}
	}
	for i := range 5 {
		write(fmt.Sprintf("k%d", i), "before")
	}
	c.Stop(true)
	_ = dbc.Close()
	waitMembers(t, 2, a, b)
	for i := range 5 {
		write(fmt.Sprintf("k%d", i), "after") // c misses these
	}
	write("k0", "") // and this deletion
	write("k9", "new")

	c, dbc = startOn(t, "c", filepath.Join(dir, "c.db"), a.Addr())
	defer func() { c.Stop(false); _ = dbc.Close() }()
	waitMembers(t, 3, a, b, c)
	if err := c.CatchUp(2); err != nil {
		t.Fatalf("catch-up: %v", err)
	}
	for i := range 10 {
		id := fmt.Sprintf("k%d", i)
		want, _ := dba.Get("apikey", id)
		got, err := dbc.Get("apikey", id)
		if err != nil || string(got) != string(want) {
			t.Errorf("after catch-up c holds %s = %q (%v), a %q", id, got, err, want)
		}
		key, _ := sa.cfg.KeyOf("apikey", id)
		va, _ := dba.Version(key)
		vc, _ := dbc.Version(key)
		if va != vc {
			t.Errorf("%s: c's version %v, a's %v", key, vc, va)
		}
	}
	// One member does not answer (the previous process of a node that
	// just restarted, still listed): every acknowledged write c lacks is
	// on a majority without c, so the other member holds it. Two do not
	// answer: the catch-up fails, and the node would not serve.
	silenceReplica(t, c) // c misses this write (a and b hold it)
	write("k9", "newer")
	silenceReplica(t, b)
	if err := c.CatchUp(2); err != nil {
		t.Fatalf("a catch-up that one of two members answered: %v", err)
	}
	if got, _ := dbc.Get("apikey", "k9"); string(got) != "newer" {
		t.Fatalf("after a catch-up without b, c holds k9 = %q, want %q", got, "newer")
	}
	silenceReplica(t, a)
	if err := c.CatchUp(2); err == nil {
		t.Fatal("a catch-up that no member answered succeeded")
	}
}
