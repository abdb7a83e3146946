package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// init lets the test binary act as `mockgql mcp` (the stdio bridge) for
// TestMCPStdioBridge, as TestMain lets it act as `mockgql serve`.
func init() {
	if os.Getenv("MGQ_TEST_MCP_BRIDGE") == "1" {
		if err := mcpCmd(strings.Fields(os.Getenv("MGQ_TEST_ARGS"))); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// mcpConnect connects the SDK's client to a node's /mcp over Streamable HTTP.
func mcpConnect(t testing.TB, base string) *sdk.ClientSession {
	t.Helper()
	return mcpConnectVia(t, &sdk.StreamableClientTransport{Endpoint: base + "/mcp", DisableStandaloneSSE: true, MaxRetries: -1})
}

func mcpConnectVia(t testing.TB, tr sdk.Transport) *sdk.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatalf("mcp connect: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// agent is an assistant calling tools; with several client sessions (one
// per node) it takes them in turn, one call each.
type agent struct {
	t       testing.TB
	clients []*sdk.ClientSession
	n       int
}

func newAgent(t testing.TB, clients ...*sdk.ClientSession) *agent {
	return &agent{t: t, clients: clients}
}

// call calls a tool; a JSON-RPC error fails the test.
func (a *agent) call(name string, args map[string]any) *sdk.CallToolResult {
	a.t.Helper()
	cs := a.clients[a.n%len(a.clients)]
	a.n++
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		a.t.Fatalf("%s: %v", name, err)
	}
	return res
}

// must calls a tool and returns its structured result, failing on a tool error.
func (a *agent) must(name string, args map[string]any) map[string]any {
	a.t.Helper()
	res := a.call(name, args)
	if res.IsError {
		a.t.Fatalf("%s(%v): tool error %s", name, args, text(res))
	}
	if len(res.Content) == 0 || text(res) == "" {
		a.t.Fatalf("%s: no text content", name)
	}
	var m map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &m); err != nil || m == nil {
		a.t.Fatalf("%s: structured content %s", name, b)
	}
	return m
}

// refused calls a tool that must fail with a tool error starting with code
// and returns the error's text.
func (a *agent) refused(code, name string, args map[string]any) string {
	a.t.Helper()
	res := a.call(name, args)
	if !res.IsError || !strings.HasPrefix(text(res), code) {
		a.t.Fatalf("%s(%v): want tool error %s, got isError=%t %s", name, args, code, res.IsError, text(res))
	}
	return text(res)
}

// text is the first text content of a result.
func text(res *sdk.CallToolResult) string {
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			return tc.Text
		}
	}
	return ""
}

// built is what the flow built.
type built struct {
	session, projectID, adoptionURL, runtimeURL string
	tables                                      map[string]string
}

