package mcp

import (
	"context"
	"fmt"
	"io"
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Bridge serves MCP over newline-delimited JSON on in and out (a client
// that launches a command: `mockgql mcp --server URL`) by forwarding every
// tool call, resource read and prompt to the Streamable HTTP server at
// endpoint. Both sides speak the protocol through the SDK, so the version
// each negotiates is its own. The tools, resources and prompts are those
// the server lists when the bridge starts. It returns when in closes, ctx
// ends, or the server cannot be reached at the start.
func Bridge(ctx context.Context, endpoint string, in io.ReadCloser, out io.WriteCloser, hc *http.Client) error {
	client := sdk.NewClient(&sdk.Implementation{Name: "mockgql-mcp-bridge", Version: Version}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", endpoint, err)
	}
	defer cs.Close()
	init := cs.InitializeResult()
	info := &sdk.Implementation{Name: "mockgql", Version: Version}
	instructions := ""
	if init != nil {
		instructions = init.Instructions
		if init.ServerInfo != nil {
			info = init.ServerInfo
		}
	}
	srv := sdk.NewServer(info, &sdk.ServerOptions{Instructions: instructions, Capabilities: &sdk.ServerCapabilities{}})
	if err := mirror(ctx, cs, srv); err != nil {
		return fmt.Errorf("listing what %s serves: %w", endpoint, err)
	}
	return srv.Run(ctx, &sdk.IOTransport{Reader: in, Writer: out})
}

// mirror registers on srv every tool, resource, resource template and
// prompt cs lists, each forwarding to cs.
func mirror(ctx context.Context, cs *sdk.ClientSession, srv *sdk.Server) error {
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return err
		}
		srv.AddTool(t, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return cs.CallTool(ctx, &sdk.CallToolParams{Name: req.Params.Name, Arguments: req.Params.Arguments})
		})
	}
	read := func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		return cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: req.Params.URI})
	}
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			return err
		}
		srv.AddResource(r, read)
	}
	for t, err := range cs.ResourceTemplates(ctx, nil) {
		if err != nil {
			return err
		}
		srv.AddResourceTemplate(t, read)
	}
	for p, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			return err
		}
		srv.AddPrompt(p, func(ctx context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: req.Params.Name, Arguments: req.Params.Arguments})
		})
	}
	return nil
}
