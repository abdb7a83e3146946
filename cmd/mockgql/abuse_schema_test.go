package main

// The schema-import bounds (issue 31, findings 1 and 3) replayed against
// a real `mockgql serve` process. Each test fails against the code before
// the bounds: the documents were imported (and then cost seconds of CPU
// and gigabytes per runtime call, or seconds of CPU in the validator).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/internal/gqlattack"
)

const importSchemaMutation = `mutation($p:ID!,$s:String!){ importGraphQLSchema(projectId:$p, sdl:$s) { project { contract { version } } } }`

// TestAbuseEmbeddedSchema (finding 1): issue 31's 3.8 KB schema of
// embedded types 120 wide and 3 deep, imported into an anonymous session
// project over /public-graphql (and over MCP), made every runtime call
// cost 24 CPU s and grow the node to 1.2 GB. Now it is refused at import
// with LIMIT_REACHED naming the type and its values, an embedded type
// over the session limit of 30 fields a table is refused too, and the
// widest embedding the bound admits imports and answers six parallel
// first calls within a stated CPU and memory budget.
func TestAbuseEmbeddedSchema(t *testing.T) {
	t.Parallel() // node processes only: own ports, data and clock
	p := abuseProc(t)
	a := &assistant{s: p.server}
	sp := get(a.must(`mutation { createSessionProject(name: "Wide") { projectId runtimeUrl } }`, nil), "createSessionProject").(map[string]any)
	pid := p.cmd.Process.Pid
	cpu, rss := cpuSeconds(t, pid), vmHWM(t, pid)

	r := a.gql(importSchemaMutation, map[string]any{"p": sp["projectId"], "s": gqlattack.Embedded(120, 3)})
	if r.errCode() != "LIMIT_REACHED" || !strings.Contains(string(r.Raw), "type Item holds 1742521 generated values") {
		t.Fatalf("the 3 x 120 schema: %.400s; want LIMIT_REACHED naming Item and its values", r.Raw)
	}
	ag := newAgent(t, mcpConnect(t, p.base))
	ms := ag.must("create_session_project", map[string]any{"name": "Wide"})
	if msg := ag.refused("LIMIT_REACHED", "import_graphql_schema", map[string]any{"session": ms["session"], "sdl": gqlattack.Embedded(120, 3)}); !strings.Contains(msg, "type Item") {
		t.Errorf("MCP's refusal does not name the type: %s", msg)
	}

	// The session limit of 30 fields a table holds the embedded types too.
	r = a.gql(importSchemaMutation, map[string]any{"p": sp["projectId"], "s": gqlattack.Embedded(31, 1)})
	if r.errCode() != "LIMIT_REACHED" || !strings.Contains(string(r.Raw), "type E1 has 31 fields") {
		t.Fatalf("an embedded type of 31 fields in a session project: %.400s; want LIMIT_REACHED naming E1", r.Raw)
	}

	// The widest admitted: 12 x 12 x 12, 1,885 values a row.
	a.must(importSchemaMutation, map[string]any{"p": sp["projectId"], "s": gqlattack.Embedded(12, 3)})
	path := strings.TrimPrefix(sp["runtimeUrl"].(string), p.base)
	var wg sync.WaitGroup
	answers := make([]string, 6)
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := p.gql(path, `{ items { e { f11 { f11 { f11 } } } } }`, nil)
			answers[i] = fmt.Sprintf("%d %d", r.Status, len(fmt.Sprint(r.JSON["errors"])))
		}()
	}
	wg.Wait()
	for _, got := range answers {
		if got != "200 5" { // "<nil>"
			t.Fatalf("six parallel first calls answered %v; want 200 without errors", answers)
		}
	}
	usedCPU, grew := cpuSeconds(t, pid)-cpu, vmHWM(t, pid)-rss
	t.Logf("the refusals, the widest admitted import and six first calls cost %.2f CPU s; peak RSS grew %d MB", usedCPU, grew>>20)
	if usedCPU > 10 || grew > 256<<20 {
		t.Fatalf("they cost %.2f CPU s and %d MB of peak RSS; want under 10 s and 256 MB", usedCPU, grew>>20)
	}
}

// TestAbuseInterfaceSchema (finding 3): 520 interfaces each implementing
// all the earlier ones (915 KB) cost 12 CPU s on the anonymous
// /public-graphql import, 18 on createProject(sdl:) and 6 on
// checkGraphQLSchema, inside the schema library's validation. Now each
// surface refuses it with LIMIT_REACHED naming the first type over the
// bound, before validating, and all of them cost a fraction of that.
func TestAbuseInterfaceSchema(t *testing.T) {
	t.Parallel() // node processes only: own ports, data and clock
	p := abuseProc(t)
	doc := gqlattack.Interfaces(520)
	a := &assistant{s: p.server}
	spID := get(a.must(`mutation { createSessionProject { projectId } }`, nil), "createSessionProject", "projectId")
	u := p.signUp("interfaces@example.com")
	pid := p.cmd.Process.Pid
	cpu := cpuSeconds(t, pid)
	answers := map[string]response{
		"/public-graphql importGraphQLSchema": rawGQL(p.server, "/public-graphql", importSchemaMutation, map[string]any{"p": spID, "s": doc}, "Cookie", a.cookie),
		"createProject(sdl:)":                 rawGQL(p.server, "/graphql", `mutation($s:String!){ createProject(name: "Heavy", sdl: $s) { id } }`, map[string]any{"s": doc}, "Authorization", "Bearer "+u.token),
		"checkGraphQLSchema":                  rawGQL(p.server, "/graphql", `query($s:String!){ checkGraphQLSchema(sdl: $s) { tables } }`, map[string]any{"s": doc}, "Authorization", "Bearer "+u.token),
	}
	for name, r := range answers {
		if r.errCode() != "LIMIT_REACHED" || !strings.Contains(string(r.Raw), fmt.Sprintf("type I65 implements 65 interfaces; a type implements at most %d", contract.MaxTypeInterfaces)) {
			t.Errorf("%s: %.300s; want LIMIT_REACHED naming I65", name, r.Raw)
		}
	}
	used := cpuSeconds(t, pid) - cpu
	// They cost 36 CPU s before the bounds, about 0.15 now without the race
	// detector and 1-2 with it on an idle machine; the bound leaves room
	// for -race on a busy CI machine and still fails the old code.
	t.Logf("three refusals of the 915 KB document cost %.2f CPU s", used)
	if used > 6 {
		t.Fatalf("three refusals cost %.2f CPU s; want under 6", used)
	}
}

// rawGQL is server.gql without encoding/json's escapes of &, < and >, as
// a client that sends the document as written does (the 915 KB document
// holds 135,000 ampersands).
func rawGQL(s *server, path, query string, vars map[string]any, headers ...string) response {
	s.t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"query": query, "variables": vars}); err != nil {
		s.t.Fatal(err)
	}
	return s.do("POST", path, b.Bytes(), headers...)
}
