package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/mockgql/mockgql/internal/gqlattack"
)

// schemaBudget (-only budget, after docBudget) measures what the import
// bounds of GraphQL schemas (contract/bounds.go, issue 31) admit at their
// worst, each schema on a node of its own: createProject(sdl:) with the
// rows set to the project's bound of generated values, then the first
// runtime call, which compiles the project and generates its rows: the
// node's CPU for each, and how much its peak resident memory grew. The
// documents the bounds refuse are measured too, as refusals.
func schemaBudget(bin, dir string, rep *report) error {
	for i, sc := range []struct {
		name, doc, query string
		rows             int // of Item; 0: the default
		refused          bool
	}{
		{name: "embedded 12 x 12 x 12 (1,885 values a row), 1,300 rows", doc: gqlattack.Embedded(12, 3), rows: 1300, query: `{ items { e { f11 { f11 { f11 } } } } }`},
		{name: "recursive embedding 11 wide (1,597 values a row), 1,500 rows", doc: gqlattack.Recursive(11), rows: 1500, query: `{ items { r { v } } }`},
		{name: "a table of 200 fields, 10,000 rows", doc: gqlattack.Wide(199), rows: 10000, query: `{ items { id f0 } }`},
		{name: "64 interfaces each implementing the earlier ones", doc: gqlattack.Interfaces(64), query: `{ items { id } }`},
		{name: "embedded 3 x 120 (issue 31)", doc: gqlattack.Embedded(120, 3), refused: true},
		{name: "520 interfaces (issue 31)", doc: gqlattack.Interfaces(520), refused: true},
	} {
		srv, err := startMockgql(bin, filepath.Join(dir, fmt.Sprintf("schema-budget-%d", i)), "--ip-limit", "0", "--ip-limit-management", "0")
		if err != nil {
			return err
		}
		err = schemaScenario(srv, i, sc.name, sc.doc, sc.query, sc.rows, sc.refused, rep)
		srv.stop()
		if err != nil {
			return fmt.Errorf("%s: %w", sc.name, err)
		}
	}
	return nil
}

// schemaScenario imports doc into a new project on srv and, unless it is
// refused, runs query on its runtime, adding a note of the costs to rep.
func schemaScenario(srv *mockgql, i int, name, doc, query string, rows int, refused bool, rep *report) error {
	if err := benchAccount(srv); err != nil {
		return err
	}
	time.Sleep(200 * time.Millisecond) // let the start settle before measuring
	cpu, peak := srv.cpu(), srv.peak()
	slug := fmt.Sprintf("budget-%d", i)
	d, err := srv.gql(`mutation($s:String!,$g:String!){ createProject(name: "Budget", slug: $g, sdl: $s) { id } }`, map[string]any{"s": doc, "g": slug})
	if refused {
		if err == nil || !strings.Contains(err.Error(), "LIMIT_REACHED") {
			return fmt.Errorf("want LIMIT_REACHED, got %v", err)
		}
		rep.note("budget: schema %s (%d KB), refused: %.2f CPU s, peak RSS +%d MB", name, len(doc)>>10, (srv.cpu() - cpu).Seconds(), (srv.peak()-peak)>>20)
		return nil
	}
	if err != nil {
		return err
	}
	pid := d["createProject"].(map[string]any)["id"].(string)
	if rows > 0 {
		if _, err := srv.gql(`mutation($p:ID!,$n:Int!){ setContractRows(projectId:$p, type:"Item", rows:$n) { id } }`, map[string]any{"p": pid, "n": rows}); err != nil {
			return err
		}
	}
	d, err = srv.gql(`mutation($p:ID!){ createApiKey(projectId:$p, name:"bench", scope: FULL) { value } }`, map[string]any{"p": pid})
	if err != nil {
		return err
	}
	key := d["createApiKey"].(map[string]any)["value"].(string)
	imported := srv.cpu()
	calls, answer, err := firstAnswer(srv, "/mock/"+slug+"/graphql", query, key)
	if err != nil {
		return err
	}
	if strings.Contains(answer, `"errors"`) {
		return fmt.Errorf("first call: %.300s", answer)
	}
	rep.note("budget: schema %s (%d KB): import %.2f CPU s, first answer %.2f CPU s (%d calls); peak RSS +%d MB",
		name, len(doc)>>10, (imported - cpu).Seconds(), (srv.cpu() - imported).Seconds(), calls, (srv.peak()-peak)>>20)
	return nil
}

// firstAnswer calls the runtime until it answers (a compile past the
// query timeout answers 503 QUERY_TIMEOUT while it finishes), at most ten
// times; it returns the calls made and the answer.
func firstAnswer(srv *mockgql, path, query, key string) (int, string, error) {
	var err error
	for n := 1; n <= 10; n++ {
		var answer string
		if answer, err = srv.post(path, fmt.Sprintf(`{"query":%q}`, query), "X-API-Key", key); err == nil {
			return n, answer, nil
		}
		if !strings.Contains(err.Error(), "QUERY_TIMEOUT") {
			return n, "", err
		}
	}
	return 10, "", err
}
