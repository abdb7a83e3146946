package contract

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/model"
)

// TestBuild: an entity becomes a table bound to its generated rows, with
// an attribute per field, hidden keys where the schema shows none, and the
// relation Author.books ↔ Book.author held by the book's foreign key.
func TestBuild(t *testing.T) {
	p := planOf(t, "testdata/relay.graphql")
	tables, rels, err := Build("p1", p, &model.Contract{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*model.Table{}
	for _, tb := range tables {
		byName[tb.Name] = tb
	}
	book := byName["Book"]
	if book == nil || !book.Source.Generated || book.Source.ImportCode != model.ContractImportCode("Book") || book.ID != TableID("p1", "Book") {
		t.Fatalf("Book table: %+v", book)
	}
	var names []string
	for _, a := range book.Attributes {
		names = append(names, a.Name+":"+string(a.Type))
	}
	if got := strings.Join(names, " "); got != "id:ID title:STRING isbn:STRING price:FLOAT pages:INT publishedAt:STRING inStock:BOOLEAN genre:STRING __keyauthor:ID" {
		t.Errorf("Book attributes: %s", got)
	}
	found := false
	for _, r := range rels {
		if r.FieldName == "books" && r.InverseFieldName == "author" && r.SourceTableID == byName["Author"].ID &&
			r.TargetTableID == book.ID && r.TargetAttribute == "__keyauthor" && r.Cardinality == model.OneToMany {
			found = true
		}
	}
	if !found {
		t.Errorf("no Author.books ↔ Book.author relation in %+v", rels)
	}
}

// TestBuildBounds: row counts past the bounds and settings of types that
// are not entities are refused, nothing built.
func TestBuildBounds(t *testing.T) {
	p := planOf(t, "testdata/relay.graphql")
	for name, c := range map[string]*model.Contract{
		"table rows":    {Tables: []model.ContractTable{{Type: "Book", Rows: model.MaxContractTableRows + 1}}},
		"set twice":     {Tables: []model.ContractTable{{Type: "Book", Rows: 10}, {Type: "Book", Rows: 1}}},
		"not an entity": {Tables: []model.ContractTable{{Type: "PageInfo", Rows: 1}}},
	} {
		tables, _, err := Build("p1", p, c)
		var me *model.Error
		if !errors.As(err, &me) || tables != nil {
			t.Errorf("%s: %v, %d tables", name, err, len(tables))
		}
	}
}

// TestApplyKeepsIDsAndSettings: importing a new version keeps the table
// IDs (so overlay rows stay), the row counts of entities that remain and
// counts the version; a document that does not parse leaves p as it was.
func TestApplyKeepsIDsAndSettings(t *testing.T) {
	doc, err := os.ReadFile("testdata/relay.graphql")
	if err != nil {
		t.Fatal(err)
	}
	p := &model.Project{ID: "p1"}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := Apply(p, doc, now); err != nil {
		t.Fatal(err)
	}
	first := p.TableByName("Book").ID
	p.Contract.Tables = []model.ContractTable{{Type: "Book", Rows: 5}, {Type: "Author", Rows: 7}}
	v2 := strings.Replace(string(doc), "type Author implements Node {", "type Author implements Node {\n  bio: String", 1)
	if _, err := Apply(p, []byte(v2), now); err != nil {
		t.Fatal(err)
	}
	if p.TableByName("Book").ID != first || p.Contract.Version != 2 || p.Contract.RowsOf("Book") != 5 || p.TableByName("Author").Attribute("bio") == nil {
		t.Fatalf("after a re-import: %+v", p.Contract)
	}
	before := p.Clone()
	if _, err := Apply(p, []byte("type Query {"), now); err == nil || p.Contract.Version != before.Contract.Version || len(p.Tables) != len(before.Tables) {
		t.Fatalf("a bad document changed the project: %v", err)
	}
}

// TestOverride: a mapping changes how a root field is served; a wrong one
// is refused by name and changes nothing.
func TestOverride(t *testing.T) {
	s := schemaOf(t, "testdata/relay.graphql")
	p := Interpret(s)
	ok := model.ContractMapping{Field: "Query.books", Args: []model.ContractArg{{Name: "minPrice", Role: "range", Field: "price", Op: "gt"}}}
	if err := p.Override(s, []model.ContractMapping{ok}); err != nil {
		t.Fatal(err)
	}
	for _, r := range p.Queries {
		for _, a := range r.Args {
			if r.Name == "books" && a.Name == "minPrice" && a.Op != "gt" {
				t.Errorf("minPrice: %+v", a)
			}
		}
	}
	for name, m := range map[string]model.ContractMapping{
		"unknown field":  {Field: "Query.nope"},
		"shape misfit":   {Field: "Query.book", Shape: "list"},
		"unknown entity": {Field: "Query.viewer", Entity: "Nope"},
		"unknown arg":    {Field: "Query.books", Args: []model.ContractArg{{Name: "nope", Role: "eq", Field: "title"}}},
		"unknown column": {Field: "Query.books", Args: []model.ContractArg{{Name: "genre", Role: "eq", Field: "nope"}}},
		"bad range op":   {Field: "Query.books", Args: []model.ContractArg{{Name: "minPrice", Role: "range", Field: "price", Op: "~"}}},
		"bad role":       {Field: "Query.books", Args: []model.ContractArg{{Name: "genre", Role: "magic"}}},
	} {
		before := *p.Queries[3]
		err := p.Override(s, []model.ContractMapping{{Field: "Query.viewer", Shape: "generated"}, m})
		var me *model.Error
		if !errors.As(err, &me) || me.Code != model.CodeBadUserInput || p.Queries[5].Shape == ShapeGenerated || p.Queries[3].Shape != before.Shape {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func schemaOf(t *testing.T, file string) *Schema {
	t.Helper()
	doc, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(doc, MaxDocumentBytes)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
