// Package app is mockgql's use-case layer: the management, public, preview
// and runtime operations the HTTP layer (package http) and the MCP server
// call, in model types. Service checks the caller's rights and asks grains
// through the typed client of package actors (actors.Client and its
// per-grain clients, whose methods take and return domain values); it
// holds no state of its own. It uses nothing else of actors but the
// client's parameter and record types and the node's wiring (Env, Pool,
// Local, RuntimePath), and imports nothing under actors but the client:
// the grain protocol is actors/internal/pb, and boundary_test.go fails on
// any other name or import. IDs, tokens and secret hashes come from package ids. The
// order of runtime checks is actors.RuntimePath (actors/runtime_path.go),
// which Service.Runtime runs; what a project grain can be asked is the
// type switch of actors/project.go.
//
//	svc := app.NewService(env) // env: Store, Caller, Pool, Clock, ...
//	p, err := svc.CreateProject(ctx, principal, "Shop", "")
package app
