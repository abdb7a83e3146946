package graphql

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/formatter"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/internal/testdata"
)

// introspectionQuery is graphql-js getIntrospectionQuery with every
// option GraphiQL enables (descriptions, specifiedByURL, isRepeatable,
// schema description, deprecated arguments and input fields).
func introspectionQuery(tb testing.TB) string {
	tb.Helper()
	b, err := os.ReadFile("testdata/contract/introspection_query.txt")
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// formatSDL prints a schema as the gqlparser formatter does.
func formatSDL(tb testing.TB, s *ast.Schema) string {
	tb.Helper()
	var b strings.Builder
	formatter.NewFormatter(&b, formatter.WithIndent("  ")).FormatSchema(s)
	return b.String()
}

// TestContractIntrospection: introspection of the runtime, read back as a
// schema, is the document: every type, field, argument with its default,
// enum value, interface (on interfaces too), union, input, custom scalar
// with @specifiedBy, description, deprecation, directive definition and
// root type name.
func TestContractIntrospection(t *testing.T) {
	for _, f := range contractSchemas(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			h := newContractHarness(t, f)
			res := h.raw(introspectionQuery(t), nil)
			back, err := contract.Parse(res, contract.MaxDocumentBytes)
			if err != nil {
				t.Fatalf("the introspection result does not read back: %v\n%s", err, res)
			}
			doc, err := gqlparser.LoadSchema(&ast.Source{Name: "doc", Input: contractProject(t, f).Contract.Document})
			if err != nil {
				t.Fatal(err)
			}
			dropApplied(doc)
			if got, want := formatSDL(t, back.AST), formatSDL(t, doc); got != want {
				t.Errorf("introspection differs from the document\n--- got\n%s\n--- want\n%s", got, want)
			}
		})
	}
}

// TestContractIntrospectionGraphQLJS: graphql-js builds a client schema
// from the runtime's introspection that prints as the document does
// (printSchema of buildSchema).
func TestContractIntrospectionGraphQLJS(t *testing.T) {
	testdata.RequireNodeModule(t, graphqlJSDir, "graphql")
	for _, f := range contractSchemas(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			h := newContractHarness(t, f)
			res := h.raw(introspectionQuery(t), nil)
			got := testdata.Node(t, graphqlJSDir, res, "check.mjs", "check")
			want := testdata.Node(t, graphqlJSDir, []byte(contractProject(t, f).Contract.Document), "check.mjs", "sdl")
			if !bytes.Equal(got, want) {
				t.Errorf("printSchema differs\n--- runtime\n%s\n--- document\n%s", got, want)
			}
		})
	}
}

// TestContractRootFields: every root field answers a generated query
// (scalars to depth 2, fragments on every possible type of interfaces and
// unions) without errors, with values that conform to the schema, and
// the same bytes twice.
func TestContractRootFields(t *testing.T) {
	for _, f := range contractSchemas(t) {
		h := newContractHarness(t, f)
		s := h.rt.Schema()
		for _, fd := range s.Query.Fields {
			if strings.HasPrefix(fd.Name, "__") {
				continue
			}
			t.Run(filepath.Base(f)+"/"+fd.Name, func(t *testing.T) {
				q := "{ " + fieldQuery(h, s, fd, 0) + " }"
				first := h.raw(q, nil)
				if second := h.raw(q, nil); !bytes.Equal(first, second) {
					t.Fatalf("%s: two answers\n%s\n%s", q, first, second)
				}
				checkAnswer(t, s, s.Query, q, first)
			})
		}
	}
}

// checkAnswer fails t when body has errors or a value of data does not
// conform to the schema.
func checkAnswer(t *testing.T, s *ast.Schema, root *ast.Definition, q string, body []byte) {
	t.Helper()
	var res struct {
		Data   map[string]any `json:"data"`
		Errors []any          `json:"errors"`
	}
	if err := json.Unmarshal(body, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 || res.Data == nil {
		t.Fatalf("%s: %s", q, body)
	}
	if err := conforms(s, root, res.Data, "data"); err != "" {
		t.Fatalf("%s: %s\n%s", q, err, body)
	}
}

// dropApplied removes the directives applied in the schema that
// introspection does not carry (all but @deprecated and @specifiedBy).
func dropApplied(s *ast.Schema) {
	keep := func(l ast.DirectiveList) ast.DirectiveList {
		var out ast.DirectiveList
		for _, d := range l {
			if d.Name == "deprecated" || d.Name == "specifiedBy" {
				out = append(out, d)
			}
		}
		return out
	}
	for _, d := range s.Types {
		d.Directives = keep(d.Directives)
		for _, f := range d.Fields {
			f.Directives = keep(f.Directives)
			for _, a := range f.Arguments {
				a.Directives = keep(a.Directives)
			}
		}
		for _, v := range d.EnumValues {
			v.Directives = keep(v.Directives)
		}
	}
	s.SchemaDirectives = keep(s.SchemaDirectives)
}

// TestContractMutationFields: every mutation answers a generated request
// (keys of existing rows for its key arguments) without errors and with
// values that conform to the schema.
func TestContractMutationFields(t *testing.T) {
	for _, f := range contractSchemas(t) {
		s := newContractHarness(t, f).rt.Schema()
		if s.Mutation == nil {
			continue
		}
		for _, fd := range s.Mutation.Fields {
			t.Run(filepath.Base(f)+"/"+fd.Name, func(t *testing.T) {
				h := newContractHarness(t, f)
				q := "mutation { " + fieldQuery(h, s, fd, 0) + " }"
				checkAnswer(t, s, s.Mutation, q, h.raw(q, nil))
			})
		}
	}
}
