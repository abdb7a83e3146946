// Package graphql is the GraphQL engine of mockgql: it builds a project's
// runtime schema from its model and executes requests against it, and it
// executes the static management and public APIs from their SDL and
// resolver maps.
//
// The package is pure: no I/O, no clock and no global mutable state. The
// executor is generic; a surface gives it a schema and a map of resolvers:
//
//	ex, err := graphql.NewExecutor(graphql.Executor{
//		Schema: schema, // *ast.Schema, e.g. from gqlparser.LoadSchema
//		Resolvers: map[string]graphql.Resolver{
//			"Query.products": func(ctx context.Context, f *graphql.Field) (any, error) {
//				return listProducts(f.Args["page"].(int)), nil
//			},
//		},
//	})
//	req, err := graphql.DecodeRequest(body) // *model.Error "Bad Request" on a malformed body
//	p, refused := ex.Prepare(req)            // parse, validate, coerce variables
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
package graphql
