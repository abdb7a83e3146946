package http

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/mockgql/mockgql/model"
)

// The test-only fakes of the surfaces' backends record every call with its
// arguments and answer from fixtures: edits are applied with the model
// package to a fresh copy of fixtureProject. A method named in fail returns
// that error instead. The real backends are the use cases of package
// actors, tested end to end over HTTP elsewhere. They are safe for
// concurrent use.

// fakeRecorder records the calls of a fake and makes its IDs.
type fakeRecorder struct {
	mu    sync.Mutex
	calls []fakeCall
	fail  map[string]error
	ids   int
}

// fakeCall is one recorded backend call.
type fakeCall struct {
	Method string `json:"method"`
	Args   []any  `json:"args"`
}

// Fixed times of the fixtures.
var (
	fixtureCreated = time.Date(2026, 11, 20, 9, 30, 0, 123456789, time.UTC)
	fixtureUsed    = time.Date(2026, 11, 21, 10, 0, 0, 0, time.FixedZone("CET", 3600))
)

// record notes a call and returns the error set for it.
func (f *fakeRecorder) record(method string, args ...any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, fakeCall{Method: method, Args: args})
	return f.fail[method]
}

// recorded returns the calls so far.
func (f *fakeRecorder) recorded() []fakeCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeCall(nil), f.calls...)
}

// newID returns the next ID of an object made by the fake.
func (f *fakeRecorder) newID() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ids++
	return fmt.Sprintf("new_%d", f.ids)
}

func fixtureUser() model.User { return model.User{ID: "u_1", Email: "ada@example.com", Name: "Ada"} }

func fixtureAccount() *model.Account {
	return &model.Account{ID: "acc_1", Name: "Acme", Plan: model.PlanProfessional, Members: []model.Member{
		{User: fixtureUser(), Role: model.RoleOwner},
		{User: model.User{ID: "u_2", Email: "bob@example.com"}, Role: model.RoleEditor},
	}}
}

func fixtureUsage() model.Usage {
	return model.Usage{Requests: 42, Quota: 100000, Period: "month", ResetsAt: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}
}

// fixtureProject returns a fresh account project with one table of each
// kind of attribute mapping, relations, operations and a view.
func fixtureProject() *model.Project {
	variant := "2024"
	return &model.Project{
		ID: "prj_1", Slug: "shop", Name: "Shop", Kind: model.KindAccount, AccountID: "acc_1",
		ShareToken: "shr_account", CreatedAt: fixtureCreated,
		Tables: []*model.Table{
			{ID: "prj_1.tbl_p", Name: "Product", Source: &model.TableSource{ImportCode: "products"}, Attributes: []*model.Attribute{
				{ID: "prj_1.att_id", TableID: "prj_1.tbl_p", Name: "id", Type: model.TypeID, Mapping: model.MappingSource, SourcePath: "id"},
				{ID: "prj_1.att_price", TableID: "prj_1.tbl_p", Name: "price", Type: model.TypeFloat, Sortable: true, Filterable: true, Mapping: model.MappingSource, SourcePath: "price.amount"},
				{ID: "prj_1.att_cur", TableID: "prj_1.tbl_p", Name: "currency", Type: model.TypeString, Required: true, Mapping: model.MappingConstant, Constant: json.RawMessage(`"EUR"`)},
				{ID: "prj_1.att_label", TableID: "prj_1.tbl_p", Name: "label", Type: model.TypeString, Mapping: model.MappingComputed, Computed: "name + price"},
				{ID: "prj_1.att_mail", TableID: "prj_1.tbl_p", Name: "email", Type: model.TypeString, Mapping: model.MappingGenerated, Generator: &model.Generator{Kind: "person.email", Options: json.RawMessage(`{"domain":"example.com"}`)}},
				{ID: "prj_1.att_note", TableID: "prj_1.tbl_p", Name: "note", Type: model.TypeJSON, Mapping: model.MappingNone},
			}},
			{ID: "prj_1.tbl_o", Name: "Order", Source: &model.TableSource{ImportCode: "orders", Variant: &variant}, Attributes: []*model.Attribute{
				{ID: "prj_1.att_pid", TableID: "prj_1.tbl_o", Name: "productId", Type: model.TypeID, Mapping: model.MappingNone},
			}},
		},
		Relations: []*model.Relation{
			{ID: "prj_1.rel_1", SourceTableID: "prj_1.tbl_p", TargetTableID: "prj_1.tbl_o", Direction: model.Bidirectional, Cardinality: model.OneToMany,
				SourceAttribute: "id", TargetAttribute: "productId", FieldName: "orders", InverseFieldName: "product"},
			{ID: "prj_1.rel_2", SourceTableID: "prj_1.tbl_o", TargetTableID: "prj_1.tbl_p", Direction: model.SourceToTarget, Cardinality: model.OneToOne,
				SourceAttribute: "productId", TargetAttribute: "id", FieldName: "item"},
		},
		Operations: []*model.Operation{
			{ID: "prj_1.op_list", TableID: "prj_1.tbl_p", Name: "products", Kind: model.OpList, Enabled: true,
				Parameters: []model.Parameter{{Name: "minPrice", Attribute: "price", Operator: model.OpGte}}},
			{ID: "prj_1.op_one", TableID: "prj_1.tbl_p", Name: "product", Kind: model.OpSingle, Parameters: []model.Parameter{}},
		},
		Views: []*model.View{{ID: "prj_1.view_1", TableID: "prj_1.tbl_p", Kind: "LIST", Name: "Product list"}},
	}
}

