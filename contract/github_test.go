package contract

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/mockgql/mockgql/model"
)

// githubSchema returns GitHub's public schema (testdata/SOURCES.md).
func githubSchema(t testing.TB) []byte { return gunzip(t, "testdata/github.graphql.gz") }

// TestGitHubSchemaWithinBounds (issues 29 and 31): GitHub's public
// schema, 1.2 MB of SDL that defines two fields of EnterpriseOwnerInfo
// twice with the same signature, parses whole within the byte, structural
// and row-value bounds, with room: the numbers are logged, with the time
// and heap of the parse (never asserted).
func TestGitHubSchemaWithinBounds(t *testing.T) {
	doc := githubSchema(t)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	s, err := Parse(doc, MaxDocumentBytes)
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatalf("GitHub's schema: %v", err)
	}
	plan := Interpret(s)
	if err := plan.CheckCells((&model.Contract{}).GeneratedRows); err != nil {
		t.Fatalf("GitHub's schema over a row-value bound: %v", err)
	}
	most, total := 0, 0
	for _, e := range plan.Entities {
		c := plan.RowCells(e)
		most, total = max(most, c), total+c*model.DefaultContractRows
	}
	if most == 0 || len(plan.Entities) < 100 {
		t.Fatalf("%d entities, the widest row %d values: not GitHub's schema", len(plan.Entities), most)
	}
	t.Logf("%d bytes parsed in %v, %d MiB allocated; %d entities; the widest row holds %d values (bound %d); %d rows of each hold %d (bound %d)",
		len(doc), took, (after.TotalAlloc-before.TotalAlloc)>>20, len(plan.Entities), most, MaxRowCells, model.DefaultContractRows, total, MaxProjectCells)
}

// TestGitHubSchemaServedExactly: every type of GitHub's document is in the
// parsed schema with exactly the document's fields, in its order, each
// of the document's type; the repeated EnterpriseOwnerInfo fields once.
func TestGitHubSchemaServedExactly(t *testing.T) {
	doc := githubSchema(t)
	raw, err := parser.ParseSchema(&ast.Source{Name: "github.graphql", Input: string(doc)})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(doc, MaxDocumentBytes)
	if err != nil {
		t.Fatal(err)
	}
	types, fields := 0, 0
	for _, d := range raw.Definitions {
		got := s.AST.Types[d.Name]
		if got == nil || got.Kind != d.Kind {
			t.Errorf("type %s (%s): %v", d.Name, d.Kind, got)
			continue
		}
		types++
		var want []string
		seen := map[string]bool{}
		for _, f := range d.Fields {
			if !seen[f.Name] {
				want = append(want, f.Name+": "+f.Type.String())
			}
			seen[f.Name] = true
		}
		var have []string
		for _, f := range got.Fields {
			if !strings.HasPrefix(f.Name, "__") {
				have = append(have, f.Name+": "+f.Type.String())
			}
		}
		if strings.Join(have, ", ") != strings.Join(want, ", ") {
			t.Errorf("type %s: fields\n%v\nwant\n%v", d.Name, have, want)
		}
		fields += len(want)
	}
	if types < 1600 || fields < 7000 {
		t.Fatalf("%d types, %d fields: not GitHub's schema", types, fields)
	}
	n := 0
	for _, f := range s.AST.Types["EnterpriseOwnerInfo"].Fields {
		if f.Name == "repositoryDeployKeySetting" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("EnterpriseOwnerInfo.repositoryDeployKeySetting defined %d times", n)
	}
}
