package incremental

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

const incrementalSDL = `
directive @stream(if: Boolean! = true, label: String, initialCount: Int = 0) on FIELD
type Query { shelf: Shelf  books: [Book!]!  broken: Book }
type Shelf { name: String  books: [Book!]! }
type Book { id: ID!  title: String  author: Author  fails: String }
type Author { name: String  bio: String }
`

// incrementalExecutor answers two books, one of which fails a field.
func incrementalExecutor(tb testing.TB) *exec.Executor {
	tb.Helper()
	books := []any{
		map[string]any{"id": "1", "title": "Dune", "author": map[string]any{"name": "Frank", "bio": "b1"}},
		map[string]any{"id": "2", "title": "Emma", "author": map[string]any{"name": "Jane", "bio": "b2"}},
		map[string]any{"id": "3", "title": "Ulysses", "author": nil},
	}
	ex, err := exec.NewExecutor(exec.Executor{Schema: mustLoadSchema(tb, incrementalSDL), Resolvers: map[string]exec.Resolver{
		"Query.books": func(context.Context, *exec.Field) (any, error) { return books, nil },
		"Query.shelf": func(context.Context, *exec.Field) (any, error) {
			return map[string]any{"name": "Classics", "books": books[:2]}, nil
		},
		"Book.fails": func(context.Context, *exec.Field) (any, error) { return nil, errors.New("no such page") },
	}})
	if err != nil {
		tb.Fatal(err)
	}
	return ex
}

// completeAnswer executes req as the runtime does and returns its body.
func completeAnswer(tb testing.TB, ex *exec.Executor, req exec.Request) []byte {
	tb.Helper()
	p, refused := ex.Prepare(req)
	if refused != nil {
		tb.Fatalf("refused: %s", refused.AppendJSON(nil))
	}
	res, err := p.Execute(context.Background(), nil)
	if err != nil {
		tb.Fatal(err)
	}
	return res.AppendJSON(nil)
}

