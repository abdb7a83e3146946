package http

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/model"
)

// modelFragments select every field of the API's types, by fragment name.
var modelFragments = map[string]string{
	"P": `fragment P on Project { id slug name kind accountId shareToken previewUrl previewSharing runtimeUrl expiresAt createdAt sdl
  tables { ...T } relations { ...R } operations { ...O } views { ...V } }`,
	"T": `fragment T on Table { id name ready source { importCode variant } attributes { ...A } }`,
	"A": `fragment A on Attribute { id tableId name type sortable filterable required mappingType
  sourceMapping { path } constantValue computedExpression generator { kind options } }`,
	"R": `fragment R on Relation { id sourceTableId targetTableId direction cardinality sourceAttribute targetAttribute fieldName inverseFieldName }`,
	"O": `fragment O on Operation { id tableId name kind enabled parameters { name attribute operator } }`,
	"V": `fragment V on View { id tableId kind name }`,
	"D": `fragment D on DataSource { importCode name fieldPaths recordCount variants { name recordCount } sampleDocuments }`,
	"K": `fragment K on ApiKey { id name projectId scope prefix expiresAt revoked maxActors createdAt lastUsedAt }`,
	"U": `fragment U on Account { id name plan members { user { id email name } role } usage { requests quota period resetsAt } }`,
}

// fragmentSpread matches a fragment fragmentSpread.
var fragmentSpread = regexp.MustCompile(`\.\.\.([A-Z])\b`)

// withFragments returns query followed by the modelFragments it spreads,
// directly or through other fragments (GraphQL refuses unused fragments).
func withFragments(query string) string {
	added := map[string]bool{}
	for text := query; ; {
		var next []string
		for _, m := range fragmentSpread.FindAllStringSubmatch(text, -1) {
			if !added[m[1]] {
				added[m[1]] = true
				next = append(next, modelFragments[m[1]])
			}
		}
		if len(next) == 0 {
			return query
		}
		text = strings.Join(next, "\n")
		query += "\n" + text
	}
}

