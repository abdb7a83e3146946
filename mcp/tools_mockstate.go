package mcp

import (
	"context"
	"fmt"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Named states (docs/using/testing.md): save, list, restore and delete
// the session project's named states.

type stateArg struct {
	sessionArg
	Name    string `json:"name" jsonschema:"the state's name, 1 to 64 of A-Z a-z 0-9 . _ -, e.g. cart-3"`
	Sandbox string `json:"sandbox,omitempty" jsonschema:"a sandbox of the project to save or restore instead of the project's own data"`
}

type stateOut struct {
	Name        string `json:"name"`
	SavedAt     string `json:"savedAt"`
	ChangedRows int    `json:"changedRows" jsonschema:"rows it holds created, changed or deleted"`
	Bytes       int64  `json:"bytes" jsonschema:"the stored size of its changes"`
}

type statesOut struct {
	States []stateOut `json:"states"`
}

// saveMockState is save_mock_state.
func (s *Server) saveMockState(ctx context.Context, in stateArg) (stateOut, outcome, error) {
	p, pr, err := s.project(ctx, in.Session)
	if err != nil {
		return stateOut{}, outcome{}, err
	}
	st, err := s.cfg.Backend.SaveMockState(ctx, p, pr.ID, in.Name, in.Sandbox)
	if err != nil {
		return stateOut{}, outcome{}, err
	}
	out := stateOut{Name: st.Name, SavedAt: st.SavedAt.UTC().Format(time.RFC3339), ChangedRows: st.ChangedRows, Bytes: st.Bytes}
	return out, outcome{text: fmt.Sprintf("State %q saved: %d changed rows.", st.Name, st.ChangedRows)}, nil
}

// listMockStates is list_mock_states.
func (s *Server) listMockStates(ctx context.Context, in sessionArg) (statesOut, outcome, error) {
	p, pr, err := s.project(ctx, in.Session)
	if err != nil {
		return statesOut{}, outcome{}, err
	}
	list, err := s.cfg.Backend.MockStates(ctx, p, pr.ID)
	if err != nil {
		return statesOut{}, outcome{}, err
	}
	out := statesOut{States: make([]stateOut, 0, len(list))}
	for _, st := range list {
		out.States = append(out.States, stateOut{Name: st.Name, SavedAt: st.SavedAt.UTC().Format(time.RFC3339), ChangedRows: st.ChangedRows, Bytes: st.Bytes})
	}
	return out, outcome{text: fmt.Sprintf("%d states.", len(list))}, nil
}

// restoreMockState is restore_mock_state.
func (s *Server) restoreMockState(ctx context.Context, in stateArg) (doneOut, outcome, error) {
	p, pr, err := s.project(ctx, in.Session)
	if err != nil {
		return doneOut{}, outcome{}, err
	}
	if err := s.cfg.Backend.RestoreMockState(ctx, p, pr.ID, in.Name, in.Sandbox); err != nil {
		return doneOut{}, outcome{}, err
	}
	return doneOut{Done: true}, outcome{text: fmt.Sprintf("The data holds state %q now.", in.Name)}, nil
}

// deleteMockState is delete_mock_state.
func (s *Server) deleteMockState(ctx context.Context, in stateArg) (doneOut, outcome, error) {
	p, pr, err := s.project(ctx, in.Session)
	if err != nil {
		return doneOut{}, outcome{}, err
	}
	if err := s.cfg.Backend.DeleteMockState(ctx, p, pr.ID, in.Name); err != nil {
		return doneOut{}, outcome{}, err
	}
	return doneOut{Done: true}, outcome{text: fmt.Sprintf("State %q is gone.", in.Name)}, nil
}

func (s *Server) addStateTools() {
	addTool(s, &sdk.Tool{Name: "save_mock_state", Title: "Save a named state",
		Description: "Saves the session project's mock data (its changes, or with sandbox that sandbox's as it reads them) as a named state, e.g. cart-3. A sandbox starts from it with the header X-Mock-Sandbox: <sandbox>@<state>; restore_mock_state brings it back."},
		s.saveMockState)
	addTool(s, &sdk.Tool{Name: "list_mock_states", Title: "List the named states", Annotations: readOnly(),
		Description: "The session project's named states: name, when saved, changed rows and size."},
		s.listMockStates)
	addTool(s, &sdk.Tool{Name: "restore_mock_state", Title: "Restore a named state",
		Description: "Makes the session project's mock data, or with sandbox that sandbox's (made if need be), what a named state holds."},
		s.restoreMockState)
	addTool(s, &sdk.Tool{Name: "delete_mock_state", Title: "Delete a named state",
		Description: "Forgets one named state of the session project."},
		s.deleteMockState)
}
