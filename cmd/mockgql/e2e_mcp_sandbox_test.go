package main

import (
	"testing"
)

// TestMCPSandboxes: run_query runs a document in a sandbox; list_sandboxes,
// reset_sandbox and delete_sandbox manage the session project's
// sandboxes, against a real mockgql serve process.
func TestMCPSandboxes(t *testing.T) {
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
	a.must("run_query", map[string]any{"session": s, "sandbox": "t-1", "query": `mutation { createProduct(input: {name: "only in t-1"}) { id } }`})
	if got := total("t-1"); got != base+1 {
		t.Fatalf("t-1 after its mutation: %v, want %v", got, base+1)
	}
	if got := total(""); got != base {
		t.Fatalf("the project after t-1's mutation: %v, want %v", got, base)
	}
	list := a.must("list_sandboxes", map[string]any{"session": s})
	if sbs := list["sandboxes"].([]any); len(sbs) != 1 || get(sbs[0], "name") != "t-1" || get(sbs[0], "changedRows") != 1.0 {
		t.Fatalf("list_sandboxes: %v", list)
	}
	a.must("reset_sandbox", map[string]any{"session": s, "sandbox": "t-1"})
	if got := total("t-1"); got != base {
		t.Fatalf("t-1 after reset_sandbox: %v, want %v", got, base)
	}
	a.must("delete_sandbox", map[string]any{"session": s, "sandbox": "t-1"})
	if sbs := a.must("list_sandboxes", map[string]any{"session": s})["sandboxes"].([]any); len(sbs) != 0 {
		t.Fatalf("after delete_sandbox: %v", sbs)
	}
	a.refused("NOT_FOUND", "delete_sandbox", map[string]any{"session": s, "sandbox": "t-1"})
	a.refused("BAD_USER_INPUT", "run_query", map[string]any{"session": s, "sandbox": "a b", "query": `{ products { total } }`})
	a.refused("BAD_USER_INPUT", "run_query", map[string]any{"session": s, "sandbox": "t-2", "operation": "products"})
}
