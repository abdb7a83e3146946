package exec

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/model"
)

func TestNewExecutor(t *testing.T) {
	schema := mustLoadSchema(t, testSDL)
	noop := func(context.Context, *Field) (any, error) { return nil, nil }
	tests := []struct {
		name    string
		cfg     Executor
		wantErr string
	}{
		{name: "ok", cfg: Executor{Schema: schema, Resolvers: map[string]Resolver{"Query.product": noop, "Product.name": noop}, LooseArgs: map[string]bool{"Query.products": true}}},
		{name: "nil schema", cfg: Executor{}, wantErr: "schema"},
		{name: "unknown type", cfg: Executor{Schema: schema, Resolvers: map[string]Resolver{"Nope.x": noop}}, wantErr: `"Nope.x"`},
		{name: "unknown field", cfg: Executor{Schema: schema, Resolvers: map[string]Resolver{"Query.nope": noop}}, wantErr: `"Query.nope"`},
		{name: "no dot", cfg: Executor{Schema: schema, Resolvers: map[string]Resolver{"Query": noop}}, wantErr: `"Query"`},
		{name: "interface field", cfg: Executor{Schema: schema, Resolvers: map[string]Resolver{"Node.id": noop}}, wantErr: `"Node.id"`},
		{name: "introspection type", cfg: Executor{Schema: schema, Resolvers: map[string]Resolver{"__Type.name": noop}}, wantErr: `"__Type.name"`},
		{name: "introspection field", cfg: Executor{Schema: schema, Resolvers: map[string]Resolver{"Query.__schema": noop}}, wantErr: `"Query.__schema"`},
		{name: "unknown loose field", cfg: Executor{Schema: schema, LooseArgs: map[string]bool{"Query.nope": true}}, wantErr: `"Query.nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex, err := NewExecutor(tt.cfg)
			if tt.wantErr == "" {
				if err != nil || ex == nil {
					t.Fatalf("NewExecutor: %v", err)
				}
				if ex.MaxDepth != DefaultMaxDepth || ex.MaxFields != DefaultMaxFields || ex.CacheSize != DefaultCacheSize {
					t.Errorf("defaults not applied: %d %d %d", ex.MaxDepth, ex.MaxFields, ex.CacheSize)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want one mentioning %s", err, tt.wantErr)
			}
		})
	}
}

// TestExecuteContext checks that Execute stops when its context ends:
// before it starts, between root fields, and inside a long list.
func TestExecuteContext(t *testing.T) {
	rows := make([]any, 5000)
	for i := range rows {
		rows[i] = map[string]any{"id": fmt.Sprint(i)}
	}
	var cancelAt func()
	ex, err := NewExecutor(Executor{
		Schema: mustLoadSchema(t, `type Query { rows: [Row!]!  stop: Int  other: Int }  type Row { id: ID!  n: Int }`),
		Resolvers: map[string]Resolver{
			"Query.rows": func(context.Context, *Field) (any, error) { return rows, nil },
			"Row.n": func(_ context.Context, f *Field) (any, error) {
				if f.Parent.(map[string]any)["id"] == "300" {
					cancelAt()
				}
				return 1, nil
			},
			"Query.stop": func(context.Context, *Field) (any, error) { cancelAt(); return 1, nil },
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		query  string
		cancel bool // cancel before Execute
		want   error
	}{
		{name: "runs", query: `{ rows { id } }`},
		{name: "cancelled before", query: `{ rows { id } }`, cancel: true, want: context.Canceled},
		{name: "cancelled between root fields", query: `{ stop other }`, want: context.Canceled},
		{name: "cancelled in a list", query: `{ rows { id n } }`, want: context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cancelAt = cancel
			if tt.cancel {
				cancel()
			}
			p, refused := ex.Prepare(Request{Query: tt.query})
			if refused != nil {
				t.Fatal(refused.Errors)
			}
			res, err := p.Execute(ctx, nil)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if (res == nil) != (tt.want != nil) {
				t.Fatalf("res = %v with err %v", res, err)
			}
		})
	}
	t.Run("deadline", func(t *testing.T) {
		ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
		defer cancel()
		p, _ := ex.Prepare(Request{Query: `{ rows { id } }`})
		if _, err := p.Execute(ctx, nil); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want DeadlineExceeded", err)
		}
	})
}

// TestExecuteConcurrent runs the golden cases from many goroutines at once
// on one executor (run with -race): the outcome must not change.
func TestExecuteConcurrent(t *testing.T) {
	ex := newTestExecutor(t, nil)
	queries := []string{
		`{ products { total items { id name price stock tags category { name } sizes(limit: 2) } } }`,
		`query ($yes: Boolean!) { a: product(id: "1") @include(if: $yes) { name } search(text: "x") { __typename } }`,
		`{ products { items { secret } } }`,
		`{ __type(name: "Product") { fields { name type { name ofType { name } } } } }`,
		`{ notReady { id } fail panics }`,
	}
	vars := `{"yes": true}`
	want := make([][]byte, len(queries))
	for i, q := range queries {
		_, want[i] = runQuery(t, ex, q, vars, "")
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for n := range 50 {
				i := (g + n) % len(queries)
				req := Request{Query: queries[i], Variables: map[string]any{"yes": true}}
				p, refused := ex.Prepare(req)
				if refused != nil {
					t.Errorf("refused: %v", refused.Errors)
					return
				}
				res, err := p.Execute(context.Background(), nil)
				if err != nil {
					t.Error(err)
					return
				}
				if got := res.AppendJSON(nil); !bytes.Equal(got, want[i]) {
					t.Errorf("query %d: got %s, want %s", i, got, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestPrepareCache(t *testing.T) {
	ex := newTestExecutorWith(t, nil, func(e *Executor) { e.CacheSize = 2 })
	docOf := func(q string) *document {
		p, refused := ex.Prepare(Request{Query: q})
		if refused != nil {
			t.Fatal(refused.Errors)
		}
		return p.doc
	}
	a, b, c := `{ badInt }`, `{ bigInt }`, `{ badEnum }`
	first := docOf(a)
	if docOf(a) != first {
		t.Fatal("a repeated query was parsed again")
	}
	docOf(b)
	docOf(c) // evicts a, the least recently used
	if docOf(a) == first {
		t.Fatal("the least recently used document was not evicted")
	}
	if len(ex.cache.items) != 2 || ex.cache.order.Len() != 2 {
		t.Fatalf("cache holds %d/%d documents, want 2", len(ex.cache.items), ex.cache.order.Len())
	}

	off := newTestExecutorWith(t, nil, func(e *Executor) { e.CacheSize = -1 })
	p1, _ := off.Prepare(Request{Query: a})
	p2, _ := off.Prepare(Request{Query: a})
	if p1.doc == p2.doc || len(off.cache.items) != 0 {
		t.Fatal("a disabled cache kept a document")
	}
	r1, _ := off.Prepare(Request{Query: `{`})
	r2, _ := off.Prepare(Request{Query: `{`})
	if r1 != nil || r2 != nil {
		t.Fatal("a document that does not parse was prepared")
	}
}

// TestPlanCache checks that a plan is shared across requests unless a
// @skip or @include depends on a variable.
func TestPlanCache(t *testing.T) {
	ex := newTestExecutor(t, nil)
	prep := func(q string, vars map[string]any) *Prepared {
		p, refused := ex.Prepare(Request{Query: q, Variables: vars})
		if refused != nil {
			t.Fatal(refused.Errors)
		}
		return p
	}
	static := `query ($id: ID!) { product(id: $id) { name } }`
	if prep(static, map[string]any{"id": "1"}).plan != prep(static, map[string]any{"id": "2"}).plan {
		t.Error("a plan without variable directives was built twice")
	}
	dynamic := `query ($x: Boolean!) { product(id: "1") { name @include(if: $x) } }`
	p1, p2 := prep(dynamic, map[string]any{"x": true}), prep(dynamic, map[string]any{"x": false})
	if p1.plan == p2.plan {
		t.Fatal("a plan that depends on a variable was shared")
	}
	for _, tc := range []struct {
		p    *Prepared
		want string
	}{{p1, `{"data":{"product":{"name":"Hammer"}}}`}, {p2, `{"data":{"product":{}}}`}} {
		res, err := tc.p.Execute(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(res.AppendJSON(nil)); got != tc.want {
			t.Errorf("got %s, want %s", got, tc.want)
		}
	}
}

// TestResolverField checks what a resolver sees: copies of the arguments
// it may change, the path inside lists, and Report.
func TestResolverField(t *testing.T) {
	var paths []string
	ex, err := NewExecutor(Executor{
		Schema: mustLoadSchema(t, `type Query { list(n: Int = 2, tags: [String] = ["a"]): [Item!]! }  type Item { name(x: Int = 1): String }`),
		Resolvers: map[string]Resolver{
			"Query.list": func(_ context.Context, f *Field) (any, error) {
				if tag := f.Args["tags"].([]any)[0]; tag != "a" {
					return nil, fmt.Errorf("tags[0] = %v: a change leaked from another request", tag)
				}
				out := make([]any, f.Args["n"].(int))
				for i := range out {
					out[i] = map[string]any{}
				}
				f.Args["n"] = 99 // must not leak into the next request
				f.Args["tags"].([]any)[0] = "changed"
				return out, nil
			},
			"Item.name": func(_ context.Context, f *Field) (any, error) {
				paths = append(paths, fmt.Sprint(f.Path()))
				if f.Path()[1] == ast.PathIndex(1) {
					f.Report(model.Errorf(model.CodeNotReady, "second"))
				}
				s := fmt.Sprint(f.Args)
				f.Args["x"] = 5
				return s, nil
			},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		paths = nil
		_, out := runQuery(t, ex, `{ list { n: name } }`, "", "")
		want := `{"data":{"list":[{"n":"map[x:1]"},{"n":"map[x:1]"}]},"errors":[{"message":"second","locations":[{"line":1,"column":10}],"path":["list",1,"n"],"extensions":{"code":"NOT_READY"}}]}`
		if string(out) != want {
			t.Fatalf("got  %s\nwant %s", out, want)
		}
		if got := strings.Join(paths, " "); got != "list[0].n list[1].n" {
			t.Errorf("paths = %s", got)
		}
	}
}

// TestDefaultResolver covers the values the default resolver reads: maps
// of other value types, FieldGetter, lazy fields, and values it cannot
// read (null).
func TestDefaultResolver(t *testing.T) {
	type named string
	ex, err := NewExecutor(Executor{
		Schema: mustLoadSchema(t, `type Query { strMap: Obj  getter: Obj  other: Obj  typedNil: Obj  namedMap: Obj }
			type Obj { a: String  b(n: Int = 4): Int  c: [Int!] }`),
		Resolvers: map[string]Resolver{
			"Query.strMap":   func(context.Context, *Field) (any, error) { return map[string]string{"a": "x"}, nil },
			"Query.getter":   func(context.Context, *Field) (any, error) { return getter{"a": "g", "b": LazyField(lazyDouble)}, nil },
			"Query.other":    func(context.Context, *Field) (any, error) { return struct{ A string }{"x"}, nil },
			"Query.typedNil": func(context.Context, *Field) (any, error) { return map[string]any(nil), nil },
			"Query.namedMap": func(context.Context, *Field) (any, error) { return map[named]any{"a": "n", "c": []int(nil)}, nil },
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, out := runQuery(t, ex, `{ strMap { a b } getter { a b b2: b(n: 5) c } other { a } typedNil { a } namedMap { a c } }`, "", "")
	want := `{"data":{"strMap":{"a":"x","b":null},"getter":{"a":"g","b":8,"b2":10,"c":null},"other":{"a":null},"typedNil":null,"namedMap":{"a":"n","c":[]}}}`
	if string(out) != want {
		t.Fatalf("got  %s\nwant %s", out, want)
	}
}

type getter map[string]any

func (g getter) GraphQLField(name string) (any, bool) { v, ok := g[name]; return v, ok }

func lazyDouble(_ context.Context, args map[string]any) (any, error) { return 2 * args["n"].(int), nil }

// TestAbstractResolution covers the ways a value names its object type
// and the error when it names none.
func TestAbstractResolution(t *testing.T) {
	ex, err := NewExecutor(Executor{
		Schema: mustLoadSchema(t, `interface Named { name: String }  type A implements Named { name: String }  type B implements Named { name: String }
			union Only = A
			type Query { typer: Named  typename: Named  unnamed: Named  wrong: Named  only: Only }`),
		Resolvers: map[string]Resolver{
			"Query.typer":    func(context.Context, *Field) (any, error) { return productByIDNamed{"name": "t"}, nil },
			"Query.typename": func(context.Context, *Field) (any, error) { return map[string]any{"__typename": "A", "name": "m"}, nil },
			"Query.unnamed":  func(context.Context, *Field) (any, error) { return map[string]any{"name": "?"}, nil },
			"Query.wrong":    func(context.Context, *Field) (any, error) { return map[string]any{"__typename": "Query"}, nil },
			"Query.only":     func(context.Context, *Field) (any, error) { return map[string]any{"name": "o"}, nil },
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, out := runQuery(t, ex, `{ typer { __typename name } typename { __typename name } unnamed { name } wrong { name } only { ... on A { name } } }`, "", "")
	want := `{"data":{"typer":{"__typename":"B","name":"t"},"typename":{"__typename":"A","name":"m"},"unnamed":null,"wrong":null,"only":{"name":"o"}},` +
		`"errors":[{"message":"Abstract type \"Named\" must resolve to an object type at runtime for field Query.unnamed; got \"\".","locations":[{"line":1,"column":58}],"path":["unnamed"],"extensions":{"code":"INTERNAL"}},` +
		`{"message":"Abstract type \"Named\" must resolve to an object type at runtime for field Query.wrong; got \"Query\".","locations":[{"line":1,"column":75}],"path":["wrong"],"extensions":{"code":"INTERNAL"}}]}`
	if string(out) != want {
		t.Fatalf("got  %s\nwant %s", out, want)
	}
}

type productByIDNamed map[string]any

func (productByIDNamed) GraphQLType() string { return "B" }

// TestPanicOutsideResolver checks that a panic while writing a value (here
// in a MarshalJSON) does not escape Execute.
func TestPanicOutsideResolver(t *testing.T) {
	ex, err := NewExecutor(Executor{
		Schema:    mustLoadSchema(t, `scalar JSON  type Query { v: JSON }`),
		Resolvers: map[string]Resolver{"Query.v": func(context.Context, *Field) (any, error) { return panicky{}, nil }},
	})
	if err != nil {
		t.Fatal(err)
	}
	res, out := runQuery(t, ex, `{ v }`, "", "")
	if string(out) != `{"data":null,"errors":[{"message":"internal error","extensions":{"code":"INTERNAL"}}]}` {
		t.Fatalf("got %s", out)
	}
	var pe panicError
	if !errors.As(res.Errors[0].Err, &pe) {
		t.Errorf("Err = %v, want the panic kept for the log", res.Errors[0].Err)
	}
}

type panicky struct{}

func (panicky) MarshalJSON() ([]byte, error) { panic("no") }

// TestLooseArgsRule checks the replacement of KnownArgumentNames.
func TestLooseArgsRule(t *testing.T) {
	ex := newTestExecutor(t, nil)
	tests := []struct {
		name, query, wantErr string
	}{
		{name: "loose field", query: `{ loose(x: 1, y: [2]) }`},
		{name: "loose field through alias and fragment", query: `{ ...F } fragment F on Query { l: loose(z: "a") }`},
		{name: "strict field", query: `{ product(id: "1", x: 1) { id } }`, wantErr: `Unknown argument "x" on field "Query.product".`},
		{name: "suggestion", query: `{ products(pag: 1) { total } }`, wantErr: `Unknown argument "pag" on field "Query.products". Did you mean "page"?`},
		{name: "directive", query: `{ loose @skip(if: false, unless: true) }`, wantErr: `Unknown argument "unless" on directive "@skip".`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, refused := ex.Prepare(Request{Query: tt.query})
			if tt.wantErr == "" {
				if refused != nil {
					t.Fatalf("refused: %v", refused.Errors)
				}
				return
			}
			if refused == nil || refused.Code != model.CodeValidateFailed || refused.Errors[0].Message != tt.wantErr {
				t.Fatalf("refused = %+v, want %q", refused, tt.wantErr)
			}
		})
	}
}

// TestLimits checks the depth and field-count limits, including a
// document whose fragments fan out exponentially.
func TestLimits(t *testing.T) {
	ex := newTestExecutorWith(t, nil, func(e *Executor) { e.MaxDepth, e.MaxFields = 3, 20 })
	fanout := `{ ...F0 } fragment F0 on Query { ...F1 ...F1 }`
	for i := 1; i < 40; i++ {
		fanout += fmt.Sprintf(" fragment F%d on Query { ...F%d ...F%d }", i, i+1, i+1)
	}
	fanout += ` fragment F40 on Query { badInt }`
	tests := []struct {
		name, query, wantErr string
	}{
		{name: "depth at the limit", query: `{ nested { inner { value } } }`},
		{name: "depth over the limit", query: `{ nested { inner { inner { value } } } }`, wantErr: "query depth 4 exceeds the limit of 3"},
		{name: "introspection is not deep", query: `{ __schema { types { fields { type { ofType { ofType { name } } } } } } }`},
		{name: "nor __type", query: `{ __type(name: "Product") { fields { type { ofType { name } } } } }`},
		{name: "fields at the limit", query: `{ ` + strings.Repeat("badInt ", 20) + `}`},
		{name: "fields over the limit", query: `{ ` + strings.Repeat("badInt ", 21) + `}`, wantErr: "query selects more than the limit of 20 fields"},
		{name: "fragments count once per use", query: `{ ...A ...A ...A } fragment A on Query { ` + strings.Repeat("badInt ", 7) + `}`, wantErr: "query selects more than the limit of 20 fields"},
		{name: "exponential fan-out", query: fanout, wantErr: "query selects more than the limit of 20 fields"},
		{name: "second operation", query: `query A { badInt } query B { nested { inner { inner { value } } } }`, wantErr: "query depth 4 exceeds the limit of 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := Request{Query: tt.query}
			if strings.HasPrefix(tt.query, "query A") {
				req.OperationName = "A"
			}
			_, refused := ex.Prepare(req)
			if tt.wantErr == "" {
				if refused != nil {
					t.Fatalf("refused: %v", refused.Errors)
				}
				return
			}
			if refused == nil || refused.Code != model.CodeValidateFailed || refused.Errors[0].Message != tt.wantErr {
				t.Fatalf("refused = %v, want %q", refused, tt.wantErr)
			}
		})
	}
}

// TestResultJSON checks AppendJSON against encoding/json's rendering of
// the same members.
func TestResultJSON(t *testing.T) {
	ex := newTestExecutor(t, nil)
	for _, q := range []string{`{ products { items { secret } } }`, `{ notReady { id } fail internal }`, `{ nope }`, `{`, `{ badInt }`} {
		t.Run(q, func(t *testing.T) {
			res, out := runQuery(t, ex, q, "", "")
			std := map[string]any{}
			if !res.Refused {
				std["data"] = res.Data
			}
			if len(res.Errors) > 0 {
				std["errors"] = res.Errors
			}
			want, err := json.Marshal(std)
			if err != nil {
				t.Fatal(err)
			}
			var got, exp any
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(want, &exp); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(exp) {
				t.Errorf("AppendJSON %s\nencoding/json %s", out, want)
			}
			if m, _ := res.MarshalJSON(); !bytes.Equal(m, out) {
				t.Errorf("MarshalJSON %s differs from AppendJSON %s", m, out)
			}
		})
	}
	if got := string((&Result{}).AppendJSON([]byte("x"))); got != "x{}" {
		t.Errorf("empty result: %s", got)
	}
}

// TestPrepareShares checks that requests of an operation without variables
// share one Prepared, and that the others get their own.
func TestPrepareShares(t *testing.T) {
	ex := newTestExecutor(t, nil)
	tests := []struct {
		name, query string
		vars        map[string]any
		shared      bool
	}{
		{"no variables", `{ products { total } }`, nil, true},
		{"variables given to an operation without any", `{ products { total } }`, map[string]any{"p": json.Number("2")}, true},
		{"variables", `query ($p: Int) { products(page: $p) { page } }`, map[string]any{"p": json.Number("2")}, false},
		{"variable directives", `query ($x: Boolean!) { products { total @include(if: $x) } }`, map[string]any{"x": true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := Request{Query: tt.query, Variables: tt.vars}
			var prepared []*Prepared
			for range 3 {
				p, refused := ex.Prepare(req)
				if refused != nil {
					t.Fatal(refused.Errors)
				}
				prepared = append(prepared, p)
			}
			if shared := prepared[1] == prepared[2]; shared != tt.shared {
				t.Errorf("shared = %v, want %v", shared, tt.shared)
			}
		})
	}
}