// managementCases call every operation of the management API, as the
// signed-in user u_1 unless they say otherwise.
var managementCases = []surfaceCase{
	{name: "me", query: `{ me { id email name } }`},
	{name: "me_api_key", principal: &Principal{KeyProjectID: "prj_1", KeyScope: model.ScopeManagement}, query: `{ me { id } }`},
	{name: "account", query: withFragments(`{ account { ...U } }`)},
	{name: "projects", query: withFragments(`{ projects { ...P } }`)},
	{name: "projects_without_sdl", query: `{ projects { id kind shareToken runtimeUrl previewUrl expiresAt } }`},
	{name: "project_by_id", query: withFragments(`query($id: ID) { project(id: $id) { ...P } }`), vars: map[string]any{"id": "prj_1"}},
	{name: "project_by_slug_guest", query: `{ project(slug: "guest-1") { id kind accountId shareToken runtimeUrl previewUrl expiresAt } }`},
	{name: "project_without_id_or_slug", query: `{ project { id } }`},
	{name: "project_not_found", query: `{ project(id: "nope") { id } }`,
		fail: map[string]error{"Project": model.Errorf(model.CodeNotFound, "project %q not found", "nope")}},
	{name: "account_myRole", query: `{ account { id myRole } }`},
	{name: "account_myRole_api_key", principal: &Principal{AccountID: "acc_1", KeyProjectID: "prj_1", KeyScope: model.ScopeManagement}, query: `{ account { id myRole } }`},
	{name: "login_myRole", principal: &anonymousPrincipal, query: `mutation { login(email: "ada@example.com", password: "pw") { account { myRole } } }`},
	{name: "project_myRole", query: `{ project(id: "prj_1") { id kind myRole } }`},
	{name: "projects_myRole", principal: &sessionPrincipal, query: `{ projects { id myRole } }`},
	{name: "project_myRole_refused", query: `{ project(id: "prj_1") { id myRole } }`,
		fail: map[string]error{"ProjectRole": model.Errorf(model.CodeForbidden, "this GUEST project belongs to another session")}},
	{name: "dataSources", query: withFragments(`{ dataSources { ...D few: sampleDocuments(limit: 1) many: sampleDocuments(limit: 500) none: sampleDocuments(limit: 0) negative: sampleDocuments(limit: -4) } }`)},
	{name: "apiKeys", query: withFragments(`{ apiKeys(projectId: "prj_1") { ...K } }`)},

	{name: "signUp", principal: &Principal{SessionID: "ses_1"},
		query: withFragments(`mutation { signUp(email: "new@example.com", password: "pw", name: "New") { token user { id email name } account { ...U } } }`)},
	{name: "signUp_without_name", principal: &anonymousPrincipal,
		query: `mutation { signUp(email: "new@example.com", password: "pw") { token user { name } } }`},
	{name: "signUp_conflict", principal: &anonymousPrincipal, query: `mutation { signUp(email: "ada@example.com", password: "pw") { token } }`,
		fail: map[string]error{"SignUp": model.Errorf(model.CodeConflict, "e-mail taken")}},
	{name: "login", principal: &anonymousPrincipal, query: `mutation { login(email: "ada@example.com", password: "pw") { token user { id } account { id plan usage { quota } } } }`},
	{name: "login_refused", principal: &anonymousPrincipal, query: `mutation { login(email: "ada@example.com", password: "bad") { token } }`,
		fail: map[string]error{"Login": model.Errorf(model.CodeUnauthenticated, "wrong e-mail or password")}},

	{name: "createProject", query: withFragments(`mutation { createProject(name: "Shop", slug: "shop") { ...P } }`)},
	{name: "createProject_without_slug", query: `mutation { createProject(name: "Shop") { slug } }`},
	{name: "updateProject", query: `mutation { updateProject(projectId: "prj_1", name: "Renamed", slug: null) { name slug } }`},
	{name: "updateProject_allowed_origins", query: `mutation { updateProject(projectId: "prj_1", allowedOrigins: ["http://localhost:5173", "HTTPS://App.test"]) { name allowedOrigins } }`},
	{name: "updateProject_origins_and_name", query: `mutation { updateProject(projectId: "prj_1", name: "Renamed", allowedOrigins: []) { name allowedOrigins } }`},
	{name: "updateProject_slug_only", query: `mutation { updateProject(projectId: "prj_1", slug: "store") { name slug } }`},
	{name: "deleteProject", query: `mutation { deleteProject(projectId: "prj_1") }`},
	{name: "keepSessionProject", query: `mutation { keepSessionProject(projectId: "prj_1", accountId: "acc_2") { id kind accountId expiresAt runtimeUrl } }`},
	{name: "keepSessionProject_limit", query: `mutation { keepSessionProject(projectId: "prj_1") { id } }`,
		fail: map[string]error{"KeepSessionProject": model.Errorf(model.CodeLimitReached, "the STARTER plan holds 10 projects an account; delete one (deleteProject) or change plan")}},
	{name: "resetMockData", query: `mutation { resetMockData(projectId: "prj_1") }`},
	{name: "resetMockData of a sandbox", query: `mutation { resetMockData(projectId: "prj_1", sandbox: "t-1") }`},
	{name: "deleteSandbox", query: `mutation { deleteSandbox(projectId: "prj_1", sandbox: "t-1") }`},
	{name: "sandboxes", query: `{ sandboxes(projectId: "prj_1") { name changedRows bytes createdAt lastUsedAt expiresAt } }`},
	{name: "saveMockState", query: `mutation { saveMockState(projectId: "prj_1", name: "cart-3", sandbox: "t-1") { name } }`},
	{name: "mockStates", query: `{ mockStates(projectId: "prj_1") { name savedAt changedRows bytes } }`},
	{name: "restoreMockState", query: `mutation { restoreMockState(projectId: "prj_1", name: "cart-3", sandbox: "t-2") }`},
	{name: "deleteMockState", query: `mutation { deleteMockState(projectId: "prj_1", name: "cart-3") }`},
	{name: "resetMockData to a state", query: `mutation { resetMockData(projectId: "prj_1", sandbox: "t-1", state: "cart-3") }`},
	{name: "saveMockState_limit", query: `mutation { saveMockState(projectId: "prj_1", name: "s-11") { name } }`,
		fail: map[string]error{"SaveMockState": model.Errorf(model.CodeLimitReached, "the project holds 10 named states, the most its plan allows (10): delete one (deleteMockState)")}},
	{name: "setPreviewSharing_on", query: `mutation { setPreviewSharing(projectId: "prj_1", enabled: true) { id shareToken previewUrl previewSharing runtimeUrl } }`},
	{name: "setPreviewSharing_off", query: `mutation { setPreviewSharing(projectId: "prj_1", enabled: false) { shareToken previewUrl previewSharing } }`},
	{name: "setPreviewSharing_refused", query: `mutation { setPreviewSharing(projectId: "prj_g", enabled: false) { id } }`,
		fail: map[string]error{"SetPreviewSharing": model.Errorf(model.CodeBadUserInput, "the share token of a GUEST project is its runtime credential")}},
	{name: "previewQuery", query: `mutation($v: JSON) { previewQuery(projectId: "prj_1", query: "query q($m: FilterValue) { products(minPrice: $m) { total } }", variables: $v, operationName: "q") }`,
		vars: map[string]any{"v": map[string]any{"m": 10}}},
	{name: "previewQuery_minimal", query: `mutation { previewQuery(projectId: "prj_1", query: "{ products { total } }") }`},
	{name: "previewQuery_refused_document", query: `mutation { previewQuery(projectId: "prj_1", query: "{ nope }") }`},
	{name: "previewQuery_variables_not_object", query: `mutation { previewQuery(projectId: "prj_1", query: "{ products { total } }", variables: [1]) }`},
	{name: "previewQuery_over_quota", query: `mutation { previewQuery(projectId: "prj_1", query: "{ products { total } }") }`,
		fail: map[string]error{"PreviewQuery": &model.Error{Code: model.CodeTooManyRequests, Message: "the plan's request quota is used up", RetryAfter: 60}}},

	{name: "createModellingTable", query: withFragments(`mutation { createModellingTable(input: {projectId: "prj_1", name: "Customer", source: {importCode: "customers", variant: "eu"}}) { ...T } }`)},
	{name: "createModellingTable_unbound", query: withFragments(`mutation { createModellingTable(input: {projectId: "prj_1", name: "Customer"}) { ...T } }`)},
	{name: "updateModellingTable", query: withFragments(`mutation { updateModellingTable(input: {tableId: "prj_1.tbl_o", name: "Purchase", source: {importCode: "orders"}}) { ...T } }`)},
	{name: "updateModellingTable_absent", query: withFragments(`mutation { updateModellingTable(input: {tableId: "prj_1.tbl_o"}) { ...T } }`)},
	{name: "deleteModellingTable", query: `mutation { deleteModellingTable(tableId: "prj_1.tbl_o") }`},

	{name: "createModellingAttribute_source", query: withFragments(`mutation { createModellingAttribute(input: {tableId: "prj_1.tbl_p", name: "title", type: STRING, sortable: true, mappingType: SOURCE, sourceMapping: {path: "title.en"}}) { ...A } }`)},
	{name: "createModellingAttribute_constant", query: withFragments(`mutation($c: JSON) { createModellingAttribute(input: {tableId: "prj_1.tbl_p", name: "tags", type: JSON, required: true, filterable: false, mappingType: CONSTANT, constantValue: $c}) { ...A } }`),
		vars: map[string]any{"c": map[string]any{"a<b": []any{1, 2.5, "x&y", true, nil}}}},
	{name: "createModellingAttribute_constant_literal", query: `mutation { createModellingAttribute(input: {tableId: "prj_1.tbl_p", name: "stock", type: INT, mappingType: CONSTANT, constantValue: 7}) { constantValue } }`},
	{name: "createModellingAttribute_generated", query: withFragments(`mutation { createModellingAttribute(input: {tableId: "prj_1.tbl_p", name: "owner", type: STRING, mappingType: GENERATED, generator: {kind: "person.name", options: {locale: "de"}}}) { ...A } }`)},
	{name: "createModellingAttribute_computed", query: withFragments(`mutation { createModellingAttribute(input: {tableId: "prj_1.tbl_p", name: "total", type: FLOAT, mappingType: COMPUTED, computedExpression: "price * 2"}) { ...A } }`)},
	{name: "createModellingAttribute_refused", query: `mutation { createModellingAttribute(input: {tableId: "prj_1.tbl_p", name: "c", type: STRING, mappingType: CONSTANT}) { id } }`},
	{name: "updateModellingAttribute", query: withFragments(`mutation { updateModellingAttribute(input: {attributeId: "prj_1.att_note", name: "remark", type: STRING, sortable: true, filterable: false, required: true, mappingType: SOURCE, sourceMapping: {path: "note"}}) { ...A } }`)},
	{name: "updateModellingAttribute_nulls", query: withFragments(`mutation { updateModellingAttribute(input: {attributeId: "prj_1.att_cur", name: null, type: null, sortable: null, mappingType: null, constantValue: null, computedExpression: null, sourceMapping: null, generator: null}) { ...A } }`)},
	{name: "updateModellingAttribute_generator", query: withFragments(`mutation { updateModellingAttribute(input: {attributeId: "prj_1.att_mail", generator: {kind: "internet.email"}}) { ...A } }`)},
	{name: "deleteModellingAttribute", query: `mutation { deleteModellingAttribute(attributeId: "prj_1.att_note") }`},

	{name: "createRelation", query: withFragments(`mutation { createRelation(input: {sourceTableId: "prj_1.tbl_o", targetTableId: "prj_1.tbl_p", cardinality: ONE_TO_ONE, sourceAttribute: "productId", targetAttribute: "id", fieldName: "bought", inverseFieldName: "purchases"}) { ...R } }`)},
	{name: "createRelation_directed", query: withFragments(`mutation { createRelation(input: {sourceTableId: "prj_1.tbl_o", targetTableId: "prj_1.tbl_p", direction: SOURCE_TO_TARGET, cardinality: ONE_TO_ONE, sourceAttribute: "productId", targetAttribute: "id", fieldName: "bought"}) { ...R } }`)},
	{name: "deleteRelation", query: `mutation { deleteRelation(relationId: "prj_1.rel_1") }`},

	{name: "generateDefaultGqlOperations", query: withFragments(`mutation { generateDefaultGqlOperations(projectId: "prj_1") { ...O } }`)},
	{name: "generateDefaultGqlOperations_table", query: withFragments(`mutation { generateDefaultGqlOperations(projectId: "prj_1", tableId: "prj_1.tbl_o") { ...O } }`)},
	{name: "createOperation", query: withFragments(`mutation { createOperation(input: {tableId: "prj_1.tbl_p", name: "cheap", kind: LIST, parameters: [{name: "max", attribute: "price", operator: lte}, {name: "q", attribute: "label", operator: like}]}) { ...O } }`)},
	{name: "createOperation_without_parameters", query: withFragments(`mutation { createOperation(input: {tableId: "prj_1.tbl_p", name: "item", kind: SINGLE}) { ...O } }`)},
	{name: "updateOperation", query: withFragments(`mutation { updateOperation(input: {operationId: "prj_1.op_list", name: "allProducts", enabled: false, parameters: []}) { ...O } }`)},
	{name: "createOperation_with_options", query: `mutation { createOperation(input: {tableId: "prj_1.tbl_p", name: "cheap", kind: LIST, options: {relay: true, where: true}}) { id kind options { relay where orderBy } } }`},
	{name: "createOperation_aggregate", query: `mutation { createOperation(input: {tableId: "prj_1.tbl_p", name: "productsAggregate", kind: AGGREGATE}) { id kind options { relay where orderBy } } }`},
	{name: "createOperation_options_on_single", query: `mutation { createOperation(input: {tableId: "prj_1.tbl_p", name: "item", kind: SINGLE, options: {orderBy: true}}) { id } }`},
	{name: "updateOperation_options", query: `mutation { updateOperation(input: {operationId: "prj_1.op_list", options: {orderBy: true}}) { id options { relay where orderBy } } }`},
	{name: "updateOperation_absent", query: withFragments(`mutation { updateOperation(input: {operationId: "prj_1.op_list", parameters: null}) { ...O } }`)},
	{name: "deleteOperation", query: `mutation { deleteOperation(operationId: "prj_1.op_one") }`},
	{name: "generateMissingViews", query: withFragments(`mutation { generateMissingViews(projectId: "prj_1") { ...V } }`)},

	{name: "createApiKey", query: withFragments(`mutation { createApiKey(projectId: "prj_1", name: "deploy", scope: RUNTIME, expiresAt: "2027-01-02T03:04:05+02:00", maxActors: 12) { key { ...K } value } }`)},
	{name: "createApiKey_defaults", query: withFragments(`mutation { createApiKey(projectId: "prj_1", name: "deploy", scope: MANAGEMENT) { key { ...K } value } }`)},
	{name: "createApiKey_bad_expiry", query: `mutation { createApiKey(projectId: "prj_1", name: "deploy", scope: FULL, expiresAt: "tomorrow") { value } }`},
	{name: "createApiKey_plan", query: `mutation { createApiKey(projectId: "prj_1", name: "deploy", scope: FULL) { value } }`,
		fail: map[string]error{"CreateAPIKey": model.Errorf(model.CodeForbidden, "API keys need the PROFESSIONAL plan")}},
	{name: "revokeApiKey", query: withFragments(`mutation { revokeApiKey(keyId: "key_1") { ...K } }`)},
	{name: "deleteApiKey", query: `mutation { deleteApiKey(keyId: "key_1") }`},
	{name: "importDataset", query: withFragments(`mutation($c: String!) { importDataset(importCode: "books", name: "Books", format: "csv", content: $c, variantField: "lang") { ...D } }`),
		vars: map[string]any{"c": "id,title\n1,Dune\n"}},
	{name: "importDataset_minimal", query: `mutation { importDataset(importCode: "books", format: "ndjson", content: "{}") { importCode } }`},
	{name: "deleteDataset", query: `mutation { deleteDataset(importCode: "books") }`},

	{name: "exportOpenApi", query: `{ exportOpenApi(projectId: "prj_1") }`},
	{name: "openApiSchemas", query: `{ openApiSchemas(document: "{\"openapi\":\"3.0.3\",\"info\":{\"title\":\"t\",\"version\":\"1\"},\"paths\":{},\"components\":{\"schemas\":{\"Pet\":{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"integer\"}}},\"Names\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}}}}") { name importable properties } }`},
	{name: "openApiSchemas_refused", query: `{ openApiSchemas(document: "{\"swagger\":\"1.2\"}") { name } }`},
	{name: "exportOpenApi_yaml", query: `{ exportOpenApi(projectId: "prj_1", format: "yaml") }`},
	{name: "importOpenApi", query: withFragments(`mutation($d: String!) { importOpenApi(projectId: "prj_1", document: $d, schemas: ["Pet"]) { ...T } }`),
		vars: map[string]any{"d": "openapi: 3.0.0\n"}},
	{name: "importOpenApi_all_schemas", query: `mutation { importOpenApi(projectId: "prj_1", document: "{}") { name } }`},
	{name: "importOpenApi_refused", query: `mutation { importOpenApi(projectId: "prj_1", document: "swagger: '1.2'", schemas: null) { name } }`,
		fail: map[string]error{"ImportOpenAPI": model.Errorf(model.CodeBadUserInput, "Swagger version \"1.2\" is not supported")}},
	{name: "exportCodePackage", query: `mutation { exportCodePackage(projectId: "prj_1", language: "go") }`},
	{name: "exportCodePackage_forbidden", query: `mutation { exportCodePackage(projectId: "prj_1", language: "go") }`,
		fail: map[string]error{"ExportCodePackage": model.Errorf(model.CodeForbidden, "code packages need the PROFESSIONAL plan or above")}},
	{name: "setSchemaBaseline", query: `mutation { setSchemaBaseline(projectId: "prj_1") }`},
	{name: "schemaChanges", query: `{ schemaChanges(projectId: "prj_1") { type criticality path message } }`},

	{name: "inviteMember", query: `mutation { inviteMember(email: "cy@example.com", role: EDITOR) { user { id email name } role } }`},
	{name: "setMemberRole", query: `mutation { setMemberRole(userId: "u_2", role: ADMIN) { user { id } role } }`},
	{name: "removeMember", query: `mutation { removeMember(userId: "u_2") }`},
	{name: "removeMember_revokeKeys", query: `mutation { removeMember(userId: "u_2", revokeKeys: true) }`},
	{name: "removeMemberWithKeys", query: `mutation { removeMemberWithKeys(userId: "u_2") { userId revokedKeys } }`},
	{name: "revokeMemberKeys", query: `mutation { revokeMemberKeys(userId: "u_2") }`},
	{name: "setPlan", query: withFragments(`mutation { setPlan(plan: TEAM) { ...U } }`)},
	{name: "setPlan_forbidden", query: `mutation { setPlan(plan: TEAM) { plan } }`,
		fail: map[string]error{"SetPlan": model.Errorf(model.CodeForbidden, "only the OWNER may change the plan")}},
}

