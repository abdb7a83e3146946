// Package contract reads a GraphQL schema a team already has — SDL, or an
// introspection result — and works out how mockgql serves it: which object
// types become tables of rows, which fields are relations between them,
// and which engine operation answers each root field and mutation.
//
// It is pure: no I/O, no clock. Parse turns the document into a Schema
// (refusing what it cannot serve, by name, with line and column, and what
// is over the bounds of bounds.go before validating it), in one of the
// process's validation slots; Interpret turns a Schema into a Plan, whose
// Report says in a person's words how each root field is served, and
// Plan.CheckCells bounds the values its generated rows hold.
//
//	s, err := contract.ParseContext(ctx, doc, contract.MaxDocumentBytes)
//	if err != nil { … } // a *model.Error: BAD_USER_INPUT, LIMIT_REACHED, PAYLOAD_TOO_LARGE, QUERY_TIMEOUT
//	plan := contract.Interpret(s)
//	for _, line := range plan.Report() { fmt.Println(line) }
package contract
