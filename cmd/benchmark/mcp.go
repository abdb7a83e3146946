package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpFlow times the assistant's flow for the same 3-table model as
// sessionFlow, once through the MCP tools (the SDK's client over
// Streamable HTTP, a new client session each time, as an assistant
// starting a conversation) and once over /public-graphql, alternating seven
// times so the machine's drift falls on both; it reports both medians and
// their ratio.
func mcpFlow(m *mockgql, rep *report) error {
	var viaSDK, viaRaw, viaGQL []time.Duration
	calls := 0
	for i := 0; i < 7; i++ {
		for _, c := range []struct {
			times *[]time.Duration
			flow  func(*mockgql) (int, error)
		}{
			{&viaSDK, func(m *mockgql) (int, error) { return oneMCPSession(m, newSDKCaller) }},
			{&viaRaw, func(m *mockgql) (int, error) { return oneMCPSession(m, newRawCaller) }},
			{&viaGQL, oneSession},
		} {
			t0 := time.Now()
			n, err := c.flow(m)
			if err != nil {
				return err
			}
			*c.times = append(*c.times, time.Since(t0))
			if c.times == &viaRaw {
				calls = n
			}
		}
	}
	sdkMed, rawMed, gqlMed := median(viaSDK), median(viaRaw), median(viaGQL)
	rep.note("assistant flow (3 tables, 18 attributes, 2 relations, to the first rows), medians over 7, alternating: MCP with the SDK's client %v, MCP as plain JSON-RPC POSTs %v, /public-graphql %v; ratios to /public-graphql %.2f and %.2f; %d MCP calls vs 27 GraphQL calls",
		sdkMed, rawMed, gqlMed, float64(sdkMed)/float64(gqlMed), float64(rawMed)/float64(gqlMed), calls)
	return nil
}

func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2].Round(100 * time.Microsecond)
}

// caller calls MCP tools and decodes their structured results.
type caller interface {
	call(name string, args map[string]any) (map[string]any, error)
	count() int
	close()
}

// oneMCPSession plays the flow once through the MCP tools and returns the
// number of MCP requests (the SDK client's server/discover included).
func oneMCPSession(m *mockgql, connect func(ctx context.Context, endpoint string) (caller, error)) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := connect(ctx, "http://"+m.addr+"/mcp")
	if err != nil {
		return 0, err
	}
	defer c.close()
	sp, err := c.call("create_session_project", map[string]any{"name": "Bench"})
	if err != nil {
		return 0, err
	}
	s := sp["session"]
	tables := map[string]any{}
	for _, name := range []string{"Item", "Group", "Note"} {
		t, err := c.call("create_table", map[string]any{"session": s, "name": name, "importCode": "small"})
		if err != nil {
			return 0, err
		}
		tables[name] = t["id"]
		var attrs []any
		for _, a := range [][2]string{{"id", "ID"}, {"name", "STRING"}, {"price", "FLOAT"}, {"category", "STRING"}, {"inStock", "BOOLEAN"}, {"sku", "STRING"}} {
			attrs = append(attrs, map[string]any{"name": a[0], "type": a[1], "mapping": "SOURCE", "path": a[0]})
		}
		if _, err := c.call("add_attributes", map[string]any{"session": s, "tableId": t["id"], "attributes": attrs}); err != nil {
			return 0, err
		}
	}
	for _, r := range [][3]string{{"Group", "Item", "items"}, {"Item", "Note", "notes"}} {
		if _, err := c.call("create_relation", map[string]any{"session": s, "sourceTableId": tables[r[0]], "targetTableId": tables[r[1]],
			"cardinality": "ONE_TO_MANY", "sourceAttribute": "id", "targetAttribute": "id", "fieldName": r[2]}); err != nil {
			return 0, err
		}
	}
	for _, tool := range []string{"generate_operations", "generate_views"} {
		if _, err := c.call(tool, map[string]any{"session": s}); err != nil {
			return 0, err
		}
	}
	rows, err := c.call("run_query", map[string]any{"session": s, "operation": "items", "pageSize": 3})
	if err != nil {
		return 0, err
	}
	if items, _ := rows["items"].([]any); len(items) != 3 {
		return 0, fmt.Errorf("run_query: %v", rows)
	}
	return c.count(), nil
}

// sdkCaller is the SDK's client over Streamable HTTP, a new session each
// flow, as an assistant starting a conversation.
type sdkCaller struct {
	ctx   context.Context
	cs    *sdk.ClientSession
	calls int
}

func newSDKCaller(ctx context.Context, endpoint string) (caller, error) {
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx,
		&sdk.StreamableClientTransport{Endpoint: endpoint, DisableStandaloneSSE: true}, nil)
	if err != nil {
		return nil, err
	}
	return &sdkCaller{ctx: ctx, cs: cs, calls: 1}, nil
}

func (c *sdkCaller) count() int { return c.calls }
func (c *sdkCaller) close()     { _ = c.cs.Close() }

func (c *sdkCaller) call(name string, args map[string]any) (map[string]any, error) {
	c.calls++
	res, err := c.cs.CallTool(c.ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return nil, err
	}
	if res.IsError {
		b, _ := json.Marshal(res.Content)
		return nil, fmt.Errorf("%s: %s", name, b)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out map[string]any
	return out, json.Unmarshal(b, &out)
}

// rawCaller posts each tools/call as one JSON-RPC request with net/http,
// as a lean client would: what the server costs, without the SDK client's
// own goroutine hand-offs.
type rawCaller struct {
	endpoint string
	calls    int
}

func newRawCaller(_ context.Context, endpoint string) (caller, error) {
	return &rawCaller{endpoint: endpoint}, nil
}

func (c *rawCaller) count() int { return c.calls }
func (c *rawCaller) close()     {}

func (c *rawCaller) call(name string, args map[string]any) (map[string]any, error) {
	c.calls++
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.calls, "method": "tools/call", "params": map[string]any{"name": name, "arguments": args}})
	req, _ := http.NewRequest(http.MethodPost, c.endpoint, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var r struct {
		Result *struct {
			IsError           bool            `json:"isError"`
			StructuredContent map[string]any  `json:"structuredContent"`
			Content           json.RawMessage `json:"content"`
		} `json:"result"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return nil, err
	}
	if r.Result == nil {
		return nil, fmt.Errorf("%s: %s", name, r.Error)
	}
	if r.Result.IsError {
		return nil, fmt.Errorf("%s: %s", name, r.Result.Content)
	}
	return r.Result.StructuredContent, nil
}
