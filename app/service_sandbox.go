package app

import (
	"context"

	"github.com/mockgql/mockgql/model"
)

// Sandboxes (docs/using/testing.md): the management API and MCP list,
// reset and delete a project's sandboxes; the runtime makes them.

// sandboxes returns the project's live sandboxes, by name (VIEWER and
// above).
func (s *core) sandboxes(ctx context.Context, p model.Principal, projectID string) ([]model.Sandbox, error) {
	c, err := s.project(ctx, p, projectID)
	if err != nil {
		return nil, err
	}
	return c.Sandboxes(ctx)
}

// resetSandbox drops the changes of one sandbox of the project (EDITOR
// and above); NOT_FOUND when it holds none of that name.
func (s *core) resetSandbox(ctx context.Context, p model.Principal, projectID, name string) error {
	c, err := s.project(ctx, p, projectID)
	if err != nil {
		return err
	}
	return c.ResetSandbox(ctx, name)
}

// deleteSandbox forgets one sandbox of the project (EDITOR and above);
// NOT_FOUND when it holds none of that name.
func (s *core) deleteSandbox(ctx context.Context, p model.Principal, projectID, name string) error {
	c, err := s.project(ctx, p, projectID)
	if err != nil {
		return err
	}
	return c.DeleteSandbox(ctx, name)
}

// Sandboxes returns the project's live sandboxes.
func (s *Management) Sandboxes(ctx context.Context, p model.Principal, projectID string) ([]model.Sandbox, error) {
	return s.sandboxes(ctx, p, projectID)
}

// ResetSandbox drops the changes of one sandbox of the project.
func (s *Management) ResetSandbox(ctx context.Context, p model.Principal, projectID, name string) error {
	return s.resetSandbox(ctx, p, projectID, name)
}

// DeleteSandbox forgets one sandbox of the project.
func (s *Management) DeleteSandbox(ctx context.Context, p model.Principal, projectID, name string) error {
	return s.deleteSandbox(ctx, p, projectID, name)
}

// Sandboxes returns the project's live sandboxes.
func (s *MCP) Sandboxes(ctx context.Context, p model.Principal, projectID string) ([]model.Sandbox, error) {
	return s.sandboxes(ctx, p, projectID)
}

// ResetSandbox drops the changes of one sandbox of the project.
func (s *MCP) ResetSandbox(ctx context.Context, p model.Principal, projectID, name string) error {
	return s.resetSandbox(ctx, p, projectID, name)
}

// DeleteSandbox forgets one sandbox of the project.
func (s *MCP) DeleteSandbox(ctx context.Context, p model.Principal, projectID, name string) error {
	return s.deleteSandbox(ctx, p, projectID, name)
}
