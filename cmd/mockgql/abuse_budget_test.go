package main

// The document and cost budgets (issue 20, findings 1 and 4) replayed
// against a real `mockgql serve` process. Each test fails against the
// code before the budgets: the chains by the time limit of the client or
// the CPU and memory the process spends, the aliases by a 200.

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mockgql/mockgql/internal/gqlattack"
)

// cpuSeconds is the CPU time process pid has used, user and system
// (Linux, at the usual 100 ticks a second).
func cpuSeconds(t testing.TB, pid int) float64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatalf("reading the CPU time: %v", err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]) // the name may hold spaces
	utime, _ := strconv.ParseFloat(f[11], 64)
	stime, _ := strconv.ParseFloat(f[12], 64)
	return (utime + stime) / 100
}

// TestAbuseFragmentChains (finding 1): a chain of 8,000 fragments that
// only spread the next (278 KB), used by the operation or not, sent
// without a credential to /graphql and /public-graphql and with a key to
// the runtime, cost the validator 34 to 52 CPU seconds and up to 1.1 GB
// each; two chains of 5,800 (201 KB) in parallel took a node from 48 MB to
// 1.7 GB. Now each is refused 400 before validation, naming the bound, and
// all of them together, two at a time as well, cost the process a fraction
// of a CPU second and tens of megabytes of peak RSS (mostly the garbage
// collector's headroom, --gc-headroom).
func TestAbuseFragmentChains(t *testing.T) {
	t.Parallel() // node processes only: own ports, data and clock
	p := abuseProc(t)
	sh := newShop(t, p.server, "chains@example.com", "chains")
	surfaces := []struct {
		name, path string
		headers    []string
	}{
		{"management", "/graphql", nil},
		{"public", "/public-graphql", nil},
		{"runtime", sh.runtime, []string{"X-API-Key", sh.fullKey}},
	}
	chain := func(n int, used bool) []byte {
		q := gqlattack.Chain(n, used, "Query", gqlattack.Tail("__typename", n))
		b, _ := json.Marshal(map[string]any{"query": q})
		return b
	}
	for _, s := range surfaces { // warm: the runtime compiles on its first request
		r := p.gql(s.path, "{__typename}", nil, s.headers...)
		r.data(t)
	}
	pid := p.cmd.Process.Pid
	cpu, rss := cpuSeconds(t, pid), vmHWM(t, pid)
	for _, s := range surfaces {
		for _, used := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s used=%v", s.name, used), func(t *testing.T) {
				body := chain(8000, used)
				r, err := p.tryWithin(20*time.Second, "POST", s.path, body, s.headers...)
				if err != nil {
					t.Fatalf("%d KB chain: no answer within 20 s: %v", len(body)>>10, err)
				}
				r.refusal(t, 400, "Bad Request")
				errs := graphqlErrors(t, r)
				msg := fmt.Sprint(get(errs[0], "message"))
				if len(errs) != 1 || !strings.Contains(msg, "over the limit of") && !strings.Contains(msg, "more than the limit of") ||
					get(errs[0], "extensions", "code") != "GRAPHQL_VALIDATION_FAILED" {
					t.Fatalf("want one error naming a bound: %s", r.Raw)
				}
			})
		}
	}
	t.Run("two in parallel", func(t *testing.T) {
		var wg sync.WaitGroup
		answers := make([]string, 4)
		for i := range answers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := p.tryWithin(20*time.Second, "POST", "/public-graphql", chain(5800, i%2 == 0))
				answers[i] = fmt.Sprint(r.Status, " ", err)
			}()
		}
		wg.Wait()
		for _, a := range answers {
			if a != "400 <nil>" {
				t.Fatalf("answers %v; want 400 each", answers)
			}
		}
	})
	usedCPU, grew := cpuSeconds(t, pid)-cpu, vmHWM(t, pid)-rss
	t.Logf("10 chains of 5,800 to 8,000 fragments cost the process %.2f CPU s; its peak RSS grew %d MB", usedCPU, grew>>20)
	if usedCPU > 5 || grew > 128<<20 {
		t.Fatalf("the chains cost %.2f CPU s and %d MB of peak RSS; want under 5 s and 128 MB", usedCPU, grew>>20)
	}
}

// TestAbuseChainUnderDeadline: the largest chain the old validator
// finished quickly, 2,000 fragments, cost it seconds of CPU and hundreds
// of megabytes; under the document budget it is refused in milliseconds.
// The runtime's --query-timeout is 1 s here: the validation it used to
// ignore is now bounded well below it.
func TestAbuseChainUnderDeadline(t *testing.T) {
	t.Parallel() // node processes only: own ports, data and clock
	p := abuseProc(t, "--query-timeout", "1s")
	sh := newShop(t, p.server, "deadline@example.com", "deadline")
	pid := p.cmd.Process.Pid
	cpu, rss := cpuSeconds(t, pid), vmHWM(t, pid)
	for _, used := range []bool{true, false} {
		q := gqlattack.Chain(2000, used, "Query", gqlattack.Tail("__typename", 2000))
		b, _ := json.Marshal(map[string]any{"query": q})
		r, err := p.tryWithin(20*time.Second, "POST", sh.runtime, b, "X-API-Key", sh.fullKey)
		if err != nil {
			t.Fatalf("no answer within 20 s: %v", err)
		}
		r.refusal(t, 400, "Bad Request")
	}
	usedCPU, grew := cpuSeconds(t, pid)-cpu, vmHWM(t, pid)-rss
	t.Logf("two chains of 2,000 fragments cost %.2f CPU s and %d MB of peak RSS", usedCPU, grew>>20)
	if usedCPU > 1 || grew > 48<<20 {
		t.Fatalf("two chains of 2,000 fragments cost %.2f CPU s and %d MB of peak RSS; want under 1 s and 48 MB", usedCPU, grew>>20)
	}
}

