package http

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mockgql/mockgql/model"
)

// fakeBackend is a test-only, in-memory fake of Backend for the surface
// tests; the real Backend is the actor grains', tested end to end over HTTP
// elsewhere. It records every call with its arguments and answers from
// fixtures: edits are applied with the model package to a fresh copy of
// fixtureProject. A method named in fail returns that error instead. It is
// safe for concurrent use.
type fakeBackend struct {
	mu    sync.Mutex
	calls []fakeCall
	fail  map[string]error
	ids   int
}

// fakeCall is one recorded Backend call.
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
func (f *fakeBackend) record(method string, args ...any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, fakeCall{Method: method, Args: args})
	return f.fail[method]
}

// recorded returns the calls so far.
func (f *fakeBackend) recorded() []fakeCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeCall(nil), f.calls...)
}

// newID returns the next ID of an object made by the fake.
func (f *fakeBackend) newID() string {
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

// fixtureDataSource returns a dataset whose Samples records its limit.
func (f *fakeBackend) fixtureDataSource(code string) DataSource {
	docs := []json.RawMessage{
		json.RawMessage(`{"id":1,"price":{"amount":9.5}}`), json.RawMessage(`{"id":2,"price":{"amount":20}}`),
		json.RawMessage(`{"id":3,"price":{"amount":"7"}}`), json.RawMessage(`{"id":4}`),
	}
	return DataSource{ImportCode: code, Name: "Products", FieldPaths: []string{"id", "price.amount"}, RecordCount: 4,
		Variants: []Variant{{Name: "2024", RecordCount: 3}, {Name: "2025", RecordCount: 1}},
		Samples: func(limit int) []json.RawMessage {
			_ = f.record("Samples", limit)
			return docs[:min(limit, len(docs))]
		},
	}
}

func (f *fakeBackend) SignUp(_ context.Context, p Principal, email, password, name string) (model.User, *model.Account, error) {
	if err := f.record("SignUp", p, email, password, name); err != nil {
		return model.User{}, nil, err
	}
	return model.User{ID: "u_1", Email: email, Name: name}, &model.Account{ID: "acc_1", Name: email, Plan: model.PlanStarter,
		Members: []model.Member{{User: model.User{ID: "u_1", Email: email, Name: name}, Role: model.RoleOwner}}}, nil
}

func (f *fakeBackend) Login(_ context.Context, email, password, _ string) (model.User, *model.Account, error) {
	if err := f.record("Login", email, password); err != nil {
		return model.User{}, nil, err
	}
	return fixtureUser(), fixtureAccount(), nil
}

func (f *fakeBackend) Me(_ context.Context, p Principal) (model.User, error) {
	return fixtureUser(), f.record("Me", p)
}

func (f *fakeBackend) Account(_ context.Context, p Principal) (*model.Account, model.Usage, error) {
	if err := f.record("Account", p); err != nil {
		return nil, model.Usage{}, err
	}
	return fixtureAccount(), fixtureUsage(), nil
}

func (f *fakeBackend) SetPlan(_ context.Context, p Principal, plan model.Plan) (*model.Account, error) {
	if err := f.record("SetPlan", p, plan); err != nil {
		return nil, err
	}
	a := fixtureAccount()
	a.Plan = plan
	return a, nil
}

func (f *fakeBackend) InviteMember(_ context.Context, p Principal, email string, role model.Role) (model.Member, error) {
	return model.Member{User: model.User{ID: "u_3", Email: email}, Role: role}, f.record("InviteMember", p, email, role)
}

func (f *fakeBackend) SetMemberRole(_ context.Context, p Principal, userID string, role model.Role) (model.Member, error) {
	return model.Member{User: model.User{ID: userID, Email: "bob@example.com"}, Role: role}, f.record("SetMemberRole", p, userID, role)
}

func (f *fakeBackend) RemoveMember(_ context.Context, p Principal, userID string) error {
	return f.record("RemoveMember", p, userID)
}

func (f *fakeBackend) Projects(_ context.Context, p Principal) ([]*model.Project, error) {
	return []*model.Project{fixtureProject(), fixtureGuest()}, f.record("Projects", p)
}

func (f *fakeBackend) Project(_ context.Context, p Principal, id, slug string) (*model.Project, error) {
	if err := f.record("Project", p, id, slug); err != nil {
		return nil, err
	}
	if id == "prj_g" || slug == "guest-1" {
		return fixtureGuest(), nil
	}
	return fixtureProject(), nil
}

func (f *fakeBackend) CreateProject(_ context.Context, p Principal, name, slug string) (*model.Project, error) {
	if err := f.record("CreateProject", p, name, slug); err != nil {
		return nil, err
	}
	if slug == "" {
		slug = "made-from-name"
	}
	return &model.Project{ID: f.newID(), Slug: slug, Name: name, Kind: model.KindAccount, AccountID: "acc_1", CreatedAt: fixtureCreated}, nil
}

func (f *fakeBackend) SetAllowedOrigins(_ context.Context, p Principal, id string, origins []string) (*model.Project, error) {
	if err := f.record("SetAllowedOrigins", p, id, origins); err != nil {
		return nil, err
	}
	pr := fixtureProject()
	o, err := model.CheckAllowedOrigins(pr.Kind, origins)
	pr.AllowedOrigins = o
	return pr, err
}

func (f *fakeBackend) UpdateProject(_ context.Context, p Principal, id string, name, slug *string) (*model.Project, error) {
	if err := f.record("UpdateProject", p, id, name, slug); err != nil {
		return nil, err
	}
	pr := fixtureProject()
	if name != nil {
		pr.Name = *name
	}
	if slug != nil {
		pr.Slug = *slug
	}
	return pr, nil
}

func (f *fakeBackend) DeleteProject(_ context.Context, p Principal, id string) error {
	return f.record("DeleteProject", p, id)
}

func (f *fakeBackend) CreateGuestProject(_ context.Context, p Principal, name string) (*model.Project, string, error) {
	if err := f.record("CreateGuestProject", p, name); err != nil {
		return nil, "", err
	}
	session := p.SessionID
	if session == "" || session == "ses_stale" {
		session = "ses_new"
	}
	return fixtureGuest(), session, nil
}

func (f *fakeBackend) CreateTable(_ context.Context, p Principal, projectID, name string, source *model.TableSource) (*model.Table, error) {
	if err := f.record("CreateTable", p, projectID, name, source); err != nil {
		return nil, err
	}
	t := &model.Table{ID: f.newID(), Name: name, Source: source}
	return t, fixtureProject().AddTable(t)
}

func (f *fakeBackend) UpdateTable(_ context.Context, p Principal, tableID string, patch TablePatch) (*model.Table, error) {
	if err := f.record("UpdateTable", p, tableID, patch); err != nil {
		return nil, err
	}
	return fixtureProject().UpdateTable(tableID, patch)
}

func (f *fakeBackend) DeleteTable(_ context.Context, p Principal, tableID string) error {
	return f.record("DeleteTable", p, tableID)
}

func (f *fakeBackend) CreateAttribute(_ context.Context, p Principal, a model.Attribute) (*model.Attribute, error) {
	if err := f.record("CreateAttribute", p, a); err != nil {
		return nil, err
	}
	a.ID = f.newID()
	return &a, fixtureProject().AddAttribute(&a)
}

func (f *fakeBackend) UpdateAttribute(_ context.Context, p Principal, attributeID string, patch AttributePatch) (*model.Attribute, error) {
	if err := f.record("UpdateAttribute", p, attributeID, patch); err != nil {
		return nil, err
	}
	return fixtureProject().UpdateAttribute(attributeID, patch)
}

func (f *fakeBackend) DeleteAttribute(_ context.Context, p Principal, attributeID string) error {
	return f.record("DeleteAttribute", p, attributeID)
}

func (f *fakeBackend) CreateRelation(_ context.Context, p Principal, r model.Relation) (*model.Relation, error) {
	if err := f.record("CreateRelation", p, r); err != nil {
		return nil, err
	}
	r.ID = f.newID()
	return &r, fixtureProject().AddRelation(&r)
}

func (f *fakeBackend) DeleteRelation(_ context.Context, p Principal, relationID string) error {
	return f.record("DeleteRelation", p, relationID)
}

func (f *fakeBackend) GenerateDefaultOperations(_ context.Context, p Principal, projectID, tableID string) ([]*model.Operation, error) {
	if err := f.record("GenerateDefaultOperations", p, projectID, tableID); err != nil {
		return nil, err
	}
	return fixtureProject().GenerateDefaultOperations(tableID, f.newID)
}

func (f *fakeBackend) CreateOperation(_ context.Context, p Principal, o model.Operation) (*model.Operation, error) {
	if err := f.record("CreateOperation", p, o); err != nil {
		return nil, err
	}
	o.ID = f.newID()
	return &o, fixtureProject().AddOperation(&o)
}

func (f *fakeBackend) UpdateOperation(_ context.Context, p Principal, operationID string, patch OperationPatch) (*model.Operation, error) {
	if err := f.record("UpdateOperation", p, operationID, patch); err != nil {
		return nil, err
	}
	return fixtureProject().UpdateOperation(operationID, patch)
}

func (f *fakeBackend) DeleteOperation(_ context.Context, p Principal, operationID string) error {
	return f.record("DeleteOperation", p, operationID)
}

func (f *fakeBackend) GenerateMissingViews(_ context.Context, p Principal, projectID string) ([]*model.View, error) {
	if err := f.record("GenerateMissingViews", p, projectID); err != nil {
		return nil, err
	}
	return fixtureProject().GenerateMissingViews(f.newID), nil
}

func (f *fakeBackend) ResetMockData(_ context.Context, p Principal, projectID string) error {
	return f.record("ResetMockData", p, projectID)
}

func (f *fakeBackend) SDL(_ context.Context, p Principal, projectID string) (string, error) {
	return "type Query { products: ProductPage! }", f.record("SDL", p, projectID)
}

func (f *fakeBackend) ExportOpenAPI(_ context.Context, p Principal, projectID, format string) (string, error) {
	return "openapi: 3.1.0\n", f.record("ExportOpenAPI", p, projectID, format)
}

func (f *fakeBackend) ImportOpenAPI(_ context.Context, p Principal, projectID, document string, schemas []string) ([]*model.Table, error) {
	if err := f.record("ImportOpenAPI", p, projectID, document, schemas); err != nil {
		return nil, err
	}
	id := f.newID()
	return []*model.Table{{ID: id, Name: "Pet", Attributes: []*model.Attribute{
		{ID: id + ".a1", TableID: id, Name: "id", Type: model.TypeID, Required: true, Mapping: model.MappingNone, SourcePath: "id"},
		{ID: id + ".a2", TableID: id, Name: "ownerCity", Type: model.TypeString, Mapping: model.MappingNone, SourcePath: "owner.city"},
	}}}, nil
}

// fakeZip is an empty zip archive in base64.
const fakeZip = "UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA=="

func (f *fakeBackend) ExportCodePackage(_ context.Context, p Principal, projectID, language string) (string, error) {
	return fakeZip, f.record("ExportCodePackage", p, projectID, language)
}

func (f *fakeBackend) SetSchemaBaseline(_ context.Context, p Principal, projectID string) error {
	return f.record("SetSchemaBaseline", p, projectID)
}

func (f *fakeBackend) SchemaChanges(_ context.Context, p Principal, projectID string) ([]model.SchemaChange, error) {
	return []model.SchemaChange{
		{Type: "FIELD_REMOVED", Criticality: model.ChangeBreaking, Path: "Query.products", Message: "Field Query.products was removed."},
		{Type: "FIELD_ADDED", Criticality: model.ChangeSafe, Path: "Query.allProducts", Message: "Field Query.allProducts: ProductPage! was added."},
	}, f.record("SchemaChanges", p, projectID)
}

func (f *fakeBackend) DataSources(context.Context) ([]DataSource, error) {
	return []DataSource{f.fixtureDataSource("products")}, f.record("DataSources")
}

func (f *fakeBackend) DataSourcesFor(context.Context, Principal) ([]DataSource, error) {
	return []DataSource{f.fixtureDataSource("products")}, f.record("DataSources")
}

func (f *fakeBackend) DeleteDataset(_ context.Context, p Principal, code string) error {
	return f.record("DeleteDataset", p, code)
}

// fakeImport is how the fake records a DatasetImport: its body as text.
type fakeImport struct {
	DatasetImport
	Body string
}

func (f *fakeBackend) ImportDataset(_ context.Context, p Principal, in DatasetImport) (DataSource, error) {
	body, err := io.ReadAll(in.Body)
	if err != nil {
		return DataSource{}, err
	}
	in.Body = nil
	if err := f.record("ImportDataset", p, fakeImport{in, string(body)}); err != nil {
		return DataSource{}, err
	}
	return f.fixtureDataSource(in.ImportCode), nil
}

func (f *fakeBackend) APIKeys(_ context.Context, p Principal, projectID string) ([]model.APIKey, error) {
	expiring := fixtureKey()
	expiring.ID, expiring.ExpiresAt, expiring.LastUsedAt, expiring.Revoked = "key_2", fixtureUsed, time.Time{}, true
	return []model.APIKey{fixtureKey(), expiring}, f.record("APIKeys", p, projectID)
}

func (f *fakeBackend) CreateAPIKey(_ context.Context, p Principal, projectID, name string, scope model.Scope, expiresAt time.Time, maxActors int) (CreatedKey, error) {
	if err := f.record("CreateAPIKey", p, projectID, name, scope, expiresAt, maxActors); err != nil {
		return CreatedKey{}, err
	}
	k := fixtureKey()
	k.ProjectID, k.Name, k.Scope, k.ExpiresAt, k.LastUsedAt = projectID, name, scope, expiresAt, time.Time{}
	if maxActors > 0 {
		k.MaxActors = maxActors
	}
	return CreatedKey{Key: k, Value: "mgq_AbCdsecret"}, nil
}

func (f *fakeBackend) RevokeAPIKey(_ context.Context, p Principal, keyID string) (model.APIKey, error) {
	k := fixtureKey()
	k.ID, k.Revoked = keyID, true
	return k, f.record("RevokeAPIKey", p, keyID)
}

func (f *fakeBackend) DeleteAPIKey(_ context.Context, p Principal, keyID string) error {
	return f.record("DeleteAPIKey", p, keyID)
}

func (f *fakeBackend) CreateSessionProject(_ context.Context, p Principal, name string) (model.SessionProject, string, error) {
	if err := f.record("CreateSessionProject", p, name); err != nil {
		return model.SessionProject{}, "", err
	}
	session := p.SessionID
	if session == "" {
		session = "ses_new"
	}
	pr := fixtureGuest()
	pr.Kind = model.KindSession
	return model.SessionProject{Project: pr, AdoptionToken: "adt_fixture"}, session, nil
}

func (f *fakeBackend) CreateAdoptionLink(_ context.Context, p Principal, projectID string) (model.SessionProject, error) {
	if err := f.record("CreateAdoptionLink", p, projectID); err != nil {
		return model.SessionProject{}, err
	}
	pr := fixtureGuest()
	pr.Kind = model.KindSession
	return model.SessionProject{Project: pr, AdoptionToken: "adt_fixture2"}, nil
}

func (f *fakeBackend) SessionProject(_ context.Context, p Principal) (*model.Project, error) {
	if err := f.record("SessionProject", p); err != nil {
		return nil, err
	}
	return nil, nil
}

func (f *fakeBackend) RuntimeList(_ context.Context, p Principal, projectID string, in model.RuntimeList) (model.RuntimeListResult, error) {
	if err := f.record("RuntimeList", p, projectID, in.Operation); err != nil {
		return model.RuntimeListResult{}, err
	}
	return model.RuntimeListResult{Items: []json.RawMessage{[]byte(`{"id":"1"}`)}, Total: 1, Page: 1, PageSize: 20, Errors: []json.RawMessage{}}, nil
}

func (f *fakeBackend) SetPreviewSharing(_ context.Context, p Principal, projectID string, enabled bool) (*model.Project, error) {
	if err := f.record("SetPreviewSharing", p, projectID, enabled); err != nil {
		return nil, err
	}
	pr := fixtureProject()
	if !enabled {
		pr.ShareToken = ""
	}
	return pr, nil
}

func (f *fakeBackend) PreviewQuery(_ context.Context, p Principal, projectID string, body []byte) (*model.RuntimeResult, error) {
	if err := f.record("PreviewQuery", p, projectID, string(body)); err != nil {
		return nil, err
	}
	if strings.Contains(string(body), "nope") {
		return &model.RuntimeResult{Status: 400, Body: []byte(`{"errors":[{"message":"Cannot query field \"nope\" on type \"Query\".","extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}`),
			GraphQLCode: model.ErrValidateFailed}, nil
	}
	return &model.RuntimeResult{Status: 200, Body: []byte(`{"data":{"products":{"total":3}}}`)}, nil
}
