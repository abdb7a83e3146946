package http

import (
	"context"
	_ "embed"
	"sync"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/model"
)

// contractSDL is the part of the management and public schemas that
// serves SDL-first projects (docs/using/contract.md): both surfaces embed
// it, so their contract fields are the same.
//
//go:embed schema/contract.graphql
var contractSDL string

// Contracts is what the fields of SDL-first projects ask (schema/
// contract.graphql). Every method checks the caller's rights like the
// model edits (EDITOR and above; a guest or session project: its own
// session) and refuses with a *model.Error; a refused import changes
// nothing.
type Contracts interface {
	// ImportGraphQLSchema makes the project serve sdl (SDL or an
	// introspection result, at most 1 MB): a first import, or a new
	// version of the project's contract whose Changes say what changed.
	// seed, when not nil, sets the seed of the generated rows
	// (model.Contract.Seed); nil keeps it.
	ImportGraphQLSchema(ctx context.Context, p Principal, projectID, sdl string, seed *string) (*model.ContractImport, error)
	// CheckGraphQLSchema is ImportGraphQLSchema without the import: the
	// report, and the changes from projectID's contract when projectID is
	// not empty. Its Project is nil.
	CheckGraphQLSchema(ctx context.Context, p Principal, projectID, sdl string) (*model.ContractImport, error)
	// CreateProjectFromSchema is createProject followed by the import of
	// sdl; a document the import refuses makes no project.
	CreateProjectFromSchema(ctx context.Context, p Principal, name, slug, sdl string, seed *string) (*model.Project, error)
	// SetContractRows sets how many rows are generated for an entity.
	SetContractRows(ctx context.Context, p Principal, projectID, typ string, rows int) (*model.Project, error)
	// BindContractTable binds an entity to a pool dataset, or back to
	// generated rows when importCode is "".
	BindContractTable(ctx context.Context, p Principal, projectID, typ, importCode string) (*model.Project, error)
	// SetContractMapping changes how one root field is served; a mapping
	// with no shape, entity or args removes the field's.
	SetContractMapping(ctx context.Context, p Principal, projectID string, m model.ContractMapping) (*model.Project, error)
	// SetContractGenerator chooses the generator of the field typ.field
	// (nil: back to the document's directives or the values by meaning).
	SetContractGenerator(ctx context.Context, p Principal, projectID, typ, field string, g *model.Generator) (*model.Project, error)
	// SetContractSeed sets the seed of the generated rows ("" the
	// project's ID).
	SetContractSeed(ctx context.Context, p Principal, projectID, seed string) (*model.Project, error)
	// ContractDatasetSuggestions ranks the datasets the caller may read by
	// how many fields of the entity their paths match, best first.
	ContractDatasetSuggestions(ctx context.Context, p Principal, projectID, typ string) ([]model.ContractSuggestion, error)
}

// contractResolvers resolve the root fields of schema/contract.graphql.
type contractResolvers struct {
	*Surface
	b Contracts
}

// roots returns the contract root fields by "Type.field"; every one needs
// a credential.
func (s contractResolvers) roots() map[string]rootFunc {
	return map[string]rootFunc{
		"Query.checkGraphQLSchema":         s.checkSchema,
		"Query.contractDatasetSuggestions": s.suggestions,
		"Mutation.importGraphQLSchema":     s.importSchema,
		"Mutation.setContractRows":         s.setRows,
		"Mutation.bindContractTable":       s.bind,
		"Mutation.setContractMapping":      s.setMapping,
		"Mutation.setContractGenerator":    s.setGenerator,
		"Mutation.setContractSeed":         s.setSeed,
	}
}

// importSchema resolves importGraphQLSchema.
func (s contractResolvers) importSchema(ctx context.Context, c *Call, args input) (any, error) {
	in, err := s.b.ImportGraphQLSchema(ctx, c.Principal, args.str("projectId"), args.str("sdl"), args.strPtr("seed"))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).contractImport(in), nil
}

// checkSchema resolves checkGraphQLSchema.
func (s contractResolvers) checkSchema(ctx context.Context, c *Call, args input) (any, error) {
	in, err := s.b.CheckGraphQLSchema(ctx, c.Principal, args.str("projectId"), args.str("sdl"))
	if err != nil {
		return nil, err
	}
	m := s.shaper(c).contractImport(in)
	m["tables"] = nonNil(in.Tables)
	return m, nil
}

// setRows resolves setContractRows.
func (s contractResolvers) setRows(ctx context.Context, c *Call, args input) (any, error) {
	rows, _ := args.integer("rows")
	p, err := s.b.SetContractRows(ctx, c.Principal, args.str("projectId"), args.str("type"), rows)
	if err != nil {
		return nil, err
	}
	return s.shaper(c).project(p), nil
}

// bind resolves bindContractTable; a null importCode unbinds.
func (s contractResolvers) bind(ctx context.Context, c *Call, args input) (any, error) {
	p, err := s.b.BindContractTable(ctx, c.Principal, args.str("projectId"), args.str("type"), args.str("importCode"))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).project(p), nil
}

// setMapping resolves setContractMapping.
func (s contractResolvers) setMapping(ctx context.Context, c *Call, args input) (any, error) {
	m := model.ContractMapping{Field: args.str("field"), Shape: args.str("shape"), Entity: args.str("entity")}
	if every, ok := args.integer("everySeconds"); ok {
		if every == 0 {
			every = -1 // 0 would keep the default silently: refused as out of range
		}
		m.EverySeconds = every
	}
	list, _ := args["args"].([]any)
	for _, item := range list {
		a := input(asMap(item))
		m.Args = append(m.Args, model.ContractArg{Name: a.str("name"), Role: a.str("role"), Field: a.str("field"), Op: a.str("op")})
	}
	p, err := s.b.SetContractMapping(ctx, c.Principal, args.str("projectId"), m)
	if err != nil {
		return nil, err
	}
	return s.shaper(c).project(p), nil
}

