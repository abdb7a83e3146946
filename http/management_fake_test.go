package http

import (
	"context"
	"io"
	"strings"
	"time"

	"github.com/mockgql/mockgql/model"
)

// fakeManagement is the test-only fake of Management (see fakeModel for
// how the fakes answer).
type fakeManagement struct{ *fakeModel }

// newFakeManagement returns a fake Management with no calls yet.
func newFakeManagement() *fakeManagement {
	return &fakeManagement{&fakeModel{&fakeRecorder{}}}
}

func (f *fakeManagement) SignUp(_ context.Context, p Principal, email, password, name string) (model.User, *model.Account, error) {
	if err := f.record("SignUp", p, email, password, name); err != nil {
		return model.User{}, nil, err
	}
	return model.User{ID: "u_1", Email: email, Name: name}, &model.Account{ID: "acc_1", Name: email, Plan: model.PlanStarter,
		Members: []model.Member{{User: model.User{ID: "u_1", Email: email, Name: name}, Role: model.RoleOwner}}}, nil
}

func (f *fakeManagement) Login(_ context.Context, email, password, _ string) (model.User, *model.Account, error) {
	if err := f.record("Login", email, password); err != nil {
		return model.User{}, nil, err
	}
	return fixtureUser(), fixtureAccount(), nil
}

func (f *fakeManagement) Me(_ context.Context, p Principal) (model.User, error) {
	return fixtureUser(), f.record("Me", p)
}

func (f *fakeManagement) Account(_ context.Context, p Principal) (*model.Account, model.Usage, error) {
	if err := f.record("Account", p); err != nil {
		return nil, model.Usage{}, err
	}
	return fixtureAccount(), fixtureUsage(), nil
}

func (f *fakeManagement) SetPlan(_ context.Context, p Principal, plan model.Plan) (*model.Account, error) {
	if err := f.record("SetPlan", p, plan); err != nil {
		return nil, err
	}
	a := fixtureAccount()
	a.Plan = plan
	return a, nil
}

func (f *fakeManagement) InviteMember(_ context.Context, p Principal, email string, role model.Role) (model.Invitation, error) {
	return model.Invitation{ID: "inv_3", Email: email, Role: role}, f.record("InviteMember", p, email, role)
}

func (f *fakeManagement) SetMemberRole(_ context.Context, p Principal, userID string, role model.Role) (model.Member, error) {
	return model.Member{User: model.User{ID: userID, Email: "bob@example.com"}, Role: role}, f.record("SetMemberRole", p, userID, role)
}

func (f *fakeManagement) RemoveMember(_ context.Context, p Principal, userID string) error {
	return f.record("RemoveMember", p, userID)
}

func (f *fakeManagement) Projects(_ context.Context, p Principal) ([]*model.Project, error) {
	return []*model.Project{fixtureProject(), fixtureGuest()}, f.record("Projects", p)
}

func (f *fakeManagement) Project(_ context.Context, p Principal, id, slug string) (*model.Project, error) {
	if err := f.record("Project", p, id, slug); err != nil {
		return nil, err
	}
	if id == "prj_g" || slug == "guest-1" {
		return fixtureGuest(), nil
	}
	return fixtureProject(), nil
}

func (f *fakeManagement) CreateProject(_ context.Context, p Principal, name, slug string) (*model.Project, error) {
	if err := f.record("CreateProject", p, name, slug); err != nil {
		return nil, err
	}
	if slug == "" {
		slug = "made-from-name"
	}
	return &model.Project{ID: f.newID(), Slug: slug, Name: name, Kind: model.KindAccount, AccountID: "acc_1", CreatedAt: fixtureCreated}, nil
}

func (f *fakeManagement) SetAllowedOrigins(_ context.Context, p Principal, id string, origins []string) (*model.Project, error) {
	if err := f.record("SetAllowedOrigins", p, id, origins); err != nil {
		return nil, err
	}
	pr := fixtureProject()
	o, err := model.CheckAllowedOrigins(pr.Kind, origins)
	pr.AllowedOrigins = o
	return pr, err
}

