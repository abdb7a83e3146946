package main

import (
	"testing"
	"time"
)

// TestClusterMockStateFailover: a named state is an acknowledged write of
// its project's grain: saved through a node without the grain, it is
// listed and starts sandboxes on the survivors after the grain's node is
// SIGKILLed.
func TestClusterMockStateFailover(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	if testing.Short() {
		t.Skip("starts and kills three processes")
	}
	tr := startTrio(t)
	before := tr.projectActivations(t)
	sh := newShop(t, tr.procs[0].server, "state-cluster@example.com", "stc")
	owner := risen(t, "the project", before, tr.projectActivations(t))
	onNode := func(i int) *shop { // the shop and its owner's management calls through node i
		c := sh.on(tr.procs[i].server)
		c.owner = sh.owner.on(tr.procs[i].server)
		return c
	}
	other := onNode((owner + 1) % 3)
	want, ok := sandboxWork(t, newSandboxClient(other, "prep"), 2)
	if !ok {
		t.FailNow()
	}
	other.owner.must(`mutation($p:ID!){ saveMockState(projectId:$p, name:"cart", sandbox:"prep") { name } }`, map[string]any{"p": sh.project["id"]})
	tr.killAndWait(t, owner)

	for _, node := range []int{(owner + 1) % 3, (owner + 2) % 3} {
		c := newSandboxClient(onNode(node), "fresh@cart")
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Millisecond) {
			r, err := c.post(`{ products(pageSize: 1000) { total } }`, nil)
			if err == nil && r.Status == 200 && r.JSON["errors"] == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("node %d after the failover: %v %d %s", node+1, err, r.Status, r.Raw)
			}
		}
		if names, _, _ := c.productNames(t); !equal(names, want) {
			t.Fatalf("node %d: a sandbox from the state after the failover: %v, want %v", node+1, names, want)
		}
		if list := stateList(t, onNode(node)); list["cart"] != 5 {
			t.Fatalf("node %d: states after the failover: %v", node+1, list)
		}
	}
}
