package contract

import (
	"os"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// relaySchema parses testdata/relay.graphql.
func relaySchema(t *testing.T) *Schema {
	t.Helper()
	doc, err := os.ReadFile("testdata/relay.graphql")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(doc, MaxDocumentBytes)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCheckMapping: a mapping that fits the schema is accepted with its
// field named in full; one Override refuses, or one that would store more
// than it needs, is BAD_USER_INPUT naming what is wrong.
func TestCheckMapping(t *testing.T) {
	s := relaySchema(t)
	for _, tc := range []struct {
		name  string
		m     model.ContractMapping
		field string // the checked mapping's Field, when accepted
		says  string // the refusal's words, when refused
	}{
		{"bare query name", model.ContractMapping{Field: "books", Shape: "connection"}, "Query.books", ""},
		{"argument roles", model.ContractMapping{Field: "Query.books", Args: []model.ContractArg{
			{Name: "minPrice", Role: "range", Field: "price", Op: "gte"}, {Name: "genre", Role: "ignored"}}}, "Query.books", ""},
		{"filter dialect", model.ContractMapping{Field: "books", Args: []model.ContractArg{{Name: "orderBy", Role: "filter", Op: "prisma"}}}, "Query.books", ""},
		{"unknown field", model.ContractMapping{Field: "Query.nope"}, "", "no such root field"},
		{"unknown role", model.ContractMapping{Field: "books", Args: []model.ContractArg{{Name: "genre", Role: "like"}}}, "", `unknown role "like"`},
		{"field the entity lacks", model.ContractMapping{Field: "books", Args: []model.ContractArg{{Name: "genre", Role: "eq", Field: "colour"}}}, "", `no field "colour"`},
		{"operator of another role", model.ContractMapping{Field: "books", Args: []model.ContractArg{{Name: "first", Role: "relay", Op: "limit"}}}, "", "first, after, last, before"},
		{"an operator where none is taken", model.ContractMapping{Field: "books", Args: []model.ContractArg{{Name: "genre", Role: "ignored", Op: strings.Repeat("x", 1000)}}}, "", "role ignored takes the operator"},
		{"argument twice", model.ContractMapping{Field: "books", Args: []model.ContractArg{{Name: "genre", Role: "ignored"}, {Name: "genre", Role: "ignored"}}}, "", "mapped twice"},
		{"a long field name", model.ContractMapping{Field: "books", Args: []model.ContractArg{{Name: "genre", Role: "sort", Field: strings.Repeat("f", 65)}}}, "", "at most 64 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CheckMapping(s, tc.m)
			if tc.says == "" {
				if err != nil || got.Field != tc.field {
					t.Fatalf("CheckMapping = %+v, %v; want Field %s", got, err, tc.field)
				}
				return
			}
			if model.ErrorCode(err) != model.CodeBadUserInput || !strings.Contains(model.ErrorMessage(err), tc.says) {
				t.Fatalf("CheckMapping error %v, want BAD_USER_INPUT saying %q", err, tc.says)
			}
		})
	}
}

// TestReportMappings: the report shows a mapped field as the mapping says,
// marked mapped, each argument with its role; the others as interpreted.
func TestReportMappings(t *testing.T) {
	s := relaySchema(t)
	plain := Report(s, nil)
	mapped := Report(s, []model.ContractMapping{{Field: "Query.books", Args: []model.ContractArg{{Name: "genre", Role: "ignored"}}}})
	find := func(fields []model.ContractField, name string) model.ContractField {
		for _, f := range fields {
			if f.Name == name && f.Root == model.RootQuery {
				return f
			}
		}
		t.Fatalf("no query %s in the report", name)
		return model.ContractField{}
	}
	before, after := find(plain, "books"), find(mapped, "books")
	if before.Mapped || !after.Mapped || find(mapped, "book").Mapped {
		t.Errorf("mapped flags: before %v, after %v, book %v", before.Mapped, after.Mapped, find(mapped, "book").Mapped)
	}
	if !strings.Contains(before.Description, "genre → equality on genre") || !strings.Contains(after.Description, "accepted, not interpreted: genre") {
		t.Errorf("descriptions:\nbefore %s\nafter  %s", before.Description, after.Description)
	}
	if len(before.Args) == 0 || before.Args[0].Name != "first" || before.Args[0].Role != "relay" || before.Args[0].Op != "first" {
		t.Errorf("books' arguments: %+v", before.Args)
	}
}
