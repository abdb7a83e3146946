package http

import "github.com/mockgql/mockgql/graphql/exec"

// DefaultMaxCost is the cost budget of one /graphql or /public-graphql
// operation (--max-management-cost): ten account-wide project lists, five
// OpenAPI parses, a hundred cheap root fields.
const DefaultMaxCost = 100

// surfaceCosts are what the static surfaces' fields cost (exec.Cost):
// a root field not listed costs 1, a field below the root 0, and a list
// multiplies the cost of its selection by 10. Prices follow what a
// resolver does: a backend call across the account (projects,
// dataSources), a parse or an export of a whole model or document, a
// password hash (signUp, login), a runtime call (runtimeList,
// previewQuery), a lazy field asked per project (sdl, requestLog).
// Both surfaces share the table: their Project type is the same.
var surfaceCosts = map[string]int{
	"Query.projects":                   10,
	"Query.project":                    2,
	"Query.account":                    2,
	"Query.dataSources":                5,
	"Query.apiKeys":                    2,
	"Query.exportOpenApi":              20,
	"Query.openApiSchemas":             20,
	"Query.schemaChanges":              20,
	"Query.checkUpstream":              20,
	"Query.checkOperations":            20,
	"Query.schemaChangesOfEdit":        20,
	"Query.generatorPreview":           2,
	"Query.valueCounts":                5,
	"Query.availableDataSources":       5,
	"Query.sessionProject":             2,
	"Query.runtimeList":                10,
	"Query.checkGraphQLSchema":         20,
	"Query.contractDatasetSuggestions": 10,

	"Mutation.signUp":                       10,
	"Mutation.login":                        10,
	"Mutation.previewQuery":                 10,
	"Mutation.importOpenApi":                20,
	"Mutation.exportCodePackage":            20,
	"Mutation.importDataset":                20,
	"Mutation.generateDefaultGqlOperations": 5,
	"Mutation.generateMissingViews":         5,
	"Mutation.setSchemaBaseline":            5,
	"Mutation.createProject":                20, // with sdl it parses a whole schema, as importGraphQLSchema does
	"Mutation.keepSessionProject":           5,
	"Mutation.createGuestProject":           5,
	"Mutation.createSessionProject":         5,
	"Mutation.importGraphQLSchema":          20,
	"Mutation.setContractRows":              5,
	"Mutation.bindContractTable":            5,
	"Mutation.setContractMapping":           5,
	"Mutation.setContractGenerator":         5,

	"Project.sdl":                5,
	"Project.requestLog":         5,
	"Project.myRole":             1,
	"Project.contract":           1,
	"Contract.tables":            3,
	"Contract.report":            3,
	"Contract.unsupported":       3,
	"Account.usage":              1,
	"Account.myRole":             1,
	"DataSource.sampleDocuments": 1,
	"ApiKey.activeActors":        1,
}

// surfaceCost returns the cost budget of a surface whose operations may
// cost max (0: DefaultMaxCost; negative: no budget).
func surfaceCost(max int) exec.Cost {
	switch {
	case max < 0:
		return exec.Cost{}
	case max == 0:
		max = DefaultMaxCost
	}
	return exec.Cost{Max: max, Fields: surfaceCosts}
}