// buildShop runs the assistant's whole flow for a 3-table model, from
// create_session_project to a run_query that returns rows.
func buildShop(t testing.TB, a *agent) built {
	t.Helper()
	sp := a.must("create_session_project", map[string]any{"name": "Shop for Ann"})
	b := built{session: sp["session"].(string), projectID: sp["projectId"].(string), adoptionURL: sp["adoptionUrl"].(string),
		runtimeURL: sp["runtimeUrl"].(string), tables: map[string]string{}}
	if !strings.HasPrefix(b.session, "mcs_") || !strings.Contains(b.runtimeURL, "/mock/") || !strings.Contains(b.adoptionURL, "/auth/adopt/adt_") {
		t.Fatalf("create_session_project: %v", sp)
	}
	ds := a.must("list_data_sources", map[string]any{"importCode": "products", "samples": 1})
	p := get(ds, "dataSources", 0)
	if get(p, "recordCount") != 4.0 || !strings.Contains(fmt.Sprint(get(p, "fieldPaths")), "price.amount") || len(get(p, "variants").([]any)) != 2 || len(get(p, "samples").([]any)) != 1 {
		t.Fatalf("list_data_sources: %v", ds)
	}
	if all := a.must("list_data_sources", map[string]any{"samples": 0}); len(all["dataSources"].([]any)) != 3 || len(get(all, "dataSources", 0, "samples").([]any)) != 0 {
		t.Fatalf("list_data_sources without samples: %v", all)
	}
	s := b.session
	for name, code := range map[string]string{"Category": "categories", "Product": "products", "Review": "reviews"} {
		b.tables[name] = a.must("create_table", map[string]any{"session": s, "name": name, "importCode": code})["id"].(string)
	}
	attrs := map[string][]any{
		"Category": {attr("id", "ID", "id"), attr("title", "STRING", "title")},
		"Product": {attr("id", "ID", "id"), attr("name", "STRING", "name"), attr("price", "FLOAT", "price.amount"), attr("categoryId", "INT", "categoryId"),
			map[string]any{"name": "label", "type": "STRING", "mapping": "CONSTANT", "value": "demo"},
			map[string]any{"name": "supplierEmail", "type": "STRING", "mapping": "GENERATED", "generator": "person.email"}},
		"Review": {attr("id", "ID", "id"), attr("productId", "INT", "productId"), attr("stars", "INT", "stars")},
	}
	for name, list := range attrs {
		out := a.must("add_attributes", map[string]any{"session": s, "tableId": b.tables[name], "attributes": list})
		if len(out["created"].([]any)) != len(list) {
			t.Fatalf("add_attributes %s: %v", name, out)
		}
	}
	a.must("create_relation", map[string]any{"session": s, "sourceTableId": b.tables["Category"], "targetTableId": b.tables["Product"],
		"cardinality": "ONE_TO_MANY", "sourceAttribute": "id", "targetAttribute": "categoryId", "fieldName": "products", "inverseFieldName": "category"})
	a.must("create_relation", map[string]any{"session": s, "sourceTableId": b.tables["Product"], "targetTableId": b.tables["Review"],
		"cardinality": "ONE_TO_MANY", "sourceAttribute": "id", "targetAttribute": "productId", "fieldName": "reviews", "inverseFieldName": "product"})
	ops := a.must("generate_operations", map[string]any{"session": s})
	list := ""
	for _, o := range ops["operations"].([]any) {
		if get(o, "name") == "products" {
			list = get(o, "id").(string)
		}
	}
	if list == "" {
		t.Fatalf("generate_operations: %v", ops)
	}
	a.must("update_operation", map[string]any{"session": s, "operationId": list,
		"parameters": []any{map[string]any{"name": "minPrice", "attribute": "price", "operator": "gte"}}})
	if v := a.must("generate_views", map[string]any{"session": s}); len(v["views"].([]any)) == 0 {
		t.Fatalf("generate_views: %v", v)
	}
	checkRows(t, a, s)
	return b
}

func attr(name, typ, path string) map[string]any {
	return map[string]any{"name": name, "type": typ, "mapping": "SOURCE", "path": path}
}

// checkRows runs the runtime through run_query: a filtered, sorted page,
// and a nested GraphQL document.
func checkRows(t testing.TB, a *agent, session string) {
	t.Helper()
	r := a.must("run_query", map[string]any{"session": session, "operation": "products", "args": map[string]any{"minPrice": 40},
		"sortField": "price", "sortDirection": "DESC", "pageSize": 5})
	items, _ := r["items"].([]any)
	if r["total"] != 2.0 || len(items) != 2 || get(items, 0, "name") != "Desk" || get(items, 1, "name") != "Chair" ||
		get(items, 0, "label") != "demo" || !strings.Contains(fmt.Sprint(get(items, 0, "supplierEmail")), "@") {
		t.Fatalf("run_query operation: %v", r)
	}
	if _, ok := r["data"]; ok {
		t.Fatalf("run_query operation has a data member: %v", r)
	}
	q := a.must("run_query", map[string]any{"session": session, "query": `{ categories(sortField: "id") { items { title products { name reviews { stars } } } } }`})
	if get(q, "data", "categories", "items", 0, "title") != "Office" || get(q, "data", "categories", "items", 0, "products", 0, "reviews", 0, "stars") != 5.0 {
		t.Fatalf("run_query document: %v", q)
	}
	for _, k := range []string{"items", "total", "page", "pageSize"} {
		if _, ok := q[k]; ok {
			t.Fatalf("run_query document has an operation's %s: %v", k, q)
		}
	}
}

// opensBoard checks that an adoption link opens the project on the board:
// 302 to /board/projects/{id} with the board session cookie.
func opensBoard(t testing.TB, link, projectID string) {
	t.Helper()
	resp, cookie := adopt(t, link)
	if resp.StatusCode != 302 || resp.Header.Get("Location") != "/board/projects/"+projectID || cookie == "" {
		t.Fatalf("adoption link %s: %d %q cookie %q", link, resp.StatusCode, resp.Header.Get("Location"), cookie)
	}
}