// TestIncrements checks the payloads of incremental delivery in both
// formats against the complete answer of the same executor.
func TestIncrements(t *testing.T) {
	t.Parallel()
	ex := incrementalExecutor(t)
	tests := []struct {
		name  string
		query string
		vars  map[string]any
		v02   []string // nil: delivered whole
		y2022 []string
	}{
		{name: "no defer", query: `{ shelf { name } }`},
		{name: "defer if false", query: `{ shelf { name ... @defer(if: false) { books { id } } } }`},
		{name: "defer if variable false", query: `query($d: Boolean = true) { shelf { name ... @defer(if: $d) { books { id } } } }`, vars: map[string]any{"d": false}},
		{
			name:  "defer at root",
			query: `{ shelf { name } ... @defer(label: "more") { books { id } } }`,
			v02: []string{
				`{"data":{"shelf":{"name":"Classics"}},"pending":[{"id":"0","path":[],"label":"more"}],"hasNext":true}`,
				`{"incremental":[{"id":"0","data":{"books":[{"id":"1"},{"id":"2"},{"id":"3"}]}}],"completed":[{"id":"0"}],"hasNext":false}`,
			},
			y2022: []string{
				`{"data":{"shelf":{"name":"Classics"}},"hasNext":true}`,
				`{"incremental":[{"data":{"books":[{"id":"1"},{"id":"2"},{"id":"3"}]},"path":[],"label":"more"}],"hasNext":false}`,
			},
		},
		{
			name:  "defer in list items, variable default",
			query: `query($d: Boolean = true) { shelf { books { id ...B @defer(if: $d) } } } fragment B on Book { title }`,
			v02: []string{
				`{"data":{"shelf":{"books":[{"id":"1"},{"id":"2"}]}},"pending":[{"id":"0","path":["shelf","books",0]},{"id":"1","path":["shelf","books",1]}],"hasNext":true}`,
				`{"incremental":[{"id":"0","data":{"title":"Dune"}}],"completed":[{"id":"0"}],"hasNext":true}`,
				`{"incremental":[{"id":"1","data":{"title":"Emma"}}],"completed":[{"id":"1"}],"hasNext":false}`,
			},
			y2022: []string{
				`{"data":{"shelf":{"books":[{"id":"1"},{"id":"2"}]}},"hasNext":true}`,
				`{"incremental":[{"data":{"title":"Dune"},"path":["shelf","books",0]}],"hasNext":true}`,
				`{"incremental":[{"data":{"title":"Emma"},"path":["shelf","books",1]}],"hasNext":false}`,
			},
		},
		{
			name:  "nested defer and a field shared with the initial payload",
			query: `{ shelf { name ... @defer(label: "a") { name books { author { name } } ... @defer(label: "b") { books { author { bio } } } } } }`,
			v02: []string{
				`{"data":{"shelf":{"name":"Classics"}},"pending":[{"id":"0","path":["shelf"],"label":"a"}],"hasNext":true}`,
				`{"incremental":[{"id":"0","data":{"books":[{"author":{"name":"Frank"}},{"author":{"name":"Jane"}}]}}],"completed":[{"id":"0"}],"pending":[{"id":"1","path":["shelf"],"label":"b"}],"hasNext":true}`,
				`{"incremental":[{"id":"1","data":{"bio":"b1"},"subPath":["books",0,"author"]},{"id":"1","data":{"bio":"b2"},"subPath":["books",1,"author"]}],"completed":[{"id":"1"}],"hasNext":false}`,
			},
		},
		{
			name:  "error in a deferred fragment",
			query: `{ books { id ... @defer(label: "f") { fails } } }`,
			y2022: []string{
				`{"data":{"books":[{"id":"1"},{"id":"2"},{"id":"3"}]},"hasNext":true}`,
				`{"incremental":[{"data":{"fails":null},"path":["books",0],"label":"f","errors":[{"message":"internal error","locations":[{"line":1,"column":39}],"path":["books",0,"fails"],"extensions":{"code":"INTERNAL"}}]}],"hasNext":true}`,
				`{"incremental":[{"data":{"fails":null},"path":["books",1],"label":"f","errors":[{"message":"internal error","locations":[{"line":1,"column":39}],"path":["books",1,"fails"],"extensions":{"code":"INTERNAL"}}]}],"hasNext":true}`,
				`{"incremental":[{"data":{"fails":null},"path":["books",2],"label":"f","errors":[{"message":"internal error","locations":[{"line":1,"column":39}],"path":["books",2,"fails"],"extensions":{"code":"INTERNAL"}}]}],"hasNext":false}`,
			},
		},
		{
			name:  "stream",
			query: `{ books @stream(initialCount: 1, label: "s") { id } }`,
			v02: []string{
				`{"data":{"books":[{"id":"1"}]},"pending":[{"id":"0","path":["books"],"label":"s"}],"hasNext":true}`,
				`{"incremental":[{"id":"0","items":[{"id":"2"},{"id":"3"}]}],"completed":[{"id":"0"}],"hasNext":false}`,
			},
			y2022: []string{
				`{"data":{"books":[{"id":"1"}]},"hasNext":true}`,
				`{"incremental":[{"items":[{"id":"2"},{"id":"3"}],"path":["books",1],"label":"s"}],"hasNext":false}`,
			},
		},
		{name: "stream shorter than initialCount", query: `{ books @stream(initialCount: 5) { id } }`},
		{
			name:  "stream of exactly initialCount items: an empty stream, as graphql-js 17",
			query: `{ books @stream(initialCount: 3) { id } }`,
			v02: []string{
				`{"data":{"books":[{"id":"1"},{"id":"2"},{"id":"3"}]},"pending":[{"id":"0","path":["books"]}],"hasNext":true}`,
				`{"completed":[{"id":"0"}],"hasNext":false}`,
			},
			y2022: []string{
				`{"data":{"books":[{"id":"1"},{"id":"2"},{"id":"3"}]},"hasNext":true}`,
				`{"hasNext":false}`,
			},
		},
		{name: "defer over null", query: `{ broken { ... @defer { id } } }`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := exec.Request{Query: tt.query, Variables: tt.vars}
			body := completeAnswer(t, ex, req)
			for _, f := range []struct {
				format Format
				want   []string
			}{{V02, tt.v02}, {Spec20220824, tt.y2022}} {
				if f.want == nil && (tt.v02 != nil || tt.y2022 != nil) {
					continue // only the other format is checked
				}
				got, err := Split(context.Background(), req, body, f.format, 0)
				if err != nil {
					t.Fatal(err)
				}
				gs := make([]string, len(got))
				for i, p := range got {
					gs[i] = string(p)
				}
				if strings.Join(gs, "\n") != strings.Join(f.want, "\n") {
					t.Errorf("format %d of %s:\n got %s\nwant %s", f.format, body, strings.Join(gs, "\n     "), strings.Join(f.want, "\n     "))
				}
			}
		})
	}
}

// TestIncrementsBounded checks the cap on increments: past it, fragments
// are delivered inline in their parent's payload.
func TestIncrementsBounded(t *testing.T) {
	t.Parallel()
	ex := incrementalExecutor(t)
	req := exec.Request{Query: `{ books { id ... @defer { title } } }`}
	got, err := Split(context.Background(), req, completeAnswer(t, ex, req), V02, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"data":{"books":[{"id":"1"},{"id":"2"},{"id":"3","title":"Ulysses"}]},"pending":[{"id":"0","path":["books",0]},{"id":"1","path":["books",1]}],"hasNext":true}`
	if len(got) != 3 || string(got[0]) != want {
		t.Fatalf("got %d payloads, first %s", len(got), got[0])
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Split(ctx, req, completeAnswer(t, ex, req), V02, 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled context gave %v", err)
	}
}

func mustLoadSchema(tb testing.TB, sdl string) *ast.Schema {
	tb.Helper()
	s, err := gqlparser.LoadSchema(&ast.Source{Name: "test.graphql", Input: sdl})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}
