package app

import (
	"context"

	"github.com/mockgql/mockgql/model"
)

// Named states (docs/using/testing.md): the management API and MCP save,
// list, restore and delete a project's named states.

// saveState saves the project's mock data changes, or a sandbox's, as a
// named state (EDITOR and above).
func (s *core) saveState(ctx context.Context, p model.Principal, projectID, name, sandbox string) (model.MockState, error) {
	c, err := s.project(ctx, p, projectID)
	if err != nil {
		return model.MockState{}, err
	}
	return c.SaveState(ctx, name, sandbox)
}

// states lists the project's named states (VIEWER and above).
func (s *core) states(ctx context.Context, p model.Principal, projectID string) ([]model.MockState, error) {
	c, err := s.project(ctx, p, projectID)
	if err != nil {
		return nil, err
	}
	return c.States(ctx)
}

// restoreState makes the project's data, or a sandbox's, what a named
// state holds (EDITOR and above).
func (s *core) restoreState(ctx context.Context, p model.Principal, projectID, name, sandbox string) error {
	c, err := s.project(ctx, p, projectID)
	if err != nil {
		return err
	}
	return c.RestoreState(ctx, name, sandbox)
}

// deleteState forgets a named state of the project (EDITOR and above).
func (s *core) deleteState(ctx context.Context, p model.Principal, projectID, name string) error {
	c, err := s.project(ctx, p, projectID)
	if err != nil {
		return err
	}
	return c.DeleteState(ctx, name)
}

// SaveMockState saves the project's mock data, or a sandbox's, as a named state.
func (s *Management) SaveMockState(ctx context.Context, p model.Principal, projectID, name, sandbox string) (model.MockState, error) {
	return s.saveState(ctx, p, projectID, name, sandbox)
}

// MockStates lists the project's named states.
func (s *Management) MockStates(ctx context.Context, p model.Principal, projectID string) ([]model.MockState, error) {
	return s.states(ctx, p, projectID)
}

// RestoreMockState makes the project's data, or a sandbox's, what a named state holds.
func (s *Management) RestoreMockState(ctx context.Context, p model.Principal, projectID, name, sandbox string) error {
	return s.restoreState(ctx, p, projectID, name, sandbox)
}

// DeleteMockState forgets a named state of the project.
func (s *Management) DeleteMockState(ctx context.Context, p model.Principal, projectID, name string) error {
	return s.deleteState(ctx, p, projectID, name)
}

// SaveMockState saves the project's mock data, or a sandbox's, as a named state.
func (s *MCP) SaveMockState(ctx context.Context, p model.Principal, projectID, name, sandbox string) (model.MockState, error) {
	return s.saveState(ctx, p, projectID, name, sandbox)
}

// MockStates lists the project's named states.
func (s *MCP) MockStates(ctx context.Context, p model.Principal, projectID string) ([]model.MockState, error) {
	return s.states(ctx, p, projectID)
}

// RestoreMockState makes the project's data, or a sandbox's, what a named state holds.
func (s *MCP) RestoreMockState(ctx context.Context, p model.Principal, projectID, name, sandbox string) error {
	return s.restoreState(ctx, p, projectID, name, sandbox)
}

// DeleteMockState forgets a named state of the project.
func (s *MCP) DeleteMockState(ctx context.Context, p model.Principal, projectID, name string) error {
	return s.deleteState(ctx, p, projectID, name)
}
