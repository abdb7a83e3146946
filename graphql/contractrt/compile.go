package contractrt

import (
	"context"
	"fmt"
	"hash/fnv"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/graphql/internal/gen"
	"github.com/mockgql/mockgql/model"
)

// A contract project (model.Project.Contract, docs/using/contract.md)
// serves the imported document as its schema, unchanged, over the tables
// that contract.Build materialised from it: the rows of generated tables
// are made here, once per compile, from contract.Plan.Rows seeded by the
// project's ID, so every node and every compile of a version serves the
// same rows; they are held as in-memory datasets that the runtime's Pool
// wrapper (Runtime.Pool) puts in front of the caller's pool, so the row
// engine, the overlay and the relations work as for table projects.

// Runtime is the runtime of one version of a contract project: the
// imported schema, its executor and the rows generated for it. Package
// graphql wraps it in a graphql.Runtime, which answers requests with it.
// It is immutable and safe for concurrent use.
type Runtime struct {
	opt    Options
	env    *engine.Env // the graphql.Runtime's query cache and sparse reach
	schema *ast.Schema
	exec   *exec.Executor

	plan *contract.Plan
	// data are the generated datasets by import code.
	data map[string]*dataset.Dataset
	// tables are the compiled tables by entity type name.
	tables map[string]*engine.Table
	// entities are the plan's entities by type name.
	entities map[string]*contract.Entity
	// seed makes generated values of the project.
	seed uint64
	// values makes generated scalar values (gen.NewValuesAt).
	values contract.Values
	// directed are the values graphql-faker's directives give fields, by
	// type and field (contract.DirectedValues), made once: the generators'
	// cache tells options apart by identity.
	directed map[[2]string]contract.Value
	// links are the lists of rows no foreign key holds, by "Type.field"
	// (links.go).
	links map[string]*ctLink
	// parts are the tables of the list fields whose rows mutations add as
	// a row's parts, by "Type.field" (parts.go).
	parts map[string]*engine.Table
}

// Options are the graphql.Options a contract runtime reads, with their
// defaults applied.
type Options struct {
	MaxDepth, MaxFields, MaxPageSize int
	MaxGeneratedBytes                int
	Bounds                           exec.Bounds
	BaseURL                          string
}

// Schema returns the imported schema. The caller must not modify it.
func (rt *Runtime) Schema() *ast.Schema { return rt.schema }

// Executor returns the executor of the schema.
func (rt *Runtime) Executor() *exec.Executor { return rt.exec }

// compile builds the runtime of the contract project p within ctx (its
// rows bounded: budget.go) over tables, the tables package graphql
// compiled from p's model, sharing env's query cache.
func compile(ctx context.Context, p *model.Project, tables []*engine.Table, env *engine.Env, opt Options) (*Runtime, error) {
	s, err := contract.ParseContext(ctx, []byte(p.Contract.Document), contract.MaxDocumentBytes)
	if err != nil {
		return nil, fmt.Errorf("graphql: contract of project %s: %w", p.ID, err)
	}
	plan := contract.Interpret(s)
	if err := plan.Override(s, p.Contract.Mappings); err != nil {
		// The import checked the mappings against this document; serve
		// the interpretation rather than fail the whole runtime.
		plan = contract.Interpret(s)
	}
	plan.UseGenerators(p.Contract.Generators)
	if err := plan.CheckCells(p.Contract.GeneratedRows); err != nil { // a project stored before the bound
		return nil, fmt.Errorf("graphql: rows of project %s: %w", p.ID, err)
	}
	rt := &Runtime{opt: opt, env: env, schema: s.AST, plan: plan, tables: map[string]*engine.Table{}, entities: map[string]*contract.Entity{},
		seed: seedOf(p.Contract.SeedKey(p.ID)), values: gen.NewValuesAt(opt.BaseURL), directed: contract.DirectedValues(s.AST)}
	for _, t := range tables {
		rt.tables[t.Name] = t
		if mt := p.TableByName(t.Name); mt.Source != nil && mt.Source.Generated && p.Contract.RowsOf(t.Name) == 0 {
			v := emptyVariant
			t.Variant = &v
		}
	}
	for _, e := range plan.Entities {
		rt.entities[e.Type] = e
	}
	rt.links = contractLinks(plan, rt.tables)
	rt.parts = rt.partTables()
	if rt.data, err = generateRows(ctx, plan, p, rt.seed, rt.values, opt.MaxGeneratedBytes); err != nil {
		return nil, fmt.Errorf("graphql: rows of project %s: %w", p.ID, err)
	}
	rt.exec, err = exec.NewExecutor(exec.Executor{
		Schema:    s.AST,
		Resolvers: rt.contractResolvers(),
		MaxDepth:  opt.MaxDepth,
		MaxFields: opt.MaxFields,
		Bounds:    opt.Bounds,

		DocumentOrder: true,
		DirectPlan:    rt.contractDirect,
	})
	if err != nil {
		return nil, fmt.Errorf("graphql: runtime of project %s: %w", p.ID, err)
	}
	return rt, nil
}

// emptyVariant is the variant a generated table of no rows reads: its
// dataset's one placeholder row is of another.
const emptyVariant = "rows"

// seedOf derives the seed of a project's generated rows from its ID.
func seedOf(projectID string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(projectID))
	return h.Sum64()
}

// Pool returns the pool a request of rt reads: pool, behind the generated
// datasets of a contract project (rt's own). Callers outside the runtime
// that read a contract project's tables (previews, exports) use it too.
func (rt *Runtime) Pool(pool engine.Pool) engine.Pool {
	return contractPool{pool: pool, data: rt.data}
}

// newView returns a view of the pool (with the generated datasets) at
// overlay state st, on the query cache.
func (rt *Runtime) newView(pool engine.Pool, ov *engine.Overlay, st *engine.OverlayState, cacheable bool) *engine.View {
	return engine.NewView(rt.env, rt.Pool(pool), ov, st, cacheable)
}

// tableByID returns the compiled table tableID, or nil.
func (rt *Runtime) tableByID(tableID string) *engine.Table {
	for _, t := range rt.tables {
		if t.ID == tableID {
			return t
		}
	}
	return nil
}

// contractPool serves a contract project's generated datasets, then pool's.
type contractPool struct {
	pool engine.Pool
	data map[string]*dataset.Dataset
}

func (p contractPool) Dataset(code string) *dataset.Dataset {
	if d := p.data[code]; d != nil {
		return d
	}
	if p.pool == nil {
		return nil
	}
	return p.pool.Dataset(code)
}

// Plan returns the interpretation of the schema that rt serves (the
// import's, with the project's mappings and generators). The caller must
// not modify it.
func (rt *Runtime) Plan() *contract.Plan { return rt.plan }

// TablesOf returns the tables of the entity type, interface or union
// typ: the types whose rows a field of type typ answers.
func (rt *Runtime) TablesOf(typ string) []*engine.Table { return rt.tablesOf(typ) }

// ResolversOnly returns a copy of rt that answers through its resolvers
// alone, without the direct writers: the behaviour they must reproduce
// (the differential tests compare both).
func (rt *Runtime) ResolversOnly() (*Runtime, error) {
	slow := *rt
	var err error
	slow.exec, err = exec.NewExecutor(exec.Executor{Schema: rt.schema, Resolvers: slow.contractResolvers(),
		MaxDepth: rt.opt.MaxDepth, MaxFields: rt.opt.MaxFields, Bounds: rt.opt.Bounds, DocumentOrder: true})
	return &slow, err
}
