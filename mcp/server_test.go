package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mockgql/mockgql/model"
)

// poolOnly is a test-only Backend that serves just DataSources (every other
// method is the nil interface's, and panics): enough to check the tool
// wrapper's guards without a node.
type poolOnly struct {
	Backend
	sources func() []model.DataSource
}

func (b poolOnly) DataSources(context.Context) ([]model.DataSource, error) { return b.sources(), nil }

// connect serves s over in-memory transports to the SDK's client.
func connect(t *testing.T, s *Server) *sdk.ClientSession {
	t.Helper()
	ct, st := sdk.NewInMemoryTransports()
	ss, err := s.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Wait() })
	return cs
}

func newTestServer(t *testing.T, b Backend, edit func(*Config)) *Server {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Backend, cfg.Secret = b, testSecret
	if edit != nil {
		edit(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestToolGuards(t *testing.T) {
	many := make([]map[string]any, 31)
	for i := range many {
		many[i] = map[string]any{"name": "a", "type": "STRING", "path": "a"}
	}
	big := model.DataSource{ImportCode: "big", FieldPaths: []string{strings.Repeat("f", 4000)}}
	s := newTestServer(t, poolOnly{sources: func() []model.DataSource { return []model.DataSource{big} }}, func(c *Config) { c.MaxResultBytes = 1000 })
	cs := connect(t, s)
	h := s.seal.seal("sTEST")
	for _, c := range []struct {
		name, tool string
		args       map[string]any
		says       string
	}{
		{"a result over the bound is refused, naming it", "list_data_sources", map[string]any{}, "LIMIT_REACHED: the result is"},
		{"a panic in a use case is an internal tool error", "describe_project", map[string]any{"session": h}, "INTERNAL: internal error"},
		{"an out-of-range argument", "list_data_sources", map[string]any{"samples": 9}, "BAD_USER_INPUT: samples is 0 to 5"},
		{"a batch over the attribute limit", "add_attributes", map[string]any{"session": h, "tableId": "t",
			"attributes": many}, "LIMIT_REACHED: 31 attributes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: c.tool, Arguments: c.args})
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(res.Content)
			if !res.IsError || !strings.Contains(string(b), c.says) {
				t.Fatalf("want a tool error saying %q, got %t %s", c.says, res.IsError, b)
			}
		})
	}
}
