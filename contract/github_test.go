package contract

import (
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"

	"github.com/mockgql/mockgql/model"
)

// githubSchema returns GitHub's public schema (testdata/SOURCES.md).
func githubSchema(t testing.TB) []byte { return gunzip(t, "testdata/github.graphql.gz") }

// TestGitHubSchemaWithinBounds (issue 31 with issue 29): the import's
// structural bounds and the row-value bounds admit GitHub's public
// schema, with room: the numbers are logged. (Its size is over
// MaxDocumentBytes, and it defines two fields of a type twice, which the validator
// refuses: both are issue 29's; here the duplicate is dropped.)
func TestGitHubSchemaWithinBounds(t *testing.T) {
	sd, err := parser.ParseSchemas(validator.Prelude, &ast.Source{Name: "github.graphql", Input: string(githubSchema(t))})
	if err != nil {
		t.Fatal(err)
	}
	if err := checkDocument(sd); err != nil {
		t.Fatalf("GitHub's schema over a structural bound: %v", err)
	}
	dropped := 0
	for _, d := range sd.Definitions {
		seen := map[string]bool{}
		kept := d.Fields[:0]
		for _, f := range d.Fields {
			if !seen[f.Name] {
				kept = append(kept, f)
			}
			seen[f.Name] = true
		}
		dropped += len(d.Fields) - len(kept)
		d.Fields = kept
	}
	s, err := validator.ValidateSchemaDocument(sd)
	if err != nil || dropped != 2 {
		t.Fatalf("validating with %d duplicate fields dropped: %v", dropped, err)
	}
	plan := Interpret(&Schema{AST: s})
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
	t.Logf("%d entities; the widest row holds %d values (bound %d); %d rows of each hold %d (bound %d)",
		len(plan.Entities), most, MaxRowCells, model.DefaultContractRows, total, MaxProjectCells)
}
