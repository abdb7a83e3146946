package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/internal/testdata"
)

// TestContractGraphQLJS runs the Node test kit (testdata/js/contract.mjs,
// graphql-js) against a real node for every schema of contract/testdata
// and graphql/testdata/contract/features.graphql,
// each imported into its own project through the management API: the
// runtime's introspection prints as the document; every root field answers
// a generated query with values that conform to the schema, the same bytes
// twice, and rows for lists; a created row appears in its list.
func TestContractGraphQLJS(t *testing.T) {
	js := filepath.Join("testdata", "js")
	testdata.RequireNodeModule(t, js, "graphql")
	dir := testdata.Dir(t, "../contract/testdata")
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	// The runtime's own schema of every construct it serves exactly.
	files = append(files, filepath.Join(testdata.Dir(t, "../graphql/testdata/contract"), "features.graphql"))
	s := startServer(t)
	u := s.signUp("contract-js@example.com")
	u.must(`mutation { setPlan(plan: TEAM) { plan } }`, nil)
	checked := 0
	for _, file := range files {
		if !strings.HasSuffix(file, ".graphql") && !strings.HasSuffix(file, ".introspection.json") {
			continue // goldens, licences, SOURCES.md
		}
		checked++
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			doc, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			d := u.must(`mutation($n:String!,$s:String!){ createProject(name:$n, sdl:$s) { id slug contract { report { root name shape entity } } } }`,
				map[string]any{"n": name, "s": string(doc)})
			p := get(d, "createProject").(map[string]any)
			key := get(u.must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"js", scope: RUNTIME) { value } }`, map[string]any{"p": p["id"]}), "createApiKey", "value").(string)
			report := filepath.Join(t.TempDir(), "report.json")
			if err := os.WriteFile(report, mustJSON(get(p, "contract", "report")), 0o600); err != nil {
				t.Fatal(err)
			}
			out := testdata.Node(t, js, nil, "contract.mjs", s.base+"/mock/"+p["slug"].(string)+"/graphql", key, file, report)
			if !strings.HasPrefix(string(out), "ok: ") || strings.HasPrefix(string(out), "ok: 0 ") {
				t.Errorf("contract.mjs printed %s", out)
			}
			t.Logf("%s", out)
		})
	}
	if checked < 5 {
		t.Fatalf("checked %d schemas of %s", checked, dir)
	}
}