// TestMCPFlowOverHTTP drives a real mockgql process with the SDK's client
// over Streamable HTTP: the whole flow, two sessions kept apart, limit
// refusals as tool errors naming the limit, and a kill -9 and restart
// after which the same handle still reaches the project and both the
// adoption link given before the crash and a new one open the board.
func TestMCPFlowOverHTTP(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	data, port := t.TempDir(), freePort(t)
	p := startProc(t, data, port)
	seedPool(t, p.server)
	a := newAgent(t, mcpConnect(t, p.base))
	if v := a.clients[0].InitializeResult().ProtocolVersion; v != sdk.SupportedProtocolVersions()[0] {
		t.Fatalf("negotiated protocol %s, want the SDK's newest, %s", v, sdk.SupportedProtocolVersions()[0])
	}
	b := buildShop(t, a)
	d := a.must("describe_project", map[string]any{"session": b.session})
	if d["ready"] != true || len(d["tables"].([]any)) != 3 || !strings.Contains(d["sdl"].(string), "type Product") || d["projectId"] != b.projectID {
		t.Fatalf("describe_project: %v", d)
	}
	fresh := a.must("get_adoption_link", map[string]any{"session": b.session})["adoptionUrl"].(string)

	t.Run("two sessions cannot see each other's project", func(t *testing.T) {
		other := newAgent(t, mcpConnect(t, p.base))
		s2 := other.must("create_session_project", map[string]any{"name": "Other"})
		if s2["projectId"] == b.projectID || s2["session"] == b.session {
			t.Fatalf("second session shares the first's project: %v", s2)
		}
		d2 := other.must("describe_project", map[string]any{"session": s2["session"]})
		if len(d2["tables"].([]any)) != 0 {
			t.Fatalf("second session sees tables: %v", d2)
		}
		other.refused("FORBIDDEN", "add_attributes", map[string]any{"session": s2["session"], "tableId": b.tables["Product"],
			"attributes": []any{attr("stock", "STRING", "stock")}})
		other.refused("FORBIDDEN", "create_relation", map[string]any{"session": s2["session"], "sourceTableId": b.tables["Category"],
			"targetTableId": b.tables["Product"], "cardinality": "ONE_TO_MANY", "sourceAttribute": "id", "targetAttribute": "categoryId", "fieldName": "x"})
		other.refused("BAD_USER_INPUT", "describe_project", map[string]any{"session": b.session + "x"})
	})

	t.Run("limits are tool errors naming them", func(t *testing.T) {
		msg := a.refused("LIMIT_REACHED", "create_session_project", map[string]any{"session": b.session})
		if !strings.Contains(msg, "1 session project") {
			t.Fatalf("project limit: %s", msg)
		}
		var many []any
		for i := range 29 { // Category has 2: the 29th is its 31st
			many = append(many, map[string]any{"name": fmt.Sprintf("extra%d", i), "type": "STRING", "mapping": "CONSTANT", "value": i})
		}
		res := a.call("add_attributes", map[string]any{"session": b.session, "tableId": b.tables["Category"], "attributes": many})
		out, _ := json.Marshal(res.StructuredContent)
		if !res.IsError || !strings.Contains(text(res), "LIMIT_REACHED") || !strings.Contains(text(res), "30 attributes") ||
			!strings.Contains(string(out), `"index":28`) || strings.Count(string(out), `"mapping":"CONSTANT"`) != 28 {
			t.Fatalf("attribute limit: %s %s", text(res), out)
		}
	})

	p.kill()
	p = startProc(t, data, port)
	t.Run("a killed and restarted server keeps the project and its links", func(t *testing.T) {
		a2 := newAgent(t, a.clients[0], mcpConnect(t, p.base)) // the old client session, and a new one
		for range 2 {
			if d := a2.must("describe_project", map[string]any{"session": b.session}); d["projectId"] != b.projectID || d["ready"] != true {
				t.Fatalf("after restart: %v", d)
			}
		}
		checkRows(t, a2, b.session)
		opensBoard(t, b.adoptionURL, b.projectID)
		opensBoard(t, fresh, b.projectID)
		opensBoard(t, a2.must("get_adoption_link", map[string]any{"session": b.session})["adoptionUrl"].(string), b.projectID)
	})
}