func TestManagementOperations(t *testing.T) {
	runCases(t, "management", managementSurface, userPrincipal, managementCases)
	s, _ := mustSurface(t, managementSurface)
	checkCoverage(t, s, managementCases)
}

// TestManagementUnauthenticated runs every case without a credential:
// everything but signUp and login is refused before the Backend is asked.
func TestManagementUnauthenticated(t *testing.T) {
	for _, tc := range managementCases {
		roots := rootFields(t, tc.query)
		if needsNoCredential(roots) { // signUp, login and the board's open fields (management_board_test.go)
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			out := runSurface(t, managementSurface, anonymousPrincipal, tc.query, tc.vars, nil)
			if codes := errorCodes(out); len(codes) != 1 || codes[0] != string(model.CodeUnauthenticated) {
				t.Errorf("error codes = %v, want [UNAUTHENTICATED]", codes)
			}
			if len(out.Calls) != 0 {
				t.Errorf("Backend called: %v", out.Calls)
			}
		})
	}
}

// TestManagementErrorCodes checks that the Backend's refusals reach
// errors[].extensions.code unchanged, and anything else is INTERNAL.
func TestManagementErrorCodes(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want model.Code
	}{
		{"unauthenticated", model.Errorf(model.CodeUnauthenticated, "x"), model.CodeUnauthenticated},
		{"forbidden", model.Errorf(model.CodeForbidden, "x"), model.CodeForbidden},
		{"not found", model.Errorf(model.CodeNotFound, "x"), model.CodeNotFound},
		{"bad user input", model.Errorf(model.CodeBadUserInput, "x"), model.CodeBadUserInput},
		{"limit reached", model.Errorf(model.CodeLimitReached, "x"), model.CodeLimitReached},
		{"conflict", model.Errorf(model.CodeConflict, "x"), model.CodeConflict},
		{"wrapped", errors.Join(errors.New("grain"), model.Errorf(model.CodeConflict, "x")), model.CodeConflict},
		{"internal", errors.New("disk on fire"), model.CodeInternal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := runSurface(t, managementSurface, userPrincipal, `mutation { createProject(name: "Shop") { id } }`, nil,
				map[string]error{"CreateProject": tc.err})
			if codes := errorCodes(out); len(codes) != 1 || codes[0] != string(tc.want) {
				t.Errorf("error codes = %v, want [%s]", codes, tc.want)
			}
			if strings.Contains(string(out.Response), "disk on fire") {
				t.Errorf("internal cause leaked: %s", out.Response)
			}
		})
	}
}