// TestAbuseCostBudget (finding 4, the cost half): `{a0:projects{id} …
// a49:projects{id}}` ran 30 s on an account of 2,000 projects, and 300
// aliases of openApiSchemas 33 CPU seconds. Both are now refused 400
// before they run, naming the costliest field; what the board sends
// passes.
func TestAbuseCostBudget(t *testing.T) {
	t.Parallel() // node processes only: own ports, data and clock
	p := abuseProc(t)
	u := p.signUp("cost@example.com")
	u.must(`mutation { createProject(name: "one") { id } }`, nil)
	aliases := func(n int, sel string) string {
		return "{" + repeated(n, " a%d:"+sel) + "}"
	}
	cases := []struct{ name, query, field string }{
		{"50 project lists", aliases(50, "projects{id}"), "projects costs 10"},
		{"300 OpenAPI parses", aliases(300, `openApiSchemas(document:"{\"openapi\":\"3.0.0\"}"){name}`), "openApiSchemas costs 20"},
		{"an sdl per project", "{projects{id sdl requestLog{id}}}", "projects costs 10"},
		{"through fragments", "{...A ...B} fragment A on Query{" + repeated(6, " a%d:projects{id}") + "} fragment B on Query{" + repeated(6, " b%d:projects{name}") + "}", "projects costs 10"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := u.gql(tc.query, nil)
			r.refusal(t, 400, "Bad Request")
			errs := graphqlErrors(t, r)
			msg := fmt.Sprint(get(errs[0], "message"))
			if len(errs) != 1 || !strings.Contains(msg, "the operation costs more than the limit of 100") || !strings.Contains(msg, tc.field) ||
				get(errs[0], "extensions", "code") != "GRAPHQL_VALIDATION_FAILED" {
				t.Fatalf("want one error naming the cost budget and %q: %s", tc.field, r.Raw)
			}
		})
	}
	t.Run("the board's queries pass", func(t *testing.T) {
		u.must(`{ me { email } account { id usage { requests } members { role } } projects { id name slug tables { id } } }`, nil)
		u.must(aliases(9, "projects{id}"), nil)
	})
	t.Run("anonymous too", func(t *testing.T) {
		r := p.gql("/graphql", aliases(50, "projects{id}"), nil)
		r.refusal(t, 400, "Bad Request")
	})
}

// TestAbuseCostBudgetFlag: --max-management-cost moves the budget, and a
// negative value turns it off.
func TestAbuseCostBudgetFlag(t *testing.T) {
	t.Parallel() // node processes only: own ports, data and clock
	p := abuseProc(t, "--max-management-cost", "20")
	u := p.signUp("costflag@example.com")
	u.must(`{ a: projects { id } b: projects { id } }`, nil)
	u.gql(`{ a: projects { id } b: projects { id } c: projects { id } }`, nil).refusal(t, 400, "Bad Request")
	off := abuseProc(t, "--max-management-cost", "-1")
	v := off.signUp("costoff@example.com")
	v.must("{"+repeated(50, " a%d:projects{id}")+"}", nil)
}

// TestAbusePreviewQueryDocument: previewQuery's document is a string of a
// /graphql body (24 MB for a signed-in user), and the service parsed it
// whole to tell a mutation (which needs the right to edit) from a query,
// before the runtime's token bound saw it: a 4 MB document of 2 million
// fields built a syntax tree of hundreds of megabytes. Now the kind is
// read from the tokens, and the runtime refuses the document by its
// token bound.
func TestAbusePreviewQueryDocument(t *testing.T) {
	t.Parallel() // node processes only: own ports, data and clock
	p := abuseProc(t)
	u := p.signUp("preview-doc@example.com")
	pid := get(u.must(`mutation { createProject(name: "big") { id } }`, nil), "createProject", "id")
	doc := "{" + strings.Repeat(" a", 2<<20) + " }"
	pidOS := p.cmd.Process.Pid
	rss := vmHWM(t, pidOS)
	b, _ := json.Marshal(map[string]any{"query": `mutation($p: ID!, $q: String!) { previewQuery(projectId: $p, query: $q) }`,
		"variables": map[string]any{"p": pid, "q": doc}})
	r, err := p.tryWithin(60*time.Second, "POST", "/graphql", b, "Authorization", "Bearer "+u.token)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	grew := vmHWM(t, pidOS) - rss
	t.Logf("a %d MB previewQuery document: %d, peak RSS grew %d MB", len(doc)>>20, r.Status, grew>>20)
	if !strings.Contains(string(r.Raw), "more than the limit of 15000 tokens") {
		t.Fatalf("want the runtime's token bound in the answer: %.400s", r.Raw)
	}
	if grew > 200<<20 {
		t.Fatalf("peak RSS grew %d MB for a %d MB document; want under 200 MB", grew>>20, len(doc)>>20)
	}
}
