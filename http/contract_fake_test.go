package http

import (
	"context"

	"github.com/mockgql/mockgql/model"
)

// The test-only fake of Contracts, shared by both surfaces (fakeModel),
// and the cases that call the contract fields (golden files in
// testdata/surface/management and testdata/surface/public).

// fixtureContractReport is the report of the fixtures' contract.
var fixtureContractReport = []model.ContractField{
	{Root: model.RootQuery, Name: "books", Shape: "list", Entity: "Book", Description: "books: list of Book; genre → equality on genre"},
	{Root: model.RootQuery, Name: "search", Shape: "generated", Description: "search: generated (returns a scalar)"},
	{Root: model.RootMutation, Name: "createBook", Shape: "create", Entity: "Book", Description: "createBook: creates a Book; input → values"},
}

// fixtureContractImport is what the fake's imports answer.
func fixtureContractImport(withProject bool) *model.ContractImport {
	in := &model.ContractImport{Tables: []string{"Book", "Author"}, Report: fixtureContractReport,
		Unsupported: []string{"Query.search: generated (returns a scalar)"},
		Changes:     []model.SchemaChange{{Type: "FIELD_REMOVED", Criticality: model.ChangeBreaking, Path: "Book.isbn", Message: "field Book.isbn was removed"}}}
	if withProject {
		in.Project = fixtureContractProject()
	}
	return in
}

func (f *fakeModel) ImportGraphQLSchema(_ context.Context, p Principal, projectID, sdl string, seed *string) (*model.ContractImport, error) {
	if err := f.record("ImportGraphQLSchema", withSeed([]any{p, projectID, sdl}, seed)...); err != nil {
		return nil, err
	}
	return fixtureContractImport(true), nil
}

func (f *fakeModel) CheckGraphQLSchema(_ context.Context, p Principal, projectID, sdl string) (*model.ContractImport, error) {
	if err := f.record("CheckGraphQLSchema", p, projectID, sdl); err != nil {
		return nil, err
	}
	return fixtureContractImport(false), nil
}

// withSeed is args with the seed when one was given, so that the
// recordings of calls without one stay as they were.
func withSeed(args []any, seed *string) []any {
	if seed != nil {
		args = append(args, "seed="+*seed)
	}
	return args
}

func (f *fakeModel) SetContractSeed(_ context.Context, p Principal, projectID, seed string) (*model.Project, error) {
	if err := f.record("SetContractSeed", p, projectID, seed); err != nil {
		return nil, err
	}
	return fixtureContractProject(), nil
}

func (f *fakeModel) CreateProjectFromSchema(_ context.Context, p Principal, name, slug, sdl string, seed *string) (*model.Project, error) {
	if err := f.record("CreateProjectFromSchema", withSeed([]any{p, name, slug, sdl}, seed)...); err != nil {
		return nil, err
	}
	return fixtureContractProject(), nil
}

func (f *fakeModel) SetContractRows(_ context.Context, p Principal, projectID, typ string, rows int) (*model.Project, error) {
	if err := f.record("SetContractRows", p, projectID, typ, rows); err != nil {
		return nil, err
	}
	return fixtureContractProject(), nil
}

func (f *fakeModel) BindContractTable(_ context.Context, p Principal, projectID, typ, importCode string) (*model.Project, error) {
	if err := f.record("BindContractTable", p, projectID, typ, importCode); err != nil {
		return nil, err
	}
	return fixtureContractProject(), nil
}

func (f *fakeModel) ContractDatasetSuggestions(_ context.Context, p Principal, projectID, typ string) ([]model.ContractSuggestion, error) {
	if err := f.record("ContractDatasetSuggestions", p, projectID, typ); err != nil {
		return nil, err
	}
	return []model.ContractSuggestion{{DataSource: f.fixtureDataSource("books"), Matched: []string{"title", "price"}, Missing: []string{"isbn"}}}, nil
}

// fixtureContractSDL is the fixtures' contract document.
const fixtureContractSDL = `type Query { books(genre: String): [Book!]! search(q: String): String }
type Mutation { createBook(title: String!): Book! }
type Book { id: ID! title: String! genre: String author: Author }
type Author { id: ID! name: String! books: [Book!]! }`