// TestManagementCookies checks the mgq_jwt cookie of signUp and login.
func TestManagementCookies(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		want        []setCookie
	}{
		{"signUp", `mutation { signUp(email: "a@b.c", password: "pw") { token } }`, []setCookie{{"mgq_jwt", "jwt.u_1.acc_1", testJWTTTL.String()}}},
		{"login", `mutation { login(email: "a@b.c", password: "pw") { token } }`, []setCookie{{"mgq_jwt", "jwt.u_1.acc_1", testJWTTTL.String()}}},
		{"refused login", `mutation { login(email: "a@b.c", password: "no") { token } }`, []setCookie{}},
		{"me", `{ me { id } }`, []setCookie{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var fail map[string]error
			if tc.name == "refused login" {
				fail = map[string]error{"Login": model.Errorf(model.CodeUnauthenticated, "no")}
			}
			out := runSurface(t, managementSurface, userPrincipal, tc.query, nil, fail)
			if !reflect.DeepEqual(out.Cookies, tc.want) {
				t.Errorf("cookies = %v, want %v", out.Cookies, tc.want)
			}
		})
	}
}

// TestManagementIssueTokenFails checks that a signing failure is INTERNAL
// and sets no cookie.
func TestManagementIssueTokenFails(t *testing.T) {
	cfg := testSurfaceConfig()
	cfg.IssueToken = func(string, string, uint64) (string, error) { return "", errors.New("no key") }
	s, err := NewManagementSurface(cfg, newFakeManagement())
	if err != nil {
		t.Fatal(err)
	}
	set := false
	res, err := s.Execute(context.Background(), &Call{
		Body:      []byte(`{"query":"mutation { login(email: \"a\", password: \"b\") { token } }"}`),
		SetCookie: func(string, string, time.Duration) { set = true },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) != 1 || res.Errors[0].Extensions["code"] != model.CodeInternal || set {
		t.Errorf("errors = %v, cookie set = %v; want one INTERNAL error and no cookie", res.Errors, set)
	}
}

// TestManagementUpdateInputs checks the patches the update mutations send:
// an absent member is nil, null keeps non-null fields and clears nullable
// ones.
func TestManagementUpdateInputs(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input string
		want  AttributePatch
	}{
		{"absent", `{attributeId: "prj_1.att_note"}`, AttributePatch{}},
		{"nulls", `{attributeId: "prj_1.att_note", name: null, type: null, sortable: null, filterable: null, required: null, mappingType: null,
			sourceMapping: null, constantValue: null, computedExpression: null, generator: null}`,
			AttributePatch{SourcePath: ptrTo(""), Constant: json.RawMessage("null"), Computed: ptrTo("")}},
		{"values", `{attributeId: "prj_1.att_note", name: "n", type: INT, sortable: true, filterable: false, required: true, mappingType: GENERATED,
			sourceMapping: {path: "a.b"}, constantValue: {x: [1, "<"]}, computedExpression: "e", generator: {kind: "k", options: null}}`,
			AttributePatch{Name: ptrTo("n"), Type: ptrTo(model.TypeInt), Sortable: ptrTo(true), Filterable: ptrTo(false), Required: ptrTo(true),
				Mapping: ptrTo(model.MappingGenerated), SourcePath: ptrTo("a.b"), Constant: json.RawMessage(`{"x":[1,"<"]}`), Computed: ptrTo("e"),
				Generator: &model.Generator{Kind: "k"}}},
		{"generator options", `{attributeId: "prj_1.att_note", generator: {kind: "k", options: {n: 2}}}`,
			AttributePatch{Generator: &model.Generator{Kind: "k", Options: json.RawMessage(`{"n":2}`)}}},
		{"constant false", `{attributeId: "prj_1.att_note", constantValue: false}`, AttributePatch{Constant: json.RawMessage("false")}},
	} {
		t.Run("attribute "+tc.name, func(t *testing.T) {
			out := runSurface(t, managementSurface, userPrincipal, `mutation { updateModellingAttribute(input: `+tc.input+`) { id } }`, nil, nil)
			got := onlyCall(t, out, "UpdateAttribute").Args[2].(AttributePatch)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("patch = %s, want %s", dumpJSON(got), dumpJSON(tc.want))
			}
		})
	}
	t.Run("table", func(t *testing.T) {
		for input, want := range map[string]TablePatch{
			`{tableId: "t"}`: {},
			`{tableId: "t", name: null, source: null}`:                 {},
			`{tableId: "t", name: "N", source: {importCode: "c"}}`:     {Name: ptrTo("N"), Source: &model.TableSource{ImportCode: "c"}},
			`{tableId: "t", source: {importCode: "c", variant: "v"}}`:  {Source: &model.TableSource{ImportCode: "c", Variant: ptrTo("v")}},
			`{tableId: "t", source: {importCode: "c", variant: null}}`: {Source: &model.TableSource{ImportCode: "c"}},
		} {
			out := runSurface(t, managementSurface, userPrincipal, `mutation { updateModellingTable(input: `+input+`) { id } }`, nil, nil)
			if got := onlyCall(t, out, "UpdateTable").Args[2].(TablePatch); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: patch = %s, want %s", input, dumpJSON(got), dumpJSON(want))
			}
		}
	})
	t.Run("operation", func(t *testing.T) {
		for input, want := range map[string]OperationPatch{
			`{operationId: "o"}`: {},
			`{operationId: "o", name: null, enabled: null, parameters: null}`: {},
			`{operationId: "o", parameters: []}`:                              {Parameters: []model.Parameter{}},
			`{operationId: "o", name: "n", enabled: true, parameters: [{name: "p", attribute: "a", operator: in}]}`: {
				Name: ptrTo("n"), Enabled: ptrTo(true), Parameters: []model.Parameter{{Name: "p", Attribute: "a", Operator: model.OpIn}}},
		} {
			out := runSurface(t, managementSurface, userPrincipal, `mutation { updateOperation(input: `+input+`) { id } }`, nil, nil)
			if got := onlyCall(t, out, "UpdateOperation").Args[2].(OperationPatch); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: patch = %s, want %s", input, dumpJSON(got), dumpJSON(want))
			}
		}
	})
	t.Run("project", func(t *testing.T) {
		out := runSurface(t, managementSurface, userPrincipal, `mutation { updateProject(projectId: "p", name: null) { id } }`, nil, nil)
		call := onlyCall(t, out, "UpdateProject")
		if call.Args[2].(*string) != nil || call.Args[3].(*string) != nil {
			t.Errorf("name, slug = %s, %s; want nil, nil", dumpJSON(call.Args[2]), dumpJSON(call.Args[3]))
		}
	})
}

