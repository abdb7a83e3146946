package graphql

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/formatter"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/contractrt"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/graphql/internal/answer"
	"github.com/mockgql/mockgql/model"
)

// The mock runtime serves a project's model as GraphQL (docs/using/
// runtime.md, "The schema a project gets"):
//
//	rt, err := graphql.Compile(project, graphql.Options{}) // once per model version
//	prep, refused := rt.Prepare(req)                     // refused: HTTP 400
//	if prep.Mutation() {                                  // one at a time per project
//		res, changes, err := rt.Mutate(ctx, prep, pool, overlay)
//		// persist changes, then:
//		overlay.Apply(changes)
//	} else {
//		res, err := rt.Query(ctx, prep, pool, overlay) // concurrently
//	}
//
// Files: compile*.go turn the model into tables, operations and the SDL;
// package engine finds rows (views, filters, sorting, paging, lookups, the
// cache, the overlay of mutation changes); runtime_mutate.go makes changes;
// generate.go makes GENERATED values. runtime_resolve.go defines what each
// field answers; runtime_direct.go, runtime_root.go and package answer's RowPlan
// write the same answers for queries without resolver calls, straight
// from the dataset columns.

// Options configure a Runtime. Zero fields take the defaults.
type Options struct {
	// MaxDepth limits the nesting of a query's selections (default 10).
	MaxDepth int
	// MaxFields limits the number of selected fields (default 1000).
	MaxFields int
	// MaxPageSize clamps pageSize (default 1000, docs/reference/bounds.md).
	MaxPageSize int
	// CacheRows bounds the query cache of the Runtime, in cached row
	// numbers (4 bytes each; default 8M, i.e. 32 MB), when Cache is nil.
	CacheRows int
	// Cache, when set, is the query cache the Runtime shares with others
	// (a node's budget for all its projects); CacheRows is then unused.
	Cache *engine.Cache
	// Bounds limit each request's response and share the node's budget
	// (see exec.Bounds); the zero value takes the defaults.
	Bounds exec.Bounds
	// BaseURL is the node's public address (--base-url): generated image
	// URLs of a contract project are under it; "" keeps them on the
	// origin that serves the answer (/img/…).
	BaseURL string
	// MaxGeneratedBytes bounds a contract project's generated rows
	// (default MaxGeneratedBytes).
	MaxGeneratedBytes int
	// Compiles, when set, is the node's budget of contract compiles
	// (slots, remembered failures) that the Runtime's compile shares with
	// others; nil gives the compile one of its own (tests, one-off
	// compiles).
	Compiles *Compiles
}

// DefaultCacheRows is Options.CacheRows when it is not set: 8 Mi cached
// row numbers, 32 MB at CacheRowBytes each (--query-cache-mb's default).
const (
	DefaultCacheRows = 8 << 20
	CacheRowBytes    = 4
)

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.MaxDepth, exec.DefaultMaxDepth)
	def(&o.MaxFields, exec.DefaultMaxFields)
	def(&o.MaxPageSize, 1000)
	def(&o.CacheRows, DefaultCacheRows)
	def(&o.MaxGeneratedBytes, MaxGeneratedBytes)
	return o
}

// Runtime is the compiled mock runtime of one version of a project's model:
// its GraphQL schema, resolvers and a query cache. It is immutable (but for
// the cache, which is internally synchronised) and safe for concurrent use.
// A Runtime holds no mock data: every call gets the pool and the overlay.
type Runtime struct {
	opt    Options
	model  *compiled
	schema *ast.Schema
	exec   *exec.Executor
	sdl    *printed   // the schema printed, made by SDL on first use
	env    engine.Env // the query cache and sparse reach its views share
	// contract is set for a contract project (contractrt/compile.go).
	contract *contractrt.Runtime
}

