package http

import "slices"

// boardCases call the management API's board additions (management_board*.go).
var boardCases = []surfaceCase{
	{name: "logout", query: `mutation { logout }`},
	{name: "logout_anonymous", principal: &Principal{}, query: `mutation { logout }`},
	{name: "demo_none", query: `{ demo { slug previewUrl runtimeUrl boardUrl } }`},
	{name: "generatorKinds_some", query: `{ generatorKinds }`},
	{name: "generatorPreview", query: `{ generatorPreview(kind: "number.int", options: {min: 5, max: 6}, count: 3) }`},
	{name: "generatorCatalog_beer", query: `{ generatorCatalog(category: "beer") { kind category description keywords options { name type description default required choices } sample } }`},
	{name: "valueCounts", query: `{ valueCounts(tableId: "prj_1_t1", attribute: "authorId") { rows scanned nulls distinct duplicates } }`},
	{name: "generatorPreview_unknown", query: `{ generatorPreview(kind: "nope") }`},
	{name: "notReadyReason", query: `{ project(id: "prj_1") { tables { name ready notReadyReason } } }`},
	{name: "apiKeys_activeActors", query: `{ apiKeys(projectId: "prj_1") { name activeActors } }`},
	{name: "schemaChangesOfEdit_rename", query: `{ schemaChangesOfEdit(projectId: "prj_1", edit: {kind: RENAME_OPERATION, id: "prj_1.op_list", name: "allProducts"}) { type criticality path message } }`},
	{name: "schemaChangesOfEdit_delete_attribute", query: `{ schemaChangesOfEdit(projectId: "prj_1", edit: {kind: DELETE_ATTRIBUTE, id: "prj_1.att_price"}) { criticality path } }`},
	{name: "schemaChangesOfEdit_no_name", query: `{ schemaChangesOfEdit(projectId: "prj_1", edit: {kind: RENAME_TABLE, id: "prj_1.tbl_p"}) { path } }`},
	{name: "schemaChangesOfEdit_unknown_operation", query: `{ schemaChangesOfEdit(projectId: "prj_1", edit: {kind: DELETE_OPERATION, id: "nope"}) { path } }`},
}

// anonymousRoots are the root fields that need no credential.
var anonymousRoots = []string{"signUp", "login", "logout", "demo", "generatorKinds", "generatorPreview", "generatorCatalog"}

// needsNoCredential reports whether a case calls a root field of anonymousRoots.
func needsNoCredential(roots []string) bool {
	return slices.ContainsFunc(roots, func(r string) bool { return slices.Contains(anonymousRoots, r) })
}

func init() { managementCases = append(managementCases, boardCases...) }
