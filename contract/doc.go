// Package contract reads a GraphQL schema a team already has — SDL, or an
// introspection result — and works out how mockgql serves it: which object
// types become tables of rows, which fields are relations between them,
// and which engine operation answers each root field and mutation.
//
// It is pure: no I/O, no clock. Parse turns the document into a Schema
// (refusing what it cannot serve, by name, with line and column); Interpret
// turns a Schema into a Plan, whose Report says in a person's words how
// each root field is served.
//
//	s, err := contract.Parse(doc, contract.MaxDocumentBytes)
//	if err != nil { … } // a *model.Error, BAD_USER_INPUT or PAYLOAD_TOO_LARGE
//	plan := contract.Interpret(s)
//	for _, line := range plan.Report() { fmt.Println(line) }
package contract