// Compile builds the runtime of project p. It reads p only during the call
// and keeps nothing of it, so the caller may change p afterwards. The error
// is an internal one (a model the runtime cannot express); model validation
// (package model) keeps it from happening. For a contract project it is
// also the refusal of the compile budget (contractrt/budget.go), which is
// remembered for p's model version.
func Compile(p *model.Project, opt Options) (*Runtime, error) {
	return CompileContext(context.Background(), p, opt)
}

// CompileContext is Compile within ctx: a contract project's compile waits
// for a slot of the process and generates its rows until ctx is done,
// and then returns QUERY_TIMEOUT (not remembered).
func CompileContext(ctx context.Context, p *model.Project, opt Options) (*Runtime, error) {
	opt = opt.withDefaults()
	c := opt.Cache
	if c == nil {
		c = engine.NewCache(opt.CacheRows)
	}
	rt := &Runtime{opt: opt, model: compileModel(p), sdl: &printed{}, env: engine.Env{Cache: c.View(),
		Sparse: engine.SparseReach{Div: engine.DefaultSparseDiv}}}
	if p.Contract != nil {
		ct, err := opt.Compiles.Compile(ctx, p, rt.model.tables, &rt.env, contractrt.Options{
			MaxDepth: opt.MaxDepth, MaxFields: opt.MaxFields, MaxPageSize: opt.MaxPageSize,
			MaxGeneratedBytes: opt.MaxGeneratedBytes, Bounds: opt.Bounds, BaseURL: opt.BaseURL})
		if err != nil {
			return nil, err
		}
		rt.contract, rt.schema, rt.exec = ct, ct.Schema(), ct.Executor()
		return rt, nil
	}
	schema, err := contract.LoadSchema(&ast.Source{Name: "runtime.graphql", Input: buildSDL(rt.model, opt)}, streamDirective())
	if err != nil {
		return nil, fmt.Errorf("graphql: runtime schema of project %s: %w", p.ID, err)
	}
	rt.schema = schema
	rt.exec, err = exec.NewExecutor(exec.Executor{
		Schema:    schema,
		Resolvers: rt.resolvers(),
		LooseArgs: rt.looseArgs(),
		MaxDepth:  opt.MaxDepth,
		MaxFields: opt.MaxFields,
		Bounds:    opt.Bounds,

		DirectPlan: newDirectTypes(rt).compile,
	})
	if err != nil {
		return nil, fmt.Errorf("graphql: runtime of project %s: %w", p.ID, err)
	}
	return rt, nil
}

// SDL returns the schema printed by the gqlparser formatter (types sorted
// by name, built-ins left out): the management API's `sdl` field and the
// input of schema comparisons.
// It is made on first use (most runtimes never print theirs: a node's
// small projects keep no copy of their schema's text).
func (rt *Runtime) SDL() string {
	rt.sdl.once.Do(func() {
		var b strings.Builder
		formatter.NewFormatter(&b, formatter.WithIndent("  ")).FormatSchema(rt.schema)
		rt.sdl.text = b.String()
	})
	return rt.sdl.text
}

// printed is a schema's text, made once.
type printed struct {
	once sync.Once
	text string
}

// Schema returns the runtime schema. The caller must not modify it.
func (rt *Runtime) Schema() *ast.Schema { return rt.schema }

// Prepare parses and validates a request against the runtime schema (see
// exec.Executor.Prepare). A refused request, an unknown or disabled operation
// included, gives nil and an exec.Result with Refused set: the HTTP layer answers 400.
func (rt *Runtime) Prepare(req exec.Request) (*exec.Prepared, *exec.Result) {
	return rt.exec.Prepare(req)
}

// PrepareContext is Prepare within ctx (Executor.PrepareContext): a
// document that could not be validated before ctx ended is refused with
// Code model.CodeQueryTimeout, which TimeoutError turns into the error to
// answer.
func (rt *Runtime) PrepareContext(ctx context.Context, req exec.Request) (*exec.Prepared, *exec.Result) {
	return rt.exec.PrepareContext(ctx, req)
}

