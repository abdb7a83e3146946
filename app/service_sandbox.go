package app

import (
	"context"

	"github.com/mockgql/mockgql/model"
)

// Sandboxes (docs/using/testing.md): the management API and MCP list,
// reset and delete a project's sandboxes; the runtime makes them. They
// are methods of mockData, the part both surfaces embed.

// Sandboxes returns the project's live sandboxes, by name (VIEWER and
// above).
func (s mockData) Sandboxes(ctx context.Context, p model.Principal, projectID string) ([]model.Sandbox, error) {
	c, err := s.project(ctx, p, projectID)
	if err != nil {
		return nil, err
	}
	return c.Sandboxes(ctx)
}

// ResetSandbox drops the changes of one sandbox of the project (EDITOR
// and above); NOT_FOUND when it holds none of that name.
func (s mockData) ResetSandbox(ctx context.Context, p model.Principal, projectID, name string) error {
	c, err := s.project(ctx, p, projectID)
	if err != nil {
		return err
	}
	return c.ResetSandbox(ctx, name)
}

// DeleteSandbox forgets one sandbox of the project (EDITOR and above);
// NOT_FOUND when it holds none of that name.
func (s mockData) DeleteSandbox(ctx context.Context, p model.Principal, projectID, name string) error {
	c, err := s.project(ctx, p, projectID)
	if err != nil {
		return err
	}
	return c.DeleteSandbox(ctx, name)
}