// setGenerator resolves setContractGenerator; a null generator resets.
func (s contractResolvers) setGenerator(ctx context.Context, c *Call, args input) (any, error) {
	g, err := generator(input(asMap(args["generator"])))
	if err != nil {
		return nil, err
	}
	p, err := s.b.SetContractGenerator(ctx, c.Principal, args.str("projectId"), args.str("type"), args.str("field"), g)
	if err != nil {
		return nil, err
	}
	return s.shaper(c).project(p), nil
}

// setSeed resolves setContractSeed.
func (s contractResolvers) setSeed(ctx context.Context, c *Call, args input) (any, error) {
	p, err := s.b.SetContractSeed(ctx, c.Principal, args.str("projectId"), args.str("seed"))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).project(p), nil
}

// suggestions resolves contractDatasetSuggestions.
func (s contractResolvers) suggestions(ctx context.Context, c *Call, args input) (any, error) {
	list, err := s.b.ContractDatasetSuggestions(ctx, c.Principal, args.str("projectId"), args.str("type"))
	if err != nil {
		return nil, err
	}
	sh := s.shaper(c)
	return shapeAll(list, func(x model.ContractSuggestion) any {
		return map[string]any{"dataSource": sh.dataSource(x.DataSource), "matchedFields": nonNil(x.Matched), "missingFields": nonNil(x.Missing)}
	}), nil
}

// contractImport shapes a GraphQLSchemaImport (or, with a nil Project, a
// GraphQLSchemaCheck).
func (sh shaper) contractImport(in *model.ContractImport) map[string]any {
	return map[string]any{
		"project":     sh.project(in.Project),
		"report":      shapeAll(in.Report, contractField),
		"unsupported": nonNil(in.Unsupported),
		"changes":     shapeAll(in.Changes, schemaChange),
	}
}

// contractField shapes a ContractField.
func contractField(f model.ContractField) any {
	args := make([]any, len(f.Args))
	for i, a := range f.Args {
		args[i] = map[string]any{"name": a.Name, "role": a.Role, "field": optString(a.Field), "op": optString(a.Op)}
	}
	return map[string]any{"root": f.Root, "name": f.Name, "shape": f.Shape, "entity": optString(f.Entity), "description": f.Description,
		"args": args, "mapped": f.Mapped, "everySeconds": optInt(f.EverySeconds)}
}

// contract shapes Project.contract: null for a project modelled from
// tables. Its tables and report read the document, parsed once per shaped
// project and only when one of them is selected.
func (sh shaper) contract(p *model.Project) any {
	c := p.Contract
	if c == nil {
		return nil
	}
	schema := sync.OnceValues(func() (*contract.Schema, error) {
		return contract.Parse([]byte(c.Document), contract.MaxDocumentBytes)
	})
	return map[string]any{
		"document": c.Document, "version": c.Version, "importedAt": dateTime(c.ImportedAt), "seed": seedOf(c),
		"tables": lazy(func(context.Context, map[string]any) (any, error) {
			s, err := schema()
			if err != nil {
				return nil, err
			}
			return contractTables(p, contract.Interpret(s)), nil
		}),
		"report": lazy(func(context.Context, map[string]any) (any, error) {
			s, err := schema()
			if err != nil {
				return nil, err
			}
			return shapeAll(contract.Report(s, c.Mappings), contractField), nil
		}),
		"unsupported": lazy(func(context.Context, map[string]any) (any, error) {
			s, err := schema()
			if err != nil {
				return nil, err
			}
			return nonNil(contract.UnsupportedOf(s, c.Mappings)), nil
		}),
	}
}

// contractTables shapes the ContractTables of p's entities, in the plan's
// order.
func contractTables(p *model.Project, pl *contract.Plan) []any {
	byName := map[string]string{}
	for _, t := range p.Tables {
		byName[t.Name] = t.ID
	}
	pl.UseGenerators(p.Contract.Generators)
	out := make([]any, 0, len(pl.Entities))
	for _, e := range pl.Entities {
		m := map[string]any{"type": e.Type, "tableId": optString(byName[e.Type]), "rows": p.Contract.RowsOf(e.Type), "importCode": nil}
		if ct := p.Contract.Table(e.Type); ct != nil {
			m["importCode"] = optString(ct.ImportCode)
		}
		gens := []any{}
		for _, g := range p.Contract.Generators {
			if g.Type == e.Type {
				gens = append(gens, map[string]any{"field": g.Field, "generator": map[string]any{"kind": g.Kind, "options": optJSON(g.Options)}})
			}
		}
		m["generators"] = gens
		m["fields"] = tableFields(e)
		out = append(out, m)
	}
	return out
}

// tableFields shapes the ContractTableFields of the entity e: the
// fields a generator fills, with it and where it comes from.
func tableFields(e *contract.Entity) []any {
	out := []any{}
	for _, f := range e.Fields {
		if !f.Generated() {
			continue
		}
		source := f.Source
		if source == contract.SourceMeaning {
			source = "meaning"
		}
		var opts any
		if len(f.Value.Options) > 0 {
			opts = f.Value.Options
		}
		out = append(out, map[string]any{"name": f.Name, "source": source, "generator": map[string]any{"kind": f.Value.Kind, "options": opts}})
	}
	return out
}

// seedOf is a contract's seed, or nil when it has none.
func seedOf(c *model.Contract) any {
	if c.Seed == "" {
		return nil
	}
	return c.Seed
}