// fixtureContractProject is a contract project: Book bound to a dataset,
// Author with 5 generated rows.
func fixtureContractProject() *model.Project {
	p := fixtureProject()
	p.Tables = []*model.Table{{ID: "prj_1.tbook", Name: "Book", Source: &model.TableSource{ImportCode: "books"}, Attributes: []*model.Attribute{}}}
	p.Relations, p.Operations, p.Views = []*model.Relation{}, []*model.Operation{}, []*model.View{}
	p.Contract = &model.Contract{Document: fixtureContractSDL, Version: 2, ImportedAt: fixtureUsed,
		Tables:   []model.ContractTable{{Type: "Book", Rows: 20, ImportCode: "books"}, {Type: "Author", Rows: 5}},
		Mappings: []model.ContractMapping{{Field: "Query.books", Args: []model.ContractArg{{Name: "genre", Role: "ignored"}}}}}
	return p
}

// contractFields select every field of the contract types.
const contractFields = `fragment C on Contract { document version importedAt tables { type tableId rows importCode }
	report { root name shape entity description args { name role field op } mapped } unsupported }`

// contractCases call the contract fields on both surfaces.
var contractCases = []surfaceCase{
	{name: "importGraphQLSchema", query: `mutation { importGraphQLSchema(projectId: "prj_1", sdl: "type Query { a: Int }") {
		project { id contract { ...C } } report { root name shape entity description } unsupported changes { type criticality path message } } } ` + contractFields},
	{name: "importGraphQLSchema_refused", query: `mutation { importGraphQLSchema(projectId: "prj_1", sdl: "type Query {") { unsupported } }`,
		fail: map[string]error{"ImportGraphQLSchema": model.Errorf(model.CodeBadUserInput, "line 1, column 13: Expected Name, found <EOF>")}},
	{name: "importGraphQLSchema_seed", query: `mutation { importGraphQLSchema(projectId: "prj_1", sdl: "type Query { a: Int }", seed: "team-42") { project { id } } }`},
	{name: "setContractSeed", query: `mutation { setContractSeed(projectId: "prj_1", seed: "team-42") { id } }`},
	{name: "checkGraphQLSchema", query: `{ checkGraphQLSchema(projectId: "prj_1", sdl: "type Query { a: Int }") {
		tables report { name shape } unsupported changes { criticality path } } }`},
	{name: "setContractRows", query: `mutation { setContractRows(projectId: "prj_1", type: "Author", rows: 5) { contract { ...C } } } ` + contractFields},
	{name: "bindContractTable", query: `mutation { bindContractTable(projectId: "prj_1", type: "Book", importCode: "books") { contract { tables { type importCode } } } }`},
	{name: "bindContractTable_unbind", query: `mutation { bindContractTable(projectId: "prj_1", type: "Book", importCode: null) { id } }`},
	{name: "contractDatasetSuggestions", query: `{ contractDatasetSuggestions(projectId: "prj_1", type: "Book") {
		dataSource { importCode recordCount } matchedFields missingFields } }`},
}

func init() {
	managementCases = append(managementCases, contractCases...)
	managementCases = append(managementCases, surfaceCase{name: "createProject_sdl",
		query: `mutation { createProject(name: "Books", sdl: "type Query { a: Int }") { id contract { version } } }`})
	managementCases = append(managementCases, surfaceCase{name: "createProject_sdl_seed",
		query: `mutation { createProject(name: "Books", sdl: "type Query { a: Int }", seed: "team-42") { id contract { version seed } } }`})
	publicCases = append(publicCases, contractCases...)
}

func (f *fakeModel) SetContractMapping(_ context.Context, p Principal, projectID string, m model.ContractMapping) (*model.Project, error) {
	if err := f.record("SetContractMapping", p, projectID, m); err != nil {
		return nil, err
	}
	return fixtureContractProject(), nil
}

func (f *fakeModel) SetContractGenerator(_ context.Context, p Principal, projectID, typ, field string, g *model.Generator) (*model.Project, error) {
	if err := f.record("SetContractGenerator", p, projectID, typ, field, g); err != nil {
		return nil, err
	}
	return fixtureContractProject(), nil
}

func init() {
	c := surfaceCase{name: "setContractMapping", query: `mutation { setContractMapping(projectId: "prj_1", field: "Query.books", shape: "list",
		args: [{name: "genre", role: "eq", field: "genre"}]) { contract { report { name shape args { name role field op } mapped } } } }`}
	managementCases = append(managementCases, c)
	publicCases = append(publicCases, c)
	for _, g := range []surfaceCase{
		{name: "setContractGenerator", query: `mutation { setContractGenerator(projectId: "prj_1", type: "Book", field: "title",
			generator: {kind: "examples", options: {values: ["Dune", "Emma"]}}) { contract { tables { type generators { field generator { kind options } } } } } }`},
		{name: "setContractGenerator_reset", query: `mutation { setContractGenerator(projectId: "prj_1", type: "Book", field: "title", generator: null) { id } }`},
	} {
		managementCases = append(managementCases, g)
		publicCases = append(publicCases, g)
	}
}
