package mcp

import (
	"context"
	"fmt"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mockgql/mockgql/model"
)

// Sandboxes (docs/using/testing.md): run_query takes a sandbox; these
// tools list, reset and delete the session project's sandboxes.

type sandboxArg struct {
	sessionArg
	Sandbox string `json:"sandbox" jsonschema:"the sandbox's name, 1 to 64 of A-Z a-z 0-9 . _ -"`
}

type sandboxOut struct {
	Name        string `json:"name"`
	ChangedRows int    `json:"changedRows" jsonschema:"rows its mutations created, changed or deleted"`
	Bytes       int64  `json:"bytes" jsonschema:"the stored size of its changes"`
	LastUsedAt  string `json:"lastUsedAt"`
	ExpiresAt   string `json:"expiresAt,omitempty" jsonschema:"when it is forgotten unless used again"`
}

type sandboxesOut struct {
	Sandboxes []sandboxOut `json:"sandboxes"`
}

type doneOut struct {
	Done bool `json:"done"`
}

// listSandboxes is list_sandboxes.
func (s *Server) listSandboxes(ctx context.Context, in sessionArg) (sandboxesOut, outcome, error) {
	p, pr, err := s.project(ctx, in.Session)
	if err != nil {
		return sandboxesOut{}, outcome{}, err
	}
	list, err := s.cfg.Backend.Sandboxes(ctx, p, pr.ID)
	if err != nil {
		return sandboxesOut{}, outcome{}, err
	}
	out := sandboxesOut{Sandboxes: make([]sandboxOut, 0, len(list))}
	for _, sb := range list {
		o := sandboxOut{Name: sb.Name, ChangedRows: sb.ChangedRows, Bytes: sb.Bytes, LastUsedAt: sb.LastUsedAt.UTC().Format(time.RFC3339)}
		if !sb.ExpiresAt.IsZero() {
			o.ExpiresAt = sb.ExpiresAt.UTC().Format(time.RFC3339)
		}
		out.Sandboxes = append(out.Sandboxes, o)
	}
	return out, outcome{text: fmt.Sprintf("%d sandboxes.", len(list))}, nil
}

// resetSandbox is reset_sandbox.
func (s *Server) resetSandbox(ctx context.Context, in sandboxArg) (doneOut, outcome, error) {
	p, pr, err := s.project(ctx, in.Session)
	if err != nil {
		return doneOut{}, outcome{}, err
	}
	if err := s.cfg.Backend.ResetSandbox(ctx, p, pr.ID, in.Sandbox); err != nil {
		return doneOut{}, outcome{}, err
	}
	return doneOut{Done: true}, outcome{text: fmt.Sprintf("Sandbox %q holds no changes now.", in.Sandbox)}, nil
}

// deleteSandbox is delete_sandbox.
func (s *Server) deleteSandbox(ctx context.Context, in sandboxArg) (doneOut, outcome, error) {
	p, pr, err := s.project(ctx, in.Session)
	if err != nil {
		return doneOut{}, outcome{}, err
	}
	if err := s.cfg.Backend.DeleteSandbox(ctx, p, pr.ID, in.Sandbox); err != nil {
		return doneOut{}, outcome{}, err
	}
	return doneOut{Done: true}, outcome{text: fmt.Sprintf("Sandbox %q is gone.", in.Sandbox)}, nil
}

func (s *Server) addSandboxTools() {
	addTool(s, &sdk.Tool{Name: "list_sandboxes", Title: "List the project's sandboxes", Annotations: readOnly(),
		Description: "The session project's live sandboxes: named overlays of its mock data that runtime requests with the header X-Mock-Sandbox: <name> (or run_query's sandbox) read and write, invisible to other requests. Each with its changed rows, size, last use and expiry."},
		s.listSandboxes)
	addTool(s, &sdk.Tool{Name: "reset_sandbox", Title: "Reset a sandbox",
		Description: "Throws away the changes of one sandbox of the session project; the project's own data and other sandboxes stay."},
		s.resetSandbox)
	addTool(s, &sdk.Tool{Name: "delete_sandbox", Title: "Delete a sandbox",
		Description: "Forgets one sandbox of the session project with its changes."},
		s.deleteSandbox)
}

// checkSandbox refuses a malformed sandbox name before the runtime call.
func checkSandbox(name string) error {
	if name == "" {
		return nil
	}
	_, _, err := model.SplitSandbox(name)
	return err
}
