// Package mcp serves the public session-project flow as a Model Context
// Protocol server, for assistants that load MCP servers rather than call
// bespoke GraphQL endpoints: tools (create_session_project, list_data_sources,
// create_table, add_attributes, create_relation, generate_operations,
// update_operation, generate_views, run_query, describe_project,
// get_adoption_link, get_request_log, list_sandboxes, reset_sandbox,
// delete_sandbox), the data pool and a project's SDL as resources, and a
// prompt that walks the flow. It calls the same use cases as /public-graphql
// (Backend), so a project built here has the same limits, isolation,
// adoption links and transfer on sign-up.
//
// Sessions: the protocol version the SDK implements (2026-07-28) has no
// protocol sessions, so a session is a handle create_session_project mints
// and every other tool takes: the sealed mgq_session ID (see sealer). The
// server holds nothing per session; every node serves every handle.
//
//	srv, err := mcp.New(mcp.Config{Backend: svc, Secret: jwtSecret, BaseURL: base})
//	mux.Handle("/mcp", srv)                       // Streamable HTTP
//	err = mcp.Bridge(ctx, "http://host:8080/mcp", os.Stdin, os.Stdout, nil) // stdio
package mcp
