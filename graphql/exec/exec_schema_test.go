package exec

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/model"
)

// testSDL is a small test-only schema that exercises every feature of the
// executor: arguments of every kind, abstract types, non-null fields that
// fail, custom scalars, lazy fields and loose arguments.
const testSDL = `
"A JSON value."
scalar JSON
scalar FilterValue
scalar DateTime @specifiedBy(url: "https://www.rfc-editor.org/rfc/rfc3339")

"""
Sort order.
"""
enum SortDirection { ASC DESC OLD @deprecated(reason: "Use DESC.") }

interface Node { id: ID! }
type Category implements Node { id: ID!  name: String! }
union SearchResult = Product | Category

"A product."
type Product implements Node {
  id: ID!
  name: String
  price: Float
  stock: Int
  available: Boolean
  tags: [String!]
  category: Category
  related: [Product!]!
  "Never set: asking for it nulls the product."
  secret: String!
  meta: JSON
  createdAt: DateTime
  sizes(limit: Int = 3): [Int!]!
  oldName: String @deprecated
}

type ProductPage { items: [Product!]!  total: Int!  page: Int!  pageSize: Int! }

input ProductInput {
  name: String!
  price: Float = 9.5
  tags: [String!]
  direction: SortDirection = DESC
  meta: JSON
  legacy: String @deprecated(reason: "gone")
}

input OneInput @oneOf { a: Int  b: String }

type Query {
  products(page: Int = 1, pageSize: Int = 20, sortDirection: SortDirection = ASC, category: FilterValue): ProductPage!
  product(id: ID!): Product
  node(id: ID!): Node
  search(text: String!): [SearchResult!]!
  echo(i: Int, f: Float, s: String, b: Boolean, id: ID, e: SortDirection, input: ProductInput, ints: [Int!], j: JSON, one: OneInput, nested: [[Int]]): JSON
  loose(page: Int): JSON
  fail(code: String = "NOT_FOUND"): String
  failNonNull: String!
  internal: String
  panics: String
  notReady: [Product!]!
  path: [[String!]!]!
  badInt: Int
  bigInt: Int
  badEnum: SortDirection
  wrongType: Int
  nested: Nested
  sleep: [Int!]!
  oldField(old: Int @deprecated(reason: "no"), kept: Int): Int @deprecated(reason: "Use products.")
}

type Nested { inner: Nested  value: Int  mustFail: String! }

type Mutation {
  createProduct(input: ProductInput!): Product!
  log(entry: String!): [String!]!
}
`

// testProducts returns fresh test data: maps, as the runtime serves rows.
func testProducts() []any {
	cat := map[string]any{"id": "c1", "name": "Tools", "__typename": "Category"}
	out := make([]any, 0, 3)
	for i, name := range []string{"Hammer", "Saw", "Drill"} {
		out = append(out, map[string]any{
			"__typename": "Product",
			"id":         fmt.Sprint(i + 1),
			"name":       name,
			"price":      float64(i) + 9.99,
			"stock":      json.Number(fmt.Sprint(10 * i)),
			"available":  i%2 == 0,
			"tags":       []string{"t" + fmt.Sprint(i)},
			"category":   cat,
			"meta":       map[string]any{"b": []any{1.5, "x", nil}, "a": true},
			"createdAt":  "2026-01-02T03:04:05Z",
			"sizes": LazyField(func(_ context.Context, args map[string]any) (any, error) {
				limit := args["limit"].(int)
				s := make([]int, limit)
				for j := range s {
					s[j] = j + i
				}
				return s, nil
			}),
			"oldName": "old-" + name,
		})
	}
	return out
}

// productByID is a Typer for abstract values.
type productByID map[string]any

func (p productByID) GraphQLType() string               { return "Product" }
func (p productByID) GraphQLField(n string) (any, bool) { v, ok := p[n]; return v, ok }

