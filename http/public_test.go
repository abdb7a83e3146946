package http

import (
	"reflect"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// publicCases call every operation of the public API, as session ses_1
// unless they say otherwise.
var publicCases = []surfaceCase{
	{name: "availableDataSources", principal: &anonymousPrincipal,
		query: withFragments(`{ availableDataSources { ...D two: sampleDocuments(limit: 2) } }`)},
	{name: "createGuestProject", principal: &anonymousPrincipal, query: `mutation { createGuestProject(name: "Try") { projectId slug shareToken runtimeUrl } }`},
	{name: "createGuestProject_with_session", query: `mutation { createGuestProject { projectId slug shareToken runtimeUrl } }`},
	{name: "createModellingTable", query: withFragments(`mutation { createModellingTable(input: {projectId: "prj_1", name: "Book", source: {importCode: "books"}}) { ...T } }`)},
	{name: "createModellingAttribute", query: withFragments(`mutation { createModellingAttribute(input: {tableId: "prj_1.tbl_p", name: "title", type: STRING, mappingType: SOURCE, sourceMapping: {path: "title"}}) { ...A } }`)},
	{name: "createModellingAttribute_limit", query: `mutation { createModellingAttribute(input: {tableId: "prj_1.tbl_p", name: "title", type: STRING, mappingType: SOURCE, sourceMapping: {path: "title"}}) { id } }`,
		fail: map[string]error{"CreateAttribute": model.Errorf(model.CodeLimitReached, "a session project's table has at most 30 attributes")}},
	{name: "createRelation", query: withFragments(`mutation { createRelation(input: {sourceTableId: "prj_1.tbl_p", targetTableId: "prj_1.tbl_o", cardinality: ONE_TO_MANY, sourceAttribute: "id", targetAttribute: "productId", fieldName: "purchases"}) { ...R } }`)},
	{name: "generateDefaultGqlOperations", query: withFragments(`mutation { generateDefaultGqlOperations(projectId: "prj_1", tableId: "prj_1.tbl_o") { ...O } }`)},
	{name: "generateMissingViews", query: `mutation { generateMissingViews(projectId: "prj_1") { id tableId kind name } }`},
	{name: "createSessionProject", principal: &anonymousPrincipal, query: `mutation { createSessionProject(name: "Shop") { projectId slug shareToken runtimeUrl adoptionToken adoptionUrl } }`},
	{name: "createAdoptionLink", query: `mutation { createAdoptionLink(projectId: "prj_1") { projectId adoptionToken adoptionUrl } }`},
	{name: "sessionProject", query: `{ sessionProject { id } }`},
	{name: "runtimeList", query: `{ runtimeList(projectId: "prj_1", operation: "books", page: 2, pageSize: 5, sortField: "title", sortDirection: "DESC", args: {minPrice: 10}) { items total page pageSize errors } }`},
	{name: "runtimeList_bad_args", query: `{ runtimeList(projectId: "prj_1", operation: "books", args: [1]) { total } }`},
	{name: "model_mutation_of_another_session", query: `mutation { generateMissingViews(projectId: "prj_1") { id } }`,
		fail: map[string]error{"GenerateMissingViews": model.Errorf(model.CodeForbidden, "not your session's project")}},
}

func TestPublicOperations(t *testing.T) {
	runCases(t, "public", publicSurface, sessionPrincipal, publicCases)
	s, _ := mustSurface(t, publicSurface)
	checkCoverage(t, s, publicCases)
}

// TestPublicSession checks which operations need the mgq_session cookie
// and which set it.
func TestPublicSession(t *testing.T) {
	for _, tc := range []struct {
		name      string
		principal Principal
		query     string
		code      model.Code
		cookies   []setCookie
	}{
		{"guest project makes the session", anonymousPrincipal, `mutation { createGuestProject { slug } }`, "",
			[]setCookie{{"mgq_session", "ses_new", "0s"}}},
		{"guest project replaces a stale session", Principal{SessionID: "ses_stale"}, `mutation { createGuestProject { slug } }`, "",
			[]setCookie{{"mgq_session", "ses_new", "0s"}}},
		{"guest project keeps the session", sessionPrincipal, `mutation { createGuestProject { slug } }`, "", []setCookie{}},
		{"data sources need no session", anonymousPrincipal, `{ availableDataSources { importCode } }`, "", []setCookie{}},
		{"table needs a session", anonymousPrincipal, `mutation { createModellingTable(input: {projectId: "p", name: "T"}) { id } }`, model.CodeUnauthenticated, []setCookie{}},
		{"attribute needs a session", anonymousPrincipal, `mutation { createModellingAttribute(input: {tableId: "t", name: "a", type: ID, mappingType: NONE}) { id } }`, model.CodeUnauthenticated, []setCookie{}},
		{"relation needs a session", anonymousPrincipal, `mutation { createRelation(input: {sourceTableId: "a", targetTableId: "b", cardinality: ONE_TO_ONE, sourceAttribute: "x", targetAttribute: "y", fieldName: "f"}) { id } }`, model.CodeUnauthenticated, []setCookie{}},
		{"operations need a session", anonymousPrincipal, `mutation { generateDefaultGqlOperations(projectId: "p") { id } }`, model.CodeUnauthenticated, []setCookie{}},
		{"views need a session", anonymousPrincipal, `mutation { generateMissingViews(projectId: "p") { id } }`, model.CodeUnauthenticated, []setCookie{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := runSurface(t, publicSurface, tc.principal, tc.query, nil, nil)
			codes := errorCodes(out)
			switch {
			case tc.code == "" && len(codes) > 0:
				t.Errorf("error codes = %v, want none", codes)
			case tc.code != "" && (len(codes) != 1 || codes[0] != string(tc.code)):
				t.Errorf("error codes = %v, want [%s]", codes, tc.code)
			case tc.code != "" && len(out.Calls) > 0:
				t.Errorf("Backend called: %v", out.Calls)
			}
			if !reflect.DeepEqual(out.Cookies, tc.cookies) {
				t.Errorf("cookies = %v, want %v", out.Cookies, tc.cookies)
			}
		})
	}
}

// TestPublicLeavesOutManagement checks that the public API has none of the
// management operations it does not serve.
func TestPublicLeavesOutManagement(t *testing.T) {
	for _, q := range []string{
		`{ me { id } }`, `{ projects { id } }`, `{ dataSources { name } }`,
		`mutation { deleteModellingTable(tableId: "t") }`, `mutation { login(email: "a", password: "b") { token } }`,
		`mutation { createApiKey(projectId: "p", name: "k", scope: FULL) { value } }`,
	} {
		t.Run(q, func(t *testing.T) {
			out := runSurface(t, publicSurface, sessionPrincipal, q, nil, nil)
			if !out.result.Refused || out.result.Code != model.CodeValidateFailed {
				t.Errorf("result = %s, want a validation failure", out.Response)
			}
		})
	}
}
