// Package app is mockgql's use-case layer: the management, public, preview
// and runtime operations the HTTP layer (package http) and the MCP server
// call, in model types. NewService returns one service per surface
// (surfaces.go: Edge, Runtime, Management, Public, Preview, Adoption,
// Datasets, MCP), each with exactly the methods of its surface's interface
// (http.Backends' fields, mcp.Backend); a use case two surfaces share is
// written once, on a small part both embed or on the core every service
// holds. The use cases check the caller's rights and ask grains through
// the typed client of package actors (actors.Client and its per-grain
// clients, whose methods take and return domain values); they hold no
// state of their own. app uses nothing else of actors but the client's
// parameter and record types and the node's wiring (Env, Pool, Local,
// RuntimePath), and imports nothing under actors but the client: the
// grain protocol is actors/internal/pb, and boundary_test.go fails on any
// other name or import. IDs, tokens and secret hashes come from package
// ids. The order of runtime checks is actors.RuntimePath
// (actors/runtime_path.go), which Runtime.Runtime and MCP.Runtime run;
// what a project grain can be asked is the type switch of
// actors/project.go.
//
//	svc := app.NewService(env) // env: Store, Caller, Pool, Clock, ...
//	p, err := svc.Management.CreateProject(ctx, principal, "Shop", "")
package app
