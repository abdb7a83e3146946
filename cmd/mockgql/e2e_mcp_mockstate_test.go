package main

import (
	"testing"
)

// TestMCPMockStates: save_mock_state, list_mock_states, restore_mock_state
// and delete_mock_state manage the session project's named states, and
// run_query's sandbox takes <sandbox>@<state>, against a real mockgql
// serve process.
func TestMCPMockStates(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	p := startProc(t, t.TempDir(), freePort(t))
	seedPool(t, p.server)
	a := newAgent(t, mcpConnect(t, p.base))
	b := buildShop(t, a)
	s := b.session
	total := func(sandbox string) float64 {
		t.Helper()
		args := map[string]any{"session": s, "query": `{ products { total } }`}
		if sandbox != "" {
			args["sandbox"] = sandbox
		}
		return get(a.must("run_query", args), "data", "products", "total").(float64)
	}
	base := total("")
	for range 2 {
		a.must("run_query", map[string]any{"session": s, "sandbox": "setup", "query": `mutation { createProduct(input: {name: "in the state"}) { id } }`})
	}
	saved := a.must("save_mock_state", map[string]any{"session": s, "name": "two-more", "sandbox": "setup"})
	if saved["changedRows"] != 2.0 {
		t.Fatalf("save_mock_state: %v", saved)
	}
	if got := total("t-1@two-more"); got != base+2 {
		t.Fatalf("t-1 made from the state: %v, want %v", got, base+2)
	}
	if got := total(""); got != base {
		t.Fatalf("the project: %v, want %v", got, base)
	}
	list := a.must("list_mock_states", map[string]any{"session": s})
	if sts := list["states"].([]any); len(sts) != 1 || get(sts[0], "name") != "two-more" || get(sts[0], "changedRows") != 2.0 {
		t.Fatalf("list_mock_states: %v", list)
	}
	a.must("restore_mock_state", map[string]any{"session": s, "name": "two-more"})
	if got := total(""); got != base+2 {
		t.Fatalf("the project restored: %v, want %v", got, base+2)
	}
	a.must("delete_mock_state", map[string]any{"session": s, "name": "two-more"})
	a.refused("NOT_FOUND", "restore_mock_state", map[string]any{"session": s, "name": "two-more"})
	a.refused("BAD_USER_INPUT", "save_mock_state", map[string]any{"session": s, "name": "a b"})
	a.refused("BAD_USER_INPUT", "run_query", map[string]any{"session": s, "sandbox": "t-2@a b", "query": `{ products { total } }`})
}
