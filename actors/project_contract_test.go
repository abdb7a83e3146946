package actors

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/actors/pb"
	"github.com/mockgql/mockgql/model"
)

// contractFixture is a project that serves contract/testdata/relay.graphql.
func contractFixture(t *testing.T) *model.Project {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "contract", "testdata", "relay.graphql"))
	if err != nil {
		t.Fatal(err)
	}
	p := &model.Project{ID: "pContract000001", Slug: "books", Kind: model.KindAccount}
	if _, err := applyEditAt(p, &pb.EditImportContract{Document: string(doc)}, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestContractEdits: the edits of a contract project — a second import
// that read a stale version is CONFLICT; row counts and bindings are
// checked against the document; schema-changing model edits are refused
// with CONFLICT while the others go through.
func TestContractEdits(t *testing.T) {
	p := contractFixture(t)
	if p.Contract == nil || p.Contract.Version != 1 || len(p.Tables) == 0 {
		t.Fatalf("after the first import: %+v", p.Contract)
	}
	rows := func(n int32) *int32 { return &n }
	code := func(s string) *string { return &s }
	for _, tc := range []struct {
		name string
		req  Request
		code model.Code // "" accepted
		says string
	}{
		{"import over a stale version", &pb.EditImportContract{Document: p.Contract.Document, ExpectVersion: 0}, model.CodeConflict, "version 1 meanwhile"},
		{"import of the read version", &pb.EditImportContract{Document: p.Contract.Document, ExpectVersion: 1}, "", ""},
		{"rows", &pb.EditSetContractTable{Type: "Book", Rows: rows(7)}, "", ""},
		{"rows out of bounds", &pb.EditSetContractTable{Type: "Book", Rows: rows(model.MaxContractTableRows + 1)}, model.CodeBadUserInput, "rows must be 0 to"},
		{"rows of no entity", &pb.EditSetContractTable{Type: "PageInfo", Rows: rows(3)}, model.CodeBadUserInput, "not an object type served as a table"},
		{"binding", &pb.EditSetContractTable{Type: "Author", ImportCode: code("authors")}, "", ""},
		{"mapping", &pb.EditSetContractMapping{Mapping: EncodeDoc(model.ContractMapping{Field: "books", Shape: "connection"})}, "", ""},
		{"mapping that does not fit", &pb.EditSetContractMapping{Mapping: EncodeDoc(model.ContractMapping{Field: "nope"})}, model.CodeBadUserInput, "no such root field"},
		{"create a table", &pb.EditCreateTable{Name: "Extra"}, model.CodeConflict, "import a new version instead"},
		{"rename a table", &pb.EditUpdateTable{TableId: p.Tables[0].ID, Name: code("Other")}, model.CodeConflict, "import a new version instead"},
		{"delete an attribute", &pb.EditDeleteAttribute{AttributeId: p.Tables[0].Attributes[0].ID}, model.CodeConflict, "import a new version instead"},
		{"default operations", &pb.EditGenerateOperations{}, model.CodeConflict, "import a new version instead"},
		{"OpenAPI import", &pb.EditImportTables{}, model.CodeConflict, "import a new version instead"},
		{"rename the project", &pb.EditUpdateProject{Name: code("Renamed")}, "", ""},
		{"faults", &pb.EditSetFaults{}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next := p.Clone()
			_, err := applyEditAt(next, tc.req, time.Unix(60, 0))
			if tc.code == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if model.ErrorCode(err) != tc.code || !strings.Contains(model.ErrorMessage(err), tc.says) {
				t.Fatalf("error %v, want %s saying %q", err, tc.code, tc.says)
			}
		})
	}
}

// TestContractEditsKeepSettings: a new version keeps the row counts,
// bindings and table IDs of the types that remain.
func TestContractEditsKeepSettings(t *testing.T) {
	p := contractFixture(t)
	n := int32(9)
	if _, err := applyEditAt(p, &pb.EditSetContractTable{Type: "Author", Rows: &n}, time.Unix(60, 0)); err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, tb := range p.Tables {
		ids[tb.Name] = tb.ID
	}
	doc := strings.Replace(p.Contract.Document, "  isbn: String\n", "  subtitle: String\n", 1)
	if _, err := applyEditAt(p, &pb.EditImportContract{Document: doc, ExpectVersion: 1}, time.Unix(120, 0)); err != nil {
		t.Fatal(err)
	}
	if p.Contract.Version != 2 || p.Contract.RowsOf("Author") != 9 {
		t.Errorf("after the new version: version %d, Author rows %d", p.Contract.Version, p.Contract.RowsOf("Author"))
	}
	for _, tb := range p.Tables {
		if ids[tb.Name] != tb.ID {
			t.Errorf("table %s: ID %s, was %s", tb.Name, tb.ID, ids[tb.Name])
		}
	}
}