// TestManagementLazyFields checks that Project.sdl and Account.usage ask
// the Backend only when selected.
func TestManagementLazyFields(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{`{ project(id: "prj_1") { id } }`, []string{"Project"}},
		{`{ project(id: "prj_1") { sdl } }`, []string{"Project", "SDL"}},
		{`{ project(id: "prj_1") { myRole } }`, []string{"Project", "ProjectRole"}},
		{`mutation { setPlan(plan: TEAM) { plan } }`, []string{"SetPlan"}},
		{`mutation { setPlan(plan: TEAM) { usage { quota } } }`, []string{"SetPlan", "Account"}},
		{`{ dataSources { name } }`, []string{"DataSources"}},
		{`{ dataSources { sampleDocuments(limit: 2) } }`, []string{"DataSources", "Samples"}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			out := runSurface(t, managementSurface, userPrincipal, tc.query, nil, nil)
			var got []string
			for _, c := range out.Calls {
				got = append(got, c.Method)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Backend calls = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestManagementRequests checks malformed bodies and invalid documents.
func TestManagementRequests(t *testing.T) {
	s, _ := mustSurface(t, managementSurface)
	for _, tc := range []struct {
		name, body string
		code       model.Code // model.Error code of a malformed body
		refused    model.Code // Result.Code of an invalid document
	}{
		{"not JSON", `{"query":`, model.CodeBadRequest, ""},
		{"no query", `{}`, model.CodeBadRequest, ""},
		{"parse error", `{"query":"{ me { id "}`, "", model.CodeParseFailed},
		{"unknown field", `{"query":"{ nope }"}`, "", model.CodeValidateFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := s.Execute(context.Background(), &Call{Principal: userPrincipal, Body: []byte(tc.body)})
			if tc.code != "" {
				if model.ErrorCode(err) != tc.code || res != nil {
					t.Errorf("Execute = %v, %v; want nil, %s", res, err, tc.code)
				}
				return
			}
			if err != nil || res == nil || !res.Refused || res.Code != tc.refused {
				t.Errorf("Execute = %+v, %v; want a refused result %s", res, err, tc.refused)
			}
		})
	}
}

// TestManagementContextCanceled checks that an ended context is returned.
func TestManagementContextCanceled(t *testing.T) {
	s, _ := mustSurface(t, managementSurface)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.Execute(ctx, &Call{Principal: userPrincipal, Body: []byte(`{"query":"{ me { id } }"}`)})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Execute = %v, want context.Canceled", err)
	}
}

// TestManagementConfig checks that a surface needs a backend.
func TestManagementConfig(t *testing.T) {
	if _, err := NewManagementSurface(SurfaceConfig{}, nil); err == nil {
		t.Error("NewManagementSurface without backend: no error")
	}
	if _, err := NewPublicSurface(SurfaceConfig{}, nil); err == nil {
		t.Error("NewPublicSurface without backend: no error")
	}
}

// onlyCall returns the one call of out, failing unless it is to method.
func onlyCall(tb testing.TB, out surfaceOutcome, method string) fakeCall {
	tb.Helper()
	if len(out.Calls) != 1 || out.Calls[0].Method != method {
		tb.Fatalf("calls = %v (errors %v), want one %s", out.Calls, out.result.Errors, method)
	}
	return out.Calls[0]
}

// dumpJSON renders v, following pointers, for failure messages.
func dumpJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
