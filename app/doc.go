// Package app is mockgql's use-case layer: the management, public, preview
// and runtime operations the HTTP layer (package http) and the MCP server
// call, in model types. Service checks the caller's rights and asks grains
// through the typed client of package actors (actors.Client); it holds no
// state of its own. The order of runtime checks is actors.RuntimePath
// (actors/runtime_path.go), which Service.Runtime runs; what a project
// grain can be asked is the type switch of actors/project.go.
//
//	svc := app.NewService(env) // env: Store, Caller, Pool, Clock, ...
//	p, err := svc.CreateProject(ctx, principal, "Shop", "")
package app
