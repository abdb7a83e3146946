package main

import (
	"sort"
	"strings"
	"testing"
)

// stateList is the shop's named states by name, with their changed rows.
func stateList(t *testing.T, sh *shop) map[string]int {
	t.Helper()
	d := sh.owner.must(`query($p:ID!){ mockStates(projectId:$p) { name savedAt changedRows bytes } }`, map[string]any{"p": sh.project["id"]})
	out := map[string]int{}
	for _, s := range get(d, "mockStates").([]any) {
		out[get(s, "name").(string)] = int(get(s, "changedRows").(float64))
	}
	return out
}

// with returns names plus more, sorted.
func with(names []string, more ...string) []string {
	out := append(append([]string{}, names...), more...)
	sort.Strings(out)
	return out
}

// TestMockStates runs named states on a real mockgql serve process: a
// sandbox's data saved as a state (with the project's changes it read
// then), two sandboxes started from it by X-Mock-Sandbox: <name>@<state>
// and changed independently, restores of a sandbox and of the project,
// the list, deletion, and the bounds.
func TestMockStates(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	p := startProc(t, t.TempDir(), freePort(t), "--plan-states 5,2,5,5", "--state-bytes 4000")
	sh := newShop(t, p.server, "states@example.com", "st") // PROFESSIONAL: 2 states
	pid := sh.project["id"]
	create := `mutation($n:String){ createProduct(input:{name:$n}) { id } }`
	plain := newSandboxClient(sh, "")

	// The project's own change, then a sandbox's on top of it.
	d, _ := plain.must(t, create, map[string]any{"n": "project-row"})
	projectRowID := get(d, "createProduct", "id")
	prep := newSandboxClient(sh, "prep")
	if _, ok := sandboxWork(t, prep, 2); !ok {
		t.FailNow()
	}
	saved, _, ok := prep.productNames(t)
	if !ok || !equal(saved, with(nil, "prep-row-0", "prep-row-1", "prep-row-2", "prep-chair", "Lamp", "desk lamp", "project-row")) {
		t.Fatalf("prep: %v", saved)
	}
	st := sh.owner.must(`mutation($p:ID!){ saveMockState(projectId:$p, name:"cart-3", sandbox:"prep") { name changedRows bytes savedAt } }`, map[string]any{"p": pid})
	if get(st, "saveMockState", "changedRows") != 6.0 { // the project's row and the sandbox's five
		t.Fatalf("saveMockState: %v", st)
	}
	// The project moves on: the state keeps the rows as the sandbox read them.
	plain.must(t, `mutation($id:ID!){ deleteProduct(id:$id) { id } }`, map[string]any{"id": projectRowID})

	t.Run("two sandboxes start from the state and change independently", func(t *testing.T) {
		a, b := newSandboxClient(sh, "a@cart-3"), newSandboxClient(sh, "b@cart-3")
		for _, c := range []*sandboxClient{a, b} {
			if names, _, _ := c.productNames(t); !equal(names, saved) {
				t.Fatalf("%s on first use: %v, want %v", c.sandbox, names, saved)
			}
		}
		a.must(t, create, map[string]any{"n": "a-only"})
		b.must(t, create, map[string]any{"n": "b-only"})
		if names, _, _ := a.productNames(t); !equal(names, with(saved, "a-only")) {
			t.Fatalf("a: %v", names)
		}
		if names, _, _ := b.productNames(t); !equal(names, with(saved, "b-only")) {
			t.Fatalf("b: %v", names)
		}
		if names, _, _ := prep.productNames(t); !equal(names, with(saved[:0:0], strings.Split("Lamp,desk lamp,prep-chair,prep-row-0,prep-row-1,prep-row-2", ",")...)) {
			t.Fatalf("prep, which now reads the project's deletion: %v", names)
		}
		if names, _, _ := plain.productNames(t); !equal(names, baseNames) {
			t.Fatalf("without the header: %v", names)
		}
		// Once made, the suffix is ignored: a keeps its own changes.
		if names, _, _ := newSandboxClient(sh, "a@no-such-state").productNames(t); !equal(names, with(saved, "a-only")) {
			t.Fatalf("a with another suffix: %v", names)
		}
		if list := sandboxList(t, sh); list["a"] != 7 || list["b"] != 7 {
			t.Fatalf("sandboxes: %v", list)
		}
	})

	t.Run("restore a sandbox, reset one to a state, restore the project", func(t *testing.T) {
		sh.owner.must(`mutation($p:ID!){ restoreMockState(projectId:$p, name:"cart-3", sandbox:"a") }`, map[string]any{"p": pid})
		if names, _, _ := newSandboxClient(sh, "a").productNames(t); !equal(names, saved) {
			t.Fatalf("a restored: %v", names)
		}
		sh.owner.must(`mutation($p:ID!){ resetMockData(projectId:$p, sandbox:"b", state:"cart-3") }`, map[string]any{"p": pid})
		if names, _, _ := newSandboxClient(sh, "b").productNames(t); !equal(names, saved) {
			t.Fatalf("b reset to the state: %v", names)
		}
		sh.owner.must(`mutation($p:ID!){ restoreMockState(projectId:$p, name:"cart-3") }`, map[string]any{"p": pid})
		if names, _, _ := plain.productNames(t); !equal(names, saved) {
			t.Fatalf("the project restored: %v", names)
		}
		sh.owner.must(`mutation($p:ID!){ resetMockData(projectId:$p) }`, map[string]any{"p": pid})
		if names, _, _ := plain.productNames(t); !equal(names, baseNames) {
			t.Fatalf("the project reset: %v", names)
		}
	})

	t.Run("bounds, names and deletion", func(t *testing.T) {
		sh.owner.must(`mutation($p:ID!){ saveMockState(projectId:$p, name:"empty") { name } }`, map[string]any{"p": pid})
		third := `mutation($p:ID!){ saveMockState(projectId:$p, name:"third") { name } }`
		if r := sh.owner.gql(third, map[string]any{"p": pid}); r.errCode() != "LIMIT_REACHED" {
			t.Fatalf("a third state on PROFESSIONAL (--plan-states 5,2,5,5): %s", r.Raw)
		}
		// A project's API key is held to its account's plan too, not to STARTER's 5.
		if r := sh.s.gql("/graphql", third, map[string]any{"p": pid}, "X-API-Key", sh.mgmtKey); r.errCode() != "LIMIT_REACHED" {
			t.Fatalf("a third state with the MANAGEMENT key: %s", r.Raw)
		}
		sh.owner.must(`mutation($p:ID!){ saveMockState(projectId:$p, name:"empty") { name } }`, map[string]any{"p": pid}) // saved again: replaces
		big := newSandboxClient(sh, "big")
		for i := range 12 {
			big.must(t, create, map[string]any{"n": strings.Repeat("n", 300) + string(rune('a'+i))})
		}
		if r := sh.owner.gql(`mutation($p:ID!){ saveMockState(projectId:$p, name:"empty", sandbox:"big") { name } }`, map[string]any{"p": pid}); r.errCode() != "LIMIT_REACHED" {
			t.Fatalf("a state past --state-bytes 4000: %s", r.Raw)
		}
		if list := stateList(t, sh); len(list) != 2 || list["cart-3"] != 6 || list["empty"] != 0 {
			t.Fatalf("states after the refusals: %v", list)
		}
		for _, q := range []string{`mutation($p:ID!){ saveMockState(projectId:$p, name:"a b") { name } }`,
			`mutation($p:ID!){ restoreMockState(projectId:$p, name:"` + strings.Repeat("x", 65) + `") }`} {
			if r := sh.owner.gql(q, map[string]any{"p": pid}); r.errCode() != "BAD_USER_INPUT" {
				t.Fatalf("%s: %s", q, r.Raw)
			}
		}
		r, err := newSandboxClient(sh, "c@a b").post(`{ products { total } }`, nil)
		if err != nil {
			t.Fatal(err)
		}
		r.refusal(t, 400, "BAD_USER_INPUT")
		r, err = newSandboxClient(sh, "c@missing").post(`{ products { total } }`, nil)
		if err != nil {
			t.Fatal(err)
		}
		r.refusal(t, 404, "NOT_FOUND")
		if _, ok := sandboxList(t, sh)["c"]; ok {
			t.Fatal("a sandbox was made from a state that does not exist")
		}
		sh.owner.must(`mutation($p:ID!){ deleteMockState(projectId:$p, name:"empty") }`, map[string]any{"p": pid})
		if r := sh.owner.gql(`mutation($p:ID!){ deleteMockState(projectId:$p, name:"empty") }`, map[string]any{"p": pid}); r.errCode() != "NOT_FOUND" {
			t.Fatalf("deleting it again: %s", r.Raw)
		}
		if list := stateList(t, sh); len(list) != 1 {
			t.Fatalf("states after the deletion: %v", list)
		}
	})
}

// TestMockStateSurvivesKillNine: a saved state is an acknowledged write:
// SIGKILL and a restart on the same data keep it, and a sandbox starts
// from it.
func TestMockStateSurvivesKillNine(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	data, port := t.TempDir(), freePort(t)
	p := startProc(t, data, port)
	sh := newShop(t, p.server, "state-kill@example.com", "stk")
	want, ok := sandboxWork(t, newSandboxClient(sh, "prep"), 3)
	if !ok {
		t.FailNow()
	}
	sh.owner.must(`mutation($p:ID!){ saveMockState(projectId:$p, name:"kept", sandbox:"prep") { name } }`, map[string]any{"p": sh.project["id"]})
	sh.owner.must(`mutation($p:ID!){ deleteSandbox(projectId:$p, sandbox:"prep") }`, map[string]any{"p": sh.project["id"]})
	p.kill()
	p = startProc(t, data, port)
	sh.s = p.server
	if names, _, _ := newSandboxClient(sh, "fresh@kept").productNames(t); !equal(names, want) {
		t.Fatalf("a sandbox from the state after kill -9: %v, want %v", names, want)
	}
	if list := stateList(t, sh); list["kept"] != 6 {
		t.Fatalf("states after kill -9: %v", list)
	}
}
