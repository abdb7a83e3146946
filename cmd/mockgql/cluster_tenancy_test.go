package main

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// TestClusterPlanCaps: the plan caps hold when parallel requests for one
// account arrive at every node of a cluster: the account's one grain
// counts them all (30 uploads across three nodes on a plan of 4 datasets
// store 4; 24 createProject on a plan of 5 make 5).
func TestClusterPlanCaps(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three processes")
	}
	tr := startTrio(t, "--plan-datasets 4,4,4,0", "--plan-projects 5,5,5,0")
	u := tr.procs[0].server.signUp("cluster-caps@example.com")
	on := func(i int) *user { return u.on(tr.procs[i%3].server) }
	got := parallel(30, func(i int) string {
		return answerOf(on(i).upload(fmt.Sprintf("d%02d", i), []byte(`[{"id":1}]`)))
	})
	if got["ok"] != 4 || got["LIMIT_REACHED"] != 26 {
		t.Fatalf("uploads across the nodes: %v; want 4 ok, 26 LIMIT_REACHED", got)
	}
	got = parallel(24, func(i int) string {
		b, _ := json.Marshal(map[string]any{"query": `mutation($n:String!){ createProject(name:$n) { id } }`, "variables": map[string]any{"n": fmt.Sprint("p", i)}})
		return answerOf(tr.procs[i%3].server.try("POST", "/graphql", b, "Authorization", "Bearer "+u.token))
	})
	if got["ok"] != 5 || got["LIMIT_REACHED"] != 19 {
		t.Fatalf("createProject across the nodes: %v; want 5 ok, 19 LIMIT_REACHED", got)
	}
	// Every node holds the catalog; a node the writes reached last may
	// list them a moment later (bounded retries).
	for i := range 3 {
		for try := 0; ; try++ {
			n := on(i).ownDatasets(t)
			if n == 4 {
				break
			}
			if n > 4 || try == 50 {
				t.Fatalf("node %d lists %d own datasets, want 4", i+1, n)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}