// testResolvers returns the resolvers of testSDL; log collects mutations in
// order.
func testResolvers(log *[]string) map[string]Resolver {
	products := testProducts()
	byID := func(id string) any {
		for _, p := range products {
			if p.(map[string]any)["id"] == id {
				return p
			}
		}
		return nil
	}
	return map[string]Resolver{
		"Query.products": func(_ context.Context, f *Field) (any, error) {
			return map[string]any{"items": products, "total": len(products), "page": f.Args["page"], "pageSize": f.Args["pageSize"]}, nil
		},
		"Query.product": func(_ context.Context, f *Field) (any, error) { return byID(f.Args["id"].(string)), nil },
		"Query.node": func(_ context.Context, f *Field) (any, error) {
			if f.Args["id"] == "c1" {
				return products[0].(map[string]any)["category"], nil
			}
			if p := byID(f.Args["id"].(string)); p != nil {
				return productByID(p.(map[string]any)), nil
			}
			return nil, nil
		},
		"Query.search": func(context.Context, *Field) (any, error) {
			return []any{products[0], products[0].(map[string]any)["category"]}, nil
		},
		"Query.echo": func(_ context.Context, f *Field) (any, error) { return f.Args, nil },
		"Query.loose": func(_ context.Context, f *Field) (any, error) {
			if len(f.Extra) > 0 && f.Extra["strict"] == true {
				return nil, model.Errorf(model.CodeBadUserInput, "unknown argument")
			}
			return map[string]any{"args": f.Args, "extra": f.Extra}, nil
		},
		"Query.fail": func(_ context.Context, f *Field) (any, error) {
			return nil, &model.Error{Code: model.Code(f.Args["code"].(string)), Message: "it failed"}
		},
		"Query.failNonNull": func(context.Context, *Field) (any, error) {
			return nil, fmt.Errorf("wrapped: %w", model.Errorf(model.CodeForbidden, "not allowed"))
		},
		"Query.internal": func(context.Context, *Field) (any, error) { return nil, errors.New("db password is hunter2") },
		"Query.panics":   func(context.Context, *Field) (any, error) { panic("boom") },
		"Query.notReady": func(_ context.Context, f *Field) (any, error) {
			f.Report(model.Errorf(model.CodeNotReady, "table Product is not ready"))
			return []any{}, nil
		},
		"Query.path": func(_ context.Context, f *Field) (any, error) {
			return [][]string{{fmt.Sprint(f.Path())}}, nil
		},
		"Query.badInt":    func(context.Context, *Field) (any, error) { return 3.5, nil },
		"Query.bigInt":    func(context.Context, *Field) (any, error) { return int64(1) << 40, nil },
		"Query.badEnum":   func(context.Context, *Field) (any, error) { return "SIDEWAYS", nil },
		"Query.wrongType": func(context.Context, *Field) (any, error) { return struct{}{}, nil },
		"Query.nested": func(context.Context, *Field) (any, error) {
			return map[string]any{"value": 1, "inner": map[string]any{"value": 2, "inner": map[string]any{"value": 3}}}, nil
		},
		"Query.oldField": func(context.Context, *Field) (any, error) { return 1, nil },
		"Mutation.createProduct": func(_ context.Context, f *Field) (any, error) {
			in := f.Args["input"].(map[string]any)
			*log = append(*log, "create "+in["name"].(string))
			return map[string]any{"id": "new", "name": in["name"], "price": in["price"], "meta": in}, nil
		},
		"Mutation.log": func(_ context.Context, f *Field) (any, error) {
			*log = append(*log, f.Args["entry"].(string))
			return append([]string(nil), *log...), nil
		},
	}
}

// newTestExecutor returns an executor of testSDL with small limits; log
// (may be nil) receives the mutations.
func newTestExecutor(tb testing.TB, log *[]string) *Executor {
	tb.Helper()
	return newTestExecutorWith(tb, log, func(e *Executor) { e.MaxDepth, e.MaxFields = 6, 200 })
}

// newTestExecutorWith is newTestExecutor with the configuration changed by
// configure before NewExecutor.
func newTestExecutorWith(tb testing.TB, log *[]string, configure func(*Executor)) *Executor {
	tb.Helper()
	if log == nil {
		log = new([]string)
	}
	cfg := Executor{
		Schema:    mustLoadSchema(tb, testSDL),
		Resolvers: testResolvers(log),
		LooseArgs: map[string]bool{"Query.loose": true},
	}
	configure(&cfg)
	ex, err := NewExecutor(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return ex
}

func mustLoadSchema(tb testing.TB, sdl string) *ast.Schema {
	tb.Helper()
	s, err := gqlparser.LoadSchema(&ast.Source{Name: "test.graphql", Input: sdl})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// runQuery prepares and executes query with variables (JSON, may be empty) and
// returns the response JSON.
func runQuery(tb testing.TB, ex *Executor, query, variables, operationName string) (*Result, []byte) {
	tb.Helper()
	req := Request{Query: query, OperationName: operationName}
	if variables != "" {
		if err := decodeJSON([]byte(variables), &req.Variables); err != nil {
			tb.Fatalf("variables: %v", err)
		}
	}
	p, res := ex.Prepare(req)
	if res == nil {
		var err error
		if res, err = p.Execute(context.Background(), nil); err != nil {
			tb.Fatalf("Execute: %v", err)
		}
	}
	out := res.AppendJSON(nil)
	if !json.Valid(out) {
		tb.Fatalf("invalid JSON: %s", out)
	}
	return res, out
}