func (f *fakeManagement) UpdateProject(_ context.Context, p Principal, id string, name, slug *string) (*model.Project, error) {
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

func (f *fakeManagement) DeleteProject(_ context.Context, p Principal, id string) error {
	return f.record("DeleteProject", p, id)
}

func (f *fakeManagement) UpdateTable(_ context.Context, p Principal, tableID string, patch TablePatch) (*model.Table, error) {
	if err := f.record("UpdateTable", p, tableID, patch); err != nil {
		return nil, err
	}
	return fixtureProject().UpdateTable(tableID, patch)
}

func (f *fakeManagement) DeleteTable(_ context.Context, p Principal, tableID string) error {
	return f.record("DeleteTable", p, tableID)
}

func (f *fakeManagement) UpdateAttribute(_ context.Context, p Principal, attributeID string, patch AttributePatch) (*model.Attribute, error) {
	if err := f.record("UpdateAttribute", p, attributeID, patch); err != nil {
		return nil, err
	}
	return fixtureProject().UpdateAttribute(attributeID, patch)
}

func (f *fakeManagement) DeleteAttribute(_ context.Context, p Principal, attributeID string) error {
	return f.record("DeleteAttribute", p, attributeID)
}

func (f *fakeManagement) DeleteRelation(_ context.Context, p Principal, relationID string) error {
	return f.record("DeleteRelation", p, relationID)
}

func (f *fakeManagement) CreateOperation(_ context.Context, p Principal, o model.Operation) (*model.Operation, error) {
	if err := f.record("CreateOperation", p, o); err != nil {
		return nil, err
	}
	o.ID = f.newID()
	return &o, fixtureProject().AddOperation(&o)
}

func (f *fakeManagement) UpdateOperation(_ context.Context, p Principal, operationID string, patch OperationPatch) (*model.Operation, error) {
	if err := f.record("UpdateOperation", p, operationID, patch); err != nil {
		return nil, err
	}
	return fixtureProject().UpdateOperation(operationID, patch)
}

func (f *fakeManagement) DeleteOperation(_ context.Context, p Principal, operationID string) error {
	return f.record("DeleteOperation", p, operationID)
}

func (f *fakeManagement) ResetMockData(_ context.Context, p Principal, projectID string) error {
	return f.record("ResetMockData", p, projectID)
}

func (f *fakeManagement) Sandboxes(_ context.Context, p Principal, projectID string) ([]model.Sandbox, error) {
	return nil, f.record("Sandboxes", p, projectID)
}

func (f *fakeManagement) ResetSandbox(_ context.Context, p Principal, projectID, name string) error {
	return f.record("ResetSandbox", p, projectID, name)
}

func (f *fakeManagement) DeleteSandbox(_ context.Context, p Principal, projectID, name string) error {
	return f.record("DeleteSandbox", p, projectID, name)
}

func (f *fakeManagement) SaveMockState(_ context.Context, p Principal, projectID, name, sandbox string) (model.MockState, error) {
	return model.MockState{Name: name}, f.record("SaveMockState", p, projectID, name, sandbox)
}

func (f *fakeManagement) MockStates(_ context.Context, p Principal, projectID string) ([]model.MockState, error) {
	return nil, f.record("MockStates", p, projectID)
}

func (f *fakeManagement) RestoreMockState(_ context.Context, p Principal, projectID, name, sandbox string) error {
	return f.record("RestoreMockState", p, projectID, name, sandbox)
}

func (f *fakeManagement) DeleteMockState(_ context.Context, p Principal, projectID, name string) error {
	return f.record("DeleteMockState", p, projectID, name)
}

func (f *fakeManagement) ExportOpenAPI(_ context.Context, p Principal, projectID, format string) (string, error) {
	return "openapi: 3.1.0\n", f.record("ExportOpenAPI", p, projectID, format)
}

func (f *fakeManagement) ImportOpenAPI(_ context.Context, p Principal, projectID, document string, schemas []string) ([]*model.Table, error) {
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

func (f *fakeManagement) ExportCodePackage(_ context.Context, p Principal, projectID, language string) (string, error) {
	return fakeZip, f.record("ExportCodePackage", p, projectID, language)
}

func (f *fakeManagement) SetSchemaBaseline(_ context.Context, p Principal, projectID string) error {
	return f.record("SetSchemaBaseline", p, projectID)
}

func (f *fakeManagement) SchemaChanges(_ context.Context, p Principal, projectID string) ([]model.SchemaChange, error) {
	return []model.SchemaChange{
		{Type: "FIELD_REMOVED", Criticality: model.ChangeBreaking, Path: "Query.products", Message: "Field Query.products was removed."},
		{Type: "FIELD_ADDED", Criticality: model.ChangeSafe, Path: "Query.allProducts", Message: "Field Query.allProducts: ProductPage! was added."},
	}, f.record("SchemaChanges", p, projectID)
}

func (f *fakeManagement) DeleteDataset(_ context.Context, p Principal, code string) error {
	return f.record("DeleteDataset", p, code)
}

// fakeImport is how the fake records a DatasetImport: its body as text.
type fakeImport struct {
	DatasetImport
	Body string
}

func (f *fakeManagement) ImportDataset(_ context.Context, p Principal, in DatasetImport) (DataSource, error) {
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

func (f *fakeManagement) APIKeys(_ context.Context, p Principal, projectID string) ([]model.APIKey, error) {
	expiring := fixtureKey()
	expiring.ID, expiring.ExpiresAt, expiring.LastUsedAt, expiring.Revoked = "key_2", fixtureUsed, time.Time{}, true
	return []model.APIKey{fixtureKey(), expiring}, f.record("APIKeys", p, projectID)
}

func (f *fakeManagement) CreateAPIKey(_ context.Context, p Principal, projectID, name string, scope model.Scope, expiresAt time.Time, maxActors int) (CreatedKey, error) {
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

func (f *fakeManagement) RevokeAPIKey(_ context.Context, p Principal, keyID string) (model.APIKey, error) {
	k := fixtureKey()
	k.ID, k.Revoked = keyID, true
	return k, f.record("RevokeAPIKey", p, keyID)
}

func (f *fakeManagement) DeleteAPIKey(_ context.Context, p Principal, keyID string) error {
	return f.record("DeleteAPIKey", p, keyID)
}

func (f *fakeManagement) SetPreviewSharing(_ context.Context, p Principal, projectID string, enabled bool) (*model.Project, error) {
	if err := f.record("SetPreviewSharing", p, projectID, enabled); err != nil {
		return nil, err
	}
	pr := fixtureProject()
	if !enabled {
		pr.ShareToken = ""
	}
	return pr, nil
}

func (f *fakeManagement) PreviewQuery(_ context.Context, p Principal, projectID, _ string, body []byte) (*model.RuntimeResult, error) {
	if err := f.record("PreviewQuery", p, projectID, string(body)); err != nil {
		return nil, err
	}
	if strings.Contains(string(body), "nope") {
		return &model.RuntimeResult{Status: 400, Body: []byte(`{"errors":[{"message":"Cannot query field \"nope\" on type \"Query\".","extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}`),
			GraphQLCode: model.CodeValidateFailed}, nil
	}
	return &model.RuntimeResult{Status: 200, Body: []byte(`{"data":{"products":{"total":3}}}`)}, nil
}

func (f *fakeManagement) RevokeMemberKeys(_ context.Context, p Principal, userID string) (int, error) {
	return 0, f.record("RevokeMemberKeys", p, userID)
}

func (f *fakeManagement) KeepSessionProject(_ context.Context, p Principal, projectID, accountID string) (*model.Project, error) {
	if err := f.record("KeepSessionProject", p, projectID, accountID); err != nil {
		return nil, err
	}
	pr := fixtureProject()
	pr.ID, pr.Kind, pr.AccountID, pr.ShareToken = projectID, model.KindAccount, "acc_1", ""
	if accountID != "" {
		pr.AccountID = accountID
	}
	return pr, nil
}
