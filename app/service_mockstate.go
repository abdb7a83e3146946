package app

import (
	"context"

	"github.com/mockgql/mockgql/model"
)

// Named states (docs/using/testing.md): the management API and MCP save,
// list, restore and delete a project's named states, through mockData.

// SaveMockState saves the project's mock data changes, or a sandbox's,
// as a named state (EDITOR and above).
func (s mockData) SaveMockState(ctx context.Context, p model.Principal, projectID, name, sandbox string) (model.MockState, error) {
	c, err := s.project(ctx, p, projectID)
	if err != nil {
		return model.MockState{}, err
	}
	return c.SaveState(ctx, name, sandbox)
}

// MockStates lists the project's named states (VIEWER and above).
func (s mockData) MockStates(ctx context.Context, p model.Principal, projectID string) ([]model.MockState, error) {
	c, err := s.project(ctx, p, projectID)
	if err != nil {
		return nil, err
	}
	return c.States(ctx)
}

// RestoreMockState makes the project's data, or a sandbox's, what a
// named state holds (EDITOR and above).
func (s mockData) RestoreMockState(ctx context.Context, p model.Principal, projectID, name, sandbox string) error {
	c, err := s.project(ctx, p, projectID)
	if err != nil {
		return err
	}
	return c.RestoreState(ctx, name, sandbox)
}

// DeleteMockState forgets a named state of the project (EDITOR and
// above).
func (s mockData) DeleteMockState(ctx context.Context, p model.Principal, projectID, name string) error {
	c, err := s.project(ctx, p, projectID)
	if err != nil {
		return err
	}
	return c.DeleteState(ctx, name)
}
