// Package exec is the GraphQL executor of mockgql: it prepares (parses,
// validates, coerces variables of) and executes requests against a schema
// and a map of resolvers, and writes the response as JSON. Three surfaces
// use it: the mock runtime (package graphql, /mock/{slug}/graphql), the
// management API (/graphql) and the public API (/public-graphql) in
// package http. It knows nothing of projects, rows or datasets.
//
//	ex, err := exec.NewExecutor(exec.Executor{
//		Schema: schema, // *ast.Schema, e.g. from gqlparser.LoadSchema
//		Resolvers: map[string]exec.Resolver{
//			"Query.products": func(ctx context.Context, f *exec.Field) (any, error) {
//				return listProducts(f.Args["page"].(int)), nil
//			},
//		},
//	})
//	req, err := exec.DecodeRequest(body) // *model.Error "Bad Request" on a malformed body
//	p, refused := ex.Prepare(req)        // parse, validate, coerce variables
//	if refused != nil {
//		// HTTP 400 with refused.Errors, refused.Code is GRAPHQL_PARSE_FAILED or GRAPHQL_VALIDATION_FAILED
//	}
//	res, err := p.Execute(ctx, nil) // err only when ctx ends
//	out := res.AppendJSON(buf[:0])  // {"data":...,"errors":[...]}
//
// Resolvers receive a *Field with coerced arguments and return plain Go
// values (maps, slices, scalars); the executor shapes them into the
// response, writing JSON directly, and turns errors into GraphQL errors
// carrying extensions.code from model.ErrorCode.
//
// A surface that knows its values can write them itself instead
// (exec_direct.go): Executor.DirectPlan compiles each planned selection
// once, and a value that is a DirectObject or DirectRoot writes through a
// Writer the same bytes the resolvers would. The mock runtime writes rows
// straight from dataset columns this way.
//
// Package graphql/exec/incremental splits a complete answer to an
// operation with @defer or @stream into the payloads of incremental
// delivery; the executor itself answers such operations whole.
//
// The package has no I/O and no clock. Its package-level state is what
// the process shares on purpose: a sync.Pool of execution states, and one
// counter of the bytes all document caches hold (DocCacheProcessBytes).
package exec
