package graphql

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/vektah/gqlparser/v2/formatter"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
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

// contractRT is what the runtime of a contract project adds to Runtime.
type contractRT struct {
	plan *contract.Plan
	// data are the generated datasets by import code.
	data map[string]*dataset.Dataset
	// tables are the compiled tables by entity type name.
	tables map[string]*engine.Table
	// entities are the plan's entities by type name.
	entities map[string]*contract.Entity
	// seed makes generated values of the project.
	seed uint64
	// values makes generated scalar values (newValues).
	values contract.Values
	// directed are the values graphql-faker's directives give fields, by
	// type and field (contract.DirectedValues), made once: the generators'
	// cache tells options apart by identity.
	directed map[[2]string]contract.Value
	// links are the lists of rows no foreign key holds, by "Type.field"
	// (contract_links.go).
	links map[string]*ctLink
}

// compileContract builds the runtime of the contract project p within ctx
// (its rows bounded: contract_budget.go).
func compileContract(ctx context.Context, rt *Runtime, p *model.Project) error {
	s, err := contract.ParseContext(ctx, []byte(p.Contract.Document), contract.MaxDocumentBytes)
	if err != nil {
		return fmt.Errorf("graphql: contract of project %s: %w", p.ID, err)
	}
	plan := contract.Interpret(s)
	if err := plan.Override(s, p.Contract.Mappings); err != nil {
		// The import checked the mappings against this document; serve
		// the interpretation rather than fail the whole runtime.
		plan = contract.Interpret(s)
	}
	plan.UseGenerators(p.Contract.Generators)
	if err := plan.CheckCells(p.Contract.GeneratedRows); err != nil { // a project stored before the bound
		return fmt.Errorf("graphql: rows of project %s: %w", p.ID, err)
	}
	ct := &contractRT{plan: plan, tables: map[string]*engine.Table{}, entities: map[string]*contract.Entity{}, seed: seedOf(p.ID), values: newValuesAt(rt.opt.BaseURL),
		directed: contract.DirectedValues(s.AST)}
	for _, t := range rt.model.tables {
		ct.tables[t.Name] = t
		if mt := p.TableByName(t.Name); mt.Source != nil && mt.Source.Generated && p.Contract.RowsOf(t.Name) == 0 {
			v := emptyVariant
			t.Variant = &v
		}
	}
	for _, e := range plan.Entities {
		ct.entities[e.Type] = e
	}
	ct.links = contractLinks(plan, ct.tables)
	if ct.data, err = generateRows(ctx, plan, p, ct.seed, ct.values, rt.opt.MaxGeneratedBytes); err != nil {
		return fmt.Errorf("graphql: rows of project %s: %w", p.ID, err)
	}
	rt.contract, rt.schema = ct, s.AST
	rt.exec, err = exec.NewExecutor(exec.Executor{
		Schema:    s.AST,
		Resolvers: rt.contractResolvers(),
		MaxDepth:  rt.opt.MaxDepth,
		MaxFields: rt.opt.MaxFields,
		Bounds:    rt.opt.Bounds,

		DocumentOrder: true,
		DirectPlan:    rt.contractDirect,
	})
	if err != nil {
		return fmt.Errorf("graphql: runtime of project %s: %w", p.ID, err)
	}
	var b strings.Builder
	formatter.NewFormatter(&b, formatter.WithIndent("  ")).FormatSchema(s.AST)
	rt.sdl = b.String()
	return nil
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
	if rt.contract == nil {
		return pool
	}
	return contractPool{pool: pool, data: rt.contract.data}
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

// GraphQLType names the object type of a row, for interfaces and unions
// (exec.Typer).
func (ro *rowObj) GraphQLType() string { return ro.tv.Table.Name }
