package cluster

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/memberlist"

	"github.com/mockgql/mockgql/internal/testdata"
)

// listenProvider starts the memberlist side of a provider (no protoactor:
// two protoactor nodes in one process race on grpclog's globals) as node
// name, speaking grain protocol proto, joining join.
func listenProvider(t testing.TB, name string, proto int, log *slog.Logger, join ...string) *provider {
	t.Helper()
	p := newProvider("127.0.0.1", 0, proto, join, func(c *memberlist.Config) {
		c.ProbeInterval, c.ProbeTimeout, c.GossipInterval = 200*time.Millisecond, 100*time.Millisecond, 50*time.Millisecond
	}, log)
	p.self = memberMeta{Cluster: "mockgql", Proto: proto, ID: name, Host: "127.0.0.1", Port: 1, Kinds: []string{"project"}}
	if err := p.listen(name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.ml.Shutdown() })
	if len(join) > 0 {
		_, _ = p.ml.Join(join) // refused or not, the test looks at the member lists
	}
	return p
}

// memberIDs is the member list a provider would give protoactor.
func memberIDs(p *provider) []string {
	var out []string
	for _, m := range p.members() {
		out = append(out, m.Id)
	}
	return out
}

// TestProviderRefusesOtherProtocol: two nodes of different grain protocol
// versions do not form one cluster. Each keeps the other out of its member
// list (so no grain is placed on it), and the refusal is logged once,
// naming both versions. Two nodes of the same version, the control, do
// form one.
func TestProviderRefusesOtherProtocol(t *testing.T) {
	var logs testdata.SyncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	a := listenProvider(t, "node-a", 2, log)
	same := listenProvider(t, "node-same", 2, log, a.Addr())
	other := listenProvider(t, "node-other", 3, log, a.Addr(), same.Addr())

	deadline := time.Now().Add(10 * time.Second)
	for len(memberIDs(a)) != 2 || len(memberIDs(same)) != 2 {
		if time.Now().After(deadline) {
			t.Fatalf("same-version nodes do not see each other: %v, %v", memberIDs(a), memberIDs(same))
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Gossip a while: the refused node keeps trying (its alive messages,
	// its pushes and pulls) and must stay out all along.
	for end := time.Now().Add(time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		for _, p := range []*provider{a, same} {
			if ids := memberIDs(p); len(ids) != 2 || strings.Contains(strings.Join(ids, " "), "node-other") {
				t.Fatalf("%s lists %v", p.self.ID, ids)
			}
			for _, n := range p.ml.Members() {
				if n.Name == "node-other" {
					t.Fatalf("%s's memberlist admitted node-other", p.self.ID)
				}
			}
		}
		if ids := memberIDs(other); len(ids) != 1 || ids[0] != "node-other" {
			t.Fatalf("node-other lists %v", ids)
		}
	}
	out := logs.String()
	if !strings.Contains(out, "another grain protocol version") || !strings.Contains(out, "its_protocol=3") || !strings.Contains(out, "our_protocol=2") {
		t.Fatalf("no log line naming both versions:\n%s", out)
	}
	if n := strings.Count(out, "member=node-other"); n != 2 { // once on each node of version 2
		t.Fatalf("node-other refused in %d log lines, want one per node:\n%s", n, out)
	}
}