// fixtureGuest returns a guest project of session ses_1.
func fixtureGuest() *model.Project {
	return &model.Project{ID: "prj_g", Slug: "guest-1", Name: "Try", Kind: model.KindGuest, ShareToken: "shr_guest",
		CreatedAt: fixtureCreated, ExpiresAt: fixtureCreated.Add(24 * time.Hour)}
}

func fixtureKey() model.APIKey {
	return model.APIKey{ID: "key_1", Name: "ci", ProjectID: "prj_1", AccountID: "acc_1", Scope: model.ScopeFull,
		Prefix: "mgq_AbCd", MaxActors: 5, CreatedAt: fixtureCreated, LastUsedAt: fixtureUsed, Hash: "secret-hash"}
}

// fakeModel is the test-only fake of what both GraphQL surfaces ask:
// ModelCreator, PoolReader and ProjectFields.
type fakeModel struct{ *fakeRecorder }

// fixtureDataSource returns a dataset whose Samples records its limit.
func (f *fakeModel) fixtureDataSource(code string) DataSource {
	docs := []json.RawMessage{
		json.RawMessage(`{"id":1,"price":{"amount":9.5}}`), json.RawMessage(`{"id":2,"price":{"amount":20}}`),
		json.RawMessage(`{"id":3,"price":{"amount":"7"}}`), json.RawMessage(`{"id":4}`),
	}
	return DataSource{ImportCode: code, Name: "Products", FieldPaths: []string{"id", "price.amount"}, RecordCount: 4,
		Variants: []Variant{{Name: "2024", RecordCount: 3}, {Name: "2025", RecordCount: 1}},
		Samples: model.SamplerFunc(func(limit int) []json.RawMessage {
			_ = f.record("Samples", limit)
			return docs[:min(limit, len(docs))]
		}),
	}
}

func (f *fakeModel) CreateTable(_ context.Context, p Principal, projectID, name string, source *model.TableSource) (*model.Table, error) {
	if err := f.record("CreateTable", p, projectID, name, source); err != nil {
		return nil, err
	}
	t := &model.Table{ID: f.newID(), Name: name, Source: source}
	return t, fixtureProject().AddTable(t)
}

func (f *fakeModel) CreateAttribute(_ context.Context, p Principal, a model.Attribute) (*model.Attribute, error) {
	if err := f.record("CreateAttribute", p, a); err != nil {
		return nil, err
	}
	a.ID = f.newID()
	return &a, fixtureProject().AddAttribute(&a)
}

func (f *fakeModel) CreateRelation(_ context.Context, p Principal, r model.Relation) (*model.Relation, error) {
	if err := f.record("CreateRelation", p, r); err != nil {
		return nil, err
	}
	r.ID = f.newID()
	return &r, fixtureProject().AddRelation(&r)
}

func (f *fakeModel) GenerateDefaultOperations(_ context.Context, p Principal, projectID, tableID string) ([]*model.Operation, error) {
	if err := f.record("GenerateDefaultOperations", p, projectID, tableID); err != nil {
		return nil, err
	}
	return fixtureProject().GenerateDefaultOperations(tableID, f.newID)
}

func (f *fakeModel) GenerateMissingViews(_ context.Context, p Principal, projectID string) ([]*model.View, error) {
	if err := f.record("GenerateMissingViews", p, projectID); err != nil {
		return nil, err
	}
	return fixtureProject().GenerateMissingViews(f.newID), nil
}

func (f *fakeModel) SDL(_ context.Context, p Principal, projectID string) (string, error) {
	return "type Query { products: ProductPage! }", f.record("SDL", p, projectID)
}

func (f *fakeModel) ProjectRole(_ context.Context, p Principal, projectID string) (model.Role, error) {
	return model.RoleViewer, f.record("ProjectRole", p, projectID)
}

func (f *fakeModel) PoolCodes(_ context.Context, p Principal, projectID string) (map[string]bool, model.ProjectKind, error) {
	return map[string]bool{"products": true}, model.KindAccount, f.record("PoolCodes", p, projectID)
}

func (f *fakeModel) DataSourcesFor(context.Context, Principal) ([]DataSource, error) {
	return []DataSource{f.fixtureDataSource("products")}, f.record("DataSources")
}