// TestMCPStdioBridge runs `mockgql mcp --server URL` as a subprocess (this
// test binary, see init) and drives the same flow through it with the SDK's
// command transport, plus the resources and the prompt.
func TestMCPStdioBridge(t *testing.T) {
	s := startServer(t)
	seedPool(t, s)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MGQ_TEST_MCP_BRIDGE=1", "MGQ_TEST_ARGS=--server "+s.base)
	cmd.Stderr = os.Stderr
	cs := mcpConnectVia(t, &sdk.CommandTransport{Command: cmd})
	a := newAgent(t, cs)
	b := buildShop(t, a)
	a.refused("LIMIT_REACHED", "create_session_project", map[string]any{"session": b.session})
	defer signUpOnBoard(t, s, a, b) // last: it moves the project away

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, c := range []struct{ uri, want string }{
		{"mockgql://data-sources", `"importCode": "products"`},
		{"mockgql://data-sources/reviews", `"stars"`},
		{"mockgql://sessions/" + b.session + "/sdl", "type Product"},
	} {
		r, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: c.uri})
		if err != nil || len(r.Contents) != 1 || !strings.Contains(r.Contents[0].Text, c.want) {
			t.Fatalf("resource %s: %v %v", c.uri, err, r)
		}
	}
	if _, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "mockgql://data-sources/nothing"}); err == nil {
		t.Fatal("an unknown dataset was read")
	}
	pr, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "build_mock_backend", Arguments: map[string]string{"description": "a pet shop"}})
	if err != nil || len(pr.Messages) != 1 || !strings.Contains(pr.Messages[0].Content.(*sdk.TextContent).Text, "a pet shop") {
		t.Fatalf("prompt: %v %v", err, pr)
	}
	tools := 0
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil || tool.Description == "" || tool.InputSchema == nil || tool.OutputSchema == nil {
			t.Fatalf("tool %v: %v", tool, err)
		}
		tools++
	}
	if tools != 20 { // import_graphql_schema is the 13th; then 3 for sandboxes and 4 for named states
		t.Fatalf("%d tools through the bridge, want 20", tools)
	}
}

// TestMCPBadInput posts bad MCP requests to a real node: each is answered
// with a JSON-RPC error or a tool error (isError), never a 500, and the
// node serves on.
func TestMCPBadInput(t *testing.T) {
	s := startServer(t)
	call := func(name string, args string) string {
		return `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + `}}`
	}
	const rpc, tool = "jsonrpc error", "tool error"
	for _, c := range []struct {
		name, method, body, contentType string
		status                          int
		want                            string // rpc or tool
		says                            string
	}{
		{"not JSON", "POST", `{"jsonrpc":"2.0","id":1,"method":`, "", 400, rpc, "parse error"},
		{"not JSON-RPC", "POST", `{"hello":"world"}`, "", 400, rpc, "2.0"},
		{"empty batch", "POST", `[]`, "", 400, rpc, "empty batch"},
		{"batch over the bound", "POST", "[" + strings.Repeat(call("list_data_sources", `{}`)+",", 10) + call("list_data_sources", `{}`) + "]", "", 400, rpc, "at most 10 messages"},
		{"unknown method", "POST", `{"jsonrpc":"2.0","id":1,"method":"tables/drop"}`, "", 400, rpc, "tables/drop"},
		{"params not an object", "POST", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"x"}`, "", 200, rpc, "invalid params"},
		{"unknown tool", "POST", call("drop_tables", `{}`), "", 200, rpc, "unknown tool"},
		{"missing required argument", "POST", call("create_table", `{"session":"mcs_x","name":"P"}`), "", 200, tool, "importCode"},
		{"argument of the wrong type", "POST", call("run_query", `{"session":"mcs_x","operation":"p","pageSize":"ten"}`), "", 200, tool, "pageSize"},
		{"value outside its enum", "POST", call("add_attributes", `{"session":"mcs_x","tableId":"t","attributes":[{"name":"a","type":"TEXT"}]}`), "", 200, tool, "TEXT"},
		{"unknown argument", "POST", call("generate_views", `{"session":"mcs_x","force":true}`), "", 200, tool, "force"},
		{"forged session handle", "POST", call("describe_project", `{"session":"mcs_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}`), "", 200, tool, "BAD_USER_INPUT"},
		{"pageSize over the bound", "POST", call("run_query", `{"session":"mcs_x","operation":"p","pageSize":5000}`), "", 200, tool, "BAD_USER_INPUT"},
		{"oversized body", "POST", call("create_session_project", `{"name":"`+strings.Repeat("x", 1<<20)+`"}`), "", 413, rpc, "1048576 bytes"},
		{"wrong content type", "POST", call("list_data_sources", `{}`), "text/plain", 415, rpc, "application/json"},
		{"GET on a stateless server", "GET", "", "", 405, rpc, "Method Not Allowed"},
		{"DELETE on a stateless server", "DELETE", "", "", 405, rpc, "Method Not Allowed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ct := c.contentType
			if ct == "" {
				ct = "application/json"
			}
			r := s.do(c.method, "/mcp", []byte(c.body), "Content-Type", ct, "Accept", "application/json, text/event-stream")
			if r.Status != c.status || !strings.Contains(string(r.Raw), c.says) {
				t.Fatalf("want %d saying %q, got %d: %.300s", c.status, c.says, r.Status, r.Raw)
			}
			switch c.want {
			case rpc:
				if r.JSON["jsonrpc"] != "2.0" || get(r.JSON, "error", "code") == nil || get(r.JSON, "error", "message") == nil {
					t.Fatalf("not a JSON-RPC error: %.300s", r.Raw)
				}
			case tool:
				if get(r.JSON, "result", "isError") != true {
					t.Fatalf("not a tool error: %.300s", r.Raw)
				}
			}
		})
	}
	s.do("GET", "/healthz", nil).data(t)
}

