package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/app"
	"github.com/mockgql/mockgql/mcp"
)

// newMCP builds the MCP server served at /mcp. base is the HTTP server's
// public address, known once it listens.
func newMCP(c serveConfig, acfg actors.Config, svc *app.Service, secret []byte, base func() string, log *slog.Logger) (*mcp.Server, error) {
	app := base
	if u := strings.TrimRight(c.AppURL, "/"); u != "" {
		app = func() string { return u }
	}
	cfg := mcp.DefaultConfig()
	cfg.Backend, cfg.Secret, cfg.BaseURL, cfg.AppURL, cfg.Logger = svc.MCP, secret, base, app, log
	cfg.QueryTimeout = c.QueryTimeout
	cfg.CheckCreate = func(ctx context.Context, ip string) error { return svc.Edge.CheckWindow(ctx, "create", ip) }
	cfg.Limits = mcp.Limits{Projects: acfg.Limits.SessionProjects, Tables: acfg.Limits.SessionTables, Attributes: acfg.Limits.SessionAttributes,
		DailyCalls: acfg.SessionDailyCalls, ProjectTTL: acfg.SessionTTL, AdoptionTTL: acfg.AdoptionTTL}
	return mcp.New(cfg)
}

// mcpCmd is `mockgql mcp --server URL`: an MCP server on stdin and stdout
// for clients that launch a command, forwarding to a node's /mcp.
func mcpCmd(args []string) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	server := fs.String("server", defaultServer(), "base URL of a mockgql node (its /mcp is used)")
	timeout := fs.Duration("timeout", mcp.DefaultConfig().CallTimeout, "time limit of one call to the server")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return errors.New("usage: mockgql mcp [--server URL]")
	}
	endpoint := strings.TrimRight(*server, "/")
	if !strings.HasSuffix(endpoint, "/mcp") {
		endpoint += "/mcp"
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	err := mcp.Bridge(ctx, endpoint, os.Stdin, os.Stdout, &http.Client{Timeout: *timeout})
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("mcp bridge: %w", err)
	}
	return nil
}
