package app

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/model"
)

// SDL-first projects (docs/using/contract.md): a project that serves a
// GraphQL schema the team already has. Reading the document is pure
// (contract); the project grain applies the import in one edit, so a
// refused import changes nothing.

// maxContractSuggestions bounds contractDatasetSuggestions.
const maxContractSuggestions = 20

// ImportGraphQLSchema makes the project serve sdl, an SDL document or an
// introspection result of at most contract.MaxDocumentBytes (EDITOR and
// above): the first import, or a new version whose changes from the last
// one it lists. The document is read before the grain is asked, so a bad
// one is refused (BAD_USER_INPUT naming line and column, or the construct;
// PAYLOAD_TOO_LARGE) without touching the project.
//
// seed, when not nil, sets the seed of the project's generated rows
// (model.Contract.Seed; "" back to the project's ID); nil keeps it.
func (s contracts) ImportGraphQLSchema(ctx context.Context, p model.Principal, projectID, sdl string, seed *string) (*model.ContractImport, error) {
	// The right to edit comes before the document, as for importOpenApi.
	pr, err := s.readProject(ctx, p, projectID, "")
	if err != nil {
		return nil, err
	}
	if err := s.mayEdit(ctx, p, pr); err != nil {
		return nil, err
	}
	in, doc, err := checkContract(ctx, pr, sdl)
	if err != nil {
		return nil, err
	}
	if seed != nil {
		if err := model.CheckContractSeed(*seed); err != nil {
			return nil, err
		}
	}
	a, err := s.access(ctx, p)
	if err != nil {
		return nil, err
	}
	version := 0
	if pr.Contract != nil {
		version = pr.Contract.Version
	}
	if in.Project, err = s.grains.Project(projectID, a).ImportContract(ctx, doc, version, seed); err != nil {
		return nil, err
	}
	if c := in.Project.Contract; c != nil && len(c.Mappings) > 0 { // the mappings kept from the last version
		if in.Report, err = contractReport(ctx, c.Document, c.Mappings); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// contractReport is the report of doc with maps applied.
func contractReport(ctx context.Context, doc string, maps []model.ContractMapping) ([]model.ContractField, error) {
	s, err := contract.ParseContext(ctx, []byte(doc), contract.MaxDocumentBytes)
	if err != nil {
		return nil, err
	}
	return contract.Report(s, maps), nil
}

// SetContractMapping changes how one root field of the contract project
// is served (EDITOR and above); a mapping with no shape, entity or args
// goes back to the interpretation.
func (s contracts) SetContractMapping(ctx context.Context, p model.Principal, projectID string, m model.ContractMapping) (*model.Project, error) {
	a, err := s.contractEditor(ctx, p, projectID)
	if err != nil {
		return nil, err
	}
	return s.grains.Project(projectID, a).SetContractMapping(ctx, m)
}

// SetContractGenerator chooses the generator of the field typ.field of
// the contract project (EDITOR and above); nil goes back to the
// document's directives or the values by meaning.
func (s contracts) SetContractGenerator(ctx context.Context, p model.Principal, projectID, typ, field string, g *model.Generator) (*model.Project, error) {
	a, err := s.contractEditor(ctx, p, projectID)
	if err != nil {
		return nil, err
	}
	return s.grains.Project(projectID, a).SetContractGenerator(ctx, typ, field, g)
}

// SetContractSeed sets the seed of the contract project's generated rows
// (EDITOR and above; "" back to the project's ID).
func (s contracts) SetContractSeed(ctx context.Context, p model.Principal, projectID, seed string) (*model.Project, error) {
	if err := model.CheckContractSeed(seed); err != nil {
		return nil, err
	}
	a, err := s.contractEditor(ctx, p, projectID)
	if err != nil {
		return nil, err
	}
	return s.grains.Project(projectID, a).SetContractSeed(ctx, seed)
}

// CheckGraphQLSchema reads sdl as ImportGraphQLSchema does and says what
// importing it would do, without importing: with a projectID (VIEWER and
// above), also the changes from that project's contract.
func (s contracts) CheckGraphQLSchema(ctx context.Context, p model.Principal, projectID, sdl string) (*model.ContractImport, error) {
	var pr *model.Project
	if projectID != "" {
		var err error
		if pr, err = s.readProject(ctx, p, projectID, ""); err != nil {
			return nil, err
		}
	}
	in, _, err := checkContract(ctx, pr, sdl)
	return in, err
}

// checkContract parses and interprets sdl within ctx (contract.ParseContext)
// and compares it with pr's contract (pr may be nil). It returns the
// import's report without its project, and the document as SDL (an
// introspection result printed). A document whose generated rows would
// hold more values than the bounds (at pr's row counts, else the default)
// is refused here as the import would refuse it.
func checkContract(ctx context.Context, pr *model.Project, sdl string) (*model.ContractImport, string, error) {
	s, err := contract.ParseContext(ctx, []byte(sdl), contract.MaxDocumentBytes)
	if err != nil {
		return nil, "", err
	}
	plan := contract.Interpret(s)
	rows := (&model.Contract{}).GeneratedRows
	if pr != nil && pr.Contract != nil {
		rows = pr.Contract.GeneratedRows
	}
	if err := plan.CheckCells(rows); err != nil {
		return nil, "", err
	}
	in := &model.ContractImport{Tables: plan.EntityNames(), Report: contract.Report(s, nil), Unsupported: plan.Unsupported(), Changes: []model.SchemaChange{}}
	if pr != nil && pr.Contract != nil {
		// The served document, parsed as the import parses it: with the
		// directives it uses and does not define (federation's,
		// graphql-faker's).
		prev, err := contract.ParseContext(ctx, []byte(pr.Contract.Document), contract.MaxDocumentBytes)
		if err != nil {
			return nil, "", err
		}
		in.Changes = graphql.DiffParsed(prev.AST, s.AST)
	}
	return in, s.SDL, nil
}

// CreateProjectFromSchema makes an account project that serves sdl: the
// document is read first, so one the import refuses makes no project; a
// project the grain then refuses the import for (a plan limit) is deleted
// again.
func (s contracts) CreateProjectFromSchema(ctx context.Context, p model.Principal, name, slug, sdl string, seed *string) (*model.Project, error) {
	if _, _, err := checkContract(ctx, nil, sdl); err != nil {
		return nil, err
	}
	if seed != nil {
		if err := model.CheckContractSeed(*seed); err != nil {
			return nil, err
		}
	}
	pr, err := s.createAccountProject(ctx, p, name, slug)
	if err != nil {
		return nil, err
	}
	in, err := s.ImportGraphQLSchema(ctx, p, pr.ID, sdl, seed)
	if err != nil {
		undo, cancel := undoContext(ctx)
		defer cancel()
		s.dropProject(undo, pr)
		return nil, err
	}
	return in.Project, nil
}

// SetContractRows sets how many rows the contract project generates for
// the entity typ (EDITOR and above; bounds in docs/reference/bounds.md).
func (s contracts) SetContractRows(ctx context.Context, p model.Principal, projectID, typ string, rows int) (*model.Project, error) {
	a, err := s.contractEditor(ctx, p, projectID)
	if err != nil {
		return nil, err
	}
	return s.grains.Project(projectID, a).SetContractRows(ctx, typ, rows)
}

// BindContractTable binds the entity typ of the contract project to the
// pool dataset importCode, one the caller may read (NOT_FOUND otherwise),
// or back to generated rows when importCode is "" (EDITOR and above).
func (s contracts) BindContractTable(ctx context.Context, p model.Principal, projectID, typ, importCode string) (*model.Project, error) {
	a, err := s.contractEditor(ctx, p, projectID)
	if err != nil {
		return nil, err
	}
	if importCode != "" {
		if _, err := s.readableDataset(ctx, p, importCode); err != nil {
			return nil, err
		}
	}
	return s.grains.Project(projectID, a).BindContractTable(ctx, typ, importCode)
}

// contractEditor checks the project ID and the caller, and returns the
// access the grain checks again.
func (s *core) contractEditor(ctx context.Context, p model.Principal, projectID string) (actors.Access, error) {
	if err := model.CheckID("projectId", projectID); err != nil {
		return actors.Access{}, err
	}
	if p.Anonymous() && !p.System {
		return actors.Access{}, model.Errorf(model.CodeUnauthenticated, "sign in, or use an API key or a session")
	}
	return s.access(ctx, p)
}

// readableDataset returns the dataset importCode as p sees the pool, or
// NOT_FOUND.
func (s *core) readableDataset(ctx context.Context, p model.Principal, importCode string) (model.DataSource, error) {
	all, err := s.dataSourcesFor(ctx, p)
	if err != nil {
		return model.DataSource{}, err
	}
	for _, d := range all {
		if d.ImportCode == importCode {
			return d, nil
		}
	}
	return model.DataSource{}, model.Errorf(model.CodeNotFound, "no dataset %q in the data pool", importCode)
}

// ContractDatasetSuggestions ranks the datasets p may read by how many
// fields of the contract project's entity typ they hold under a path of
// the same name (what bindContractTable reads), best first, at most
// maxContractSuggestions; datasets matching none are left out (VIEWER and
// above).
func (s contracts) ContractDatasetSuggestions(ctx context.Context, p model.Principal, projectID, typ string) ([]model.ContractSuggestion, error) {
	pr, err := s.readProject(ctx, p, projectID, "")
	if err != nil {
		return nil, err
	}
	fields, err := contractEntityFields(pr, typ)
	if err != nil {
		return nil, err
	}
	all, err := s.dataSourcesFor(ctx, p)
	if err != nil {
		return nil, err
	}
	out := []model.ContractSuggestion{}
	for _, d := range all {
		if sg := suggest(d, fields); len(sg.Matched) > 0 {
			out = append(out, sg)
		}
	}
	slices.SortStableFunc(out, func(a, b model.ContractSuggestion) int {
		return cmp.Or(cmp.Compare(len(b.Matched), len(a.Matched)), cmp.Compare(b.DataSource.RecordCount, a.DataSource.RecordCount),
			strings.Compare(a.DataSource.ImportCode, b.DataSource.ImportCode))
	})
	return out[:min(len(out), maxContractSuggestions)], nil
}

// contractEntityFields returns the field names of the entity typ of pr's
// contract but its key (every dataset row has an id, so it tells no
// dataset apart); BAD_USER_INPUT when pr has no contract or typ is no entity.
func contractEntityFields(pr *model.Project, typ string) ([]string, error) {
	if pr.Contract == nil {
		return nil, model.Errorf(model.CodeBadUserInput, "project %s serves no imported schema; import one with importGraphQLSchema", pr.Slug)
	}
	sc, err := contract.Parse([]byte(pr.Contract.Document), contract.MaxDocumentBytes)
	if err != nil {
		return nil, err
	}
	for _, e := range contract.Interpret(sc).Entities {
		if e.Type != typ {
			continue
		}
		names := make([]string, 0, len(e.Fields))
		for _, f := range e.Fields {
			if f.Name != e.Key {
				names = append(names, f.Name)
			}
		}
		return names, nil
	}
	return nil, model.Errorf(model.CodeBadUserInput, "%q is not an object type served as a table in this project's schema", typ)
}

// suggest is how well d fits fields: the fields a path of d names exactly
// (the path itself, or its first segment for an object), and the others.
func suggest(d model.DataSource, fields []string) model.ContractSuggestion {
	paths := map[string]bool{}
	for _, fp := range d.FieldPaths {
		paths[fp] = true
		if top, _, ok := strings.Cut(fp, "."); ok {
			paths[top] = true
		}
	}
	sg := model.ContractSuggestion{DataSource: d, Matched: []string{}, Missing: []string{}}
	for _, f := range fields {
		if paths[f] {
			sg.Matched = append(sg.Matched, f)
		} else {
			sg.Missing = append(sg.Missing, f)
		}
	}
	return sg
}
