package graphql

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/internal/testdata"
	"github.com/mockgql/mockgql/model"
)

// ruleFaults is the test's exec.FieldFaults: rules that fire at every
// position their path matches (model.FieldPathMatches, which the runtime's
// own rules use); the rate, count and sandbox of a rule are the project
// grain's (actors), tested end to end.
type ruleFaults []model.FieldRule

func (rs ruleFaults) FieldFault(root, typ string, names []string) *exec.FieldFault {
	for i := range rs {
		if rs[i].Matches(root, typ, names) {
			ext, _ := rs[i].ExtensionMap()
			return &exec.FieldFault{Code: rs[i].Code, Message: rs[i].ErrorMessage(), Extensions: ext}
		}
	}
	return nil
}

// faultsContractSDL is a contract (imported) schema whose non-null chain
// reaches the root: a failing Book.title nulls data.
const faultsContractSDL = `
type Query {
  books: [Book!]!
  book(id: ID!): Book
  authors: [Author]
}
type Book { id: ID! title: String! price: Float reviews: [Review!] author: Author }
type Review { id: ID! stars: Int! body: String }
type Author { id: ID! name: String books: [Book!] }
`

// TestFieldFaultsGraphQLJS: for table and contract projects and rule paths
// at nullable fields, non-null fields in lists and non-null chains up to
// the root, the runtime's data and errors (message, path, locations,
// extensions) equal graphql-js's execute over the same data with a
// resolver that throws at the rule's positions.
func TestFieldFaultsGraphQLJS(t *testing.T) {
	testdata.RequireNodeModule(t, graphqlJSDir, "graphql")
	table := newRTHarness(t)
	sdlFile := filepath.Join(t.TempDir(), "books.graphql")
	if err := os.WriteFile(sdlFile, []byte(faultsContractSDL), 0o644); err != nil {
		t.Fatal(err)
	}
	books := newContractHarness(t, sdlFile)
	rule := func(path, msg string, code model.Code, ext string) model.FieldRule {
		r := model.FieldRule{Path: path, Message: msg, Code: code, Rate: 1}
		if ext != "" {
			r.Extensions = json.RawMessage(ext)
		}
		return r
	}
	const products = `{ searchProducts(pageSize: 4) { total items { id name price supplier { name } } } }`
	const customers = `{ customers { items { name orders { qty product { name } } } } }`
	for _, tc := range []struct {
		name  string
		h     *rtHarness
		query string
		rules []model.FieldRule
	}{
		{"table nullable field in a list", table, products, []model.FieldRule{rule("Product.price", "price feed down", model.CodeUnavailable, `{"retry":true,"n":2}`)}},
		{"table non-null field in a list", table, products, []model.FieldRule{rule("Product.id", "no id", model.CodeInternal, "")}},
		{"table root field", table, products, []model.FieldRule{rule("Query.searchProducts", "", model.CodeForbidden, "")}},
		{"table path from the root", table, customers, []model.FieldRule{rule("Query.customers.items.orders", "orders down", model.CodeNotFound, "")}},
		{"table any type", table, customers, []model.FieldRule{rule("*.name", "no names", model.CodeInternal, "")}},
		{"table nested object", table, products, []model.FieldRule{rule("Supplier.name", "x", model.CodeInternal, ""), rule("Product.name", "y", model.CodeBadUserInput, "")}},
		{"contract non-null to the root", books, `{ books { id title price } authors { name } }`, []model.FieldRule{rule("Book.title", "no title", model.CodeInternal, "")}},
		{"contract non-null in a nullable list", books, `{ authors { id name books { id title } } }`, []model.FieldRule{rule("Query.authors.books.title", "t", model.CodeNotFound, "")}},
		{"contract non-null item of a nullable list", books, `{ books { id reviews { id stars body } } }`, []model.FieldRule{rule("Review.stars", "s", model.CodeInternal, "")}},
		{"contract nullable root", books, `{ book(id: "BOOK") { id title author { name } } }`, []model.FieldRule{rule("Book.id", "i", model.CodeInternal, "")}},
		{"contract nullable in non-null", books, `{ books { id price author { id name } } }`, []model.FieldRule{rule("Author.id", "a", model.CodeInternal, ""), rule("Book.price", "p", model.CodeConflict, "")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if strings.Contains(tc.query, "BOOK") {
				id := tc.h.do(`{ books { id } }`, nil)["data"].(map[string]any)["books"].([]any)[0].(map[string]any)["id"].(string)
				tc.query = strings.ReplaceAll(tc.query, "BOOK", id)
			}
			var clean struct {
				Data   json.RawMessage `json:"data"`
				Errors []any           `json:"errors"`
			}
			if err := json.Unmarshal(tc.h.raw(tc.query, nil), &clean); err != nil || len(clean.Errors) > 0 {
				t.Fatalf("the answer without faults: %v %v", err, clean.Errors)
			}
			got := tc.h.faulted(tc.query, ruleFaults(tc.rules))
			in, err := json.Marshal(map[string]any{"sdl": tc.h.rt.SDL(), "query": tc.query, "data": clean.Data, "rules": jsRules(tc.rules)})
			if err != nil {
				t.Fatal(err)
			}
			want := testdata.Node(t, graphqlJSDir, in, "faults.mjs")
			var g, w map[string]any
			if json.Unmarshal(got, &g) != nil || json.Unmarshal(want, &w) != nil {
				t.Fatalf("not JSON:\nmockgql   %s\ngraphql-js %s", got, want)
			}
			if w["errors"] == nil {
				t.Fatalf("graphql-js reports no error: the rule matches nothing: %s", want)
			}
			if !reflect.DeepEqual(g, w) {
				t.Fatalf("mockgql and graphql-js differ:\nmockgql    %s\ngraphql-js %s", got, want)
			}
		})
	}
}

// faulted runs the query with the field faults f and returns the answer.
func (h *rtHarness) faulted(query string, f exec.FieldFaults) []byte {
	h.tb.Helper()
	prep, refused := h.rt.Prepare(exec.Request{Query: query})
	if refused != nil {
		h.tb.Fatalf("refused: %s", refused.AppendJSON(nil))
	}
	res, err := h.rt.Query(exec.WithFieldFaults(context.Background(), f), prep, h.pool, h.ov)
	if err != nil {
		h.tb.Fatal(err)
	}
	return res.AppendJSON(nil)
}

// jsRules are the rules as faults.mjs reads them.
func jsRules(rules []model.FieldRule) []map[string]any {
	out := make([]map[string]any, len(rules))
	for i := range rules {
		ext, _ := rules[i].ExtensionMap()
		out[i] = map[string]any{"path": rules[i].Path, "message": rules[i].ErrorMessage(), "code": rules[i].Code, "extensions": ext}
	}
	return out
}