var (
	errMutationInQuery = errors.New("graphql: Runtime.Query given a mutation; use Mutate")
	errQueryInMutate   = errors.New("graphql: Runtime.Mutate given a query; use Query")
	errForeignPrepared = errors.New("graphql: the request was prepared by another Runtime")
)

// Query runs a prepared query (not a mutation) against the pool and one
// snapshot of ov (nil: no changes). It is safe to call concurrently with
// other Query calls and with ov.Apply. The error is non-nil only when ctx
// ends (ctx.Err()) or the call is misused; data-level problems are in the
// Result's errors.
func (rt *Runtime) Query(ctx context.Context, prep *exec.Prepared, pool engine.Pool, ov *engine.Overlay) (*exec.Result, error) {
	return rt.query(ctx, prep, pool, ov, nil, false)
}

// QueryTo is Query writing the data into buf's storage (see
// exec.Prepared.ExecuteTo). The Result holds its bytes of the Budget until the
// caller gives them back (exec.Prepared.ExecuteHeld).
func (rt *Runtime) QueryTo(ctx context.Context, prep *exec.Prepared, pool engine.Pool, ov *engine.Overlay, buf []byte) (*exec.Result, error) {
	return rt.query(ctx, prep, pool, ov, buf, true)
}

func (rt *Runtime) query(ctx context.Context, prep *exec.Prepared, pool engine.Pool, ov *engine.Overlay, buf []byte, hold bool) (*exec.Result, error) {
	switch {
	case prep.Executor() != rt.exec:
		return nil, errForeignPrepared
	case prep.Mutation():
		return nil, errMutationInQuery
	case prep.Subscription():
		return nil, ErrSubscriptionOverHTTP
	}
	root := &queryRoot{}
	root.v.Init(&rt.env, rt.Pool(pool), ov, ov.State(), true)
	if hold {
		return prep.ExecuteHeld(ctx, root, buf)
	}
	return prep.ExecuteTo(ctx, root, buf)
}

// Mutate runs a prepared mutation without changing ov. It returns the
// result as it will be once the changes are applied, and the changes (one
// per row, latest state, in the order they were last made). The caller
// (one mutation at a time per overlay) persists the changes, then calls
// ov.Apply(changes), then answers; if persisting fails it applies nothing
// and answers an error. Root fields run in order, each seeing the changes
// of those before it.
func (rt *Runtime) Mutate(ctx context.Context, prep *exec.Prepared, pool engine.Pool, ov *engine.Overlay) (*exec.Result, []engine.Change, error) {
	switch {
	case prep.Executor() != rt.exec:
		return nil, nil, errForeignPrepared
	case !prep.Mutation():
		return nil, nil, errQueryInMutate
	}
	m := &answer.Mutation{Env: &rt.env, Pool: rt.Pool(pool), Ov: ov, Base: ov.State()}
	m.St = m.Base
	res, err := prep.Execute(ctx, m)
	if err != nil {
		return nil, nil, err
	}
	return res, m.Changes(), nil
}

// newView returns a view of the pool (with a contract project's generated
// datasets) at overlay state st, on rt's query cache.
func (rt *Runtime) newView(pool engine.Pool, ov *engine.Overlay, st *engine.OverlayState, cacheable bool) *engine.View {
	return engine.NewView(&rt.env, rt.Pool(pool), ov, st, cacheable)
}

// queryRoot is the root value of a query: the view it reads. Its root
// fields are written directly by the plans of the Runtime whose Env the
// view reads (WriteRootField).
type queryRoot struct {
	v engine.View
}

func (root *queryRoot) View() *engine.View { return &root.v }

// streamDirective gives a table project's schema @stream beside the
// prelude's @defer, so that its lists can be streamed
// (docs/using/runtime.md#defer-and-stream). Built in, like @defer, it is
// in neither the project's SDL nor its introspection.
func streamDirective() *ast.Source {
	return &ast.Source{Name: "stream.graphql", BuiltIn: true,
		Input: `directive @stream(if: Boolean! = true, label: String, initialCount: Int! = 0) on FIELD`}
}