// TestMCPClusterAnyNode builds the model through three nodes in turn, one
// call each: a session handle minted by one node works on every other (MCP
// sessions are stateless; the handle is sealed with the cluster's shared
// JWT secret), and the adoption link opens on any node.
func TestMCPClusterAnyNode(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	tr := startTrio(t)
	seedPool(t, tr.procs[0].server)
	var clients []*sdk.ClientSession
	for _, p := range tr.procs {
		clients = append(clients, mcpConnect(t, p.base))
	}
	a := newAgent(t, clients...)
	b := buildShop(t, a)
	for range 3 {
		if d := a.must("describe_project", map[string]any{"session": b.session}); d["projectId"] != b.projectID || d["ready"] != true {
			t.Fatalf("describe_project on node %d: %v", a.n%3, d)
		}
	}
	a.n = 0 // node 1 mints the link; node 3 opens it
	link := a.must("get_adoption_link", map[string]any{"session": b.session})["adoptionUrl"].(string)
	opensBoard(t, tr.procs[2].base+link[strings.Index(link, "/auth/adopt/"):], b.projectID)
}

// signUpOnBoard opens a fresh adoption link and signs up in that board
// session: the project moves into the new account, the handle no longer
// reaches it, and the session may make another.
func signUpOnBoard(t *testing.T, s *server, a *agent, b built) {
	t.Helper()
	link := a.must("get_adoption_link", map[string]any{"session": b.session})["adoptionUrl"].(string)
	opensBoard(t, link, b.projectID)
	_, board := adopt(t, a.must("get_adoption_link", map[string]any{"session": b.session})["adoptionUrl"].(string))
	r := s.gql("/graphql", `mutation { signUp(email:"mcp-adopter@example.com", password:"correct horse") { token } }`, nil, "Cookie", board)
	u := &user{s: s, token: get(r.data(t), "signUp", "token").(string)}
	if d := u.must(`{ projects { id kind } }`, nil); get(d, "projects", 0, "id") != b.projectID || get(d, "projects", 0, "kind") != "ACCOUNT" {
		t.Fatalf("after sign-up on the board: %v", d)
	}
	a.refused("NOT_FOUND", "describe_project", map[string]any{"session": b.session})
	if sp := a.must("create_session_project", map[string]any{"session": b.session}); sp["projectId"] == b.projectID || sp["session"] != b.session {
		t.Fatalf("a new project in the same session: %v", sp)
	}
}

// TestMCPOlderProtocol: a client of protocol 2025-06-18 (most clients in
// use) initializes and calls tools as plain JSON-RPC POSTs, and gets that
// version back, not the SDK's newest.
func TestMCPOlderProtocol(t *testing.T) {
	s := startServer(t)
	post := func(body string, headers ...string) response {
		h := append([]string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream"}, headers...)
		return s.do("POST", "/mcp", []byte(body), h...)
	}
	r := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`)
	if r.Status != 200 || get(r.JSON, "result", "protocolVersion") != "2025-06-18" || get(r.JSON, "result", "capabilities", "tools") == nil {
		t.Fatalf("initialize: %d %s", r.Status, r.Raw)
	}
	v := []string{"Mcp-Protocol-Version", "2025-06-18"}
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, v...)
	r = post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_session_project","arguments":{"name":"Old client"}}}`, v...)
	session, _ := get(r.JSON, "result", "structuredContent", "session").(string)
	if r.Status != 200 || !strings.HasPrefix(session, "mcs_") {
		t.Fatalf("create_session_project: %d %s", r.Status, r.Raw)
	}
	r = post(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"describe_project","arguments":{"session":"`+session+`"}}}`, v...)
	if get(r.JSON, "result", "structuredContent", "name") != "Old client" {
		t.Fatalf("describe_project: %d %s", r.Status, r.Raw)
	}
}
