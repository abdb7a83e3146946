package app

import (
	"context"

	"github.com/mockgql/mockgql/model"
)

// SetFaults sets the fault settings of a project, or of one of its
// operations when operationID is set (EDITOR and above); nil clears them.
// Invalid settings are BAD_USER_INPUT naming the field, and change
// nothing. It returns the project.
func (s *Management) SetFaults(ctx context.Context, p model.Principal, projectID, operationID string, f *model.FaultSettings) (*model.Project, error) {
	if f != nil {
		if err := f.Check(); err != nil {
			return nil, err
		}
	}
	c, err := s.edit(ctx, p, projectID)
	if err != nil {
		return nil, err
	}
	return c.SetFaults(ctx, operationID, f)
}

// RequestLog returns the newest limit entries (at most
// model.RequestLogSize) of the project's request log, newest first
// (VIEWER and above). The log is held by the project's grain in memory.
func (s projectFields) RequestLog(ctx context.Context, p model.Principal, projectID string, limit int) ([]model.RequestLogEntry, error) {
	c, err := s.project(ctx, p, projectID)
	if err != nil {
		return nil, err
	}
	return c.RequestLog(ctx, max(0, min(limit, model.RequestLogSize)))
}

// ClearRequestLog empties the project's request log (EDITOR and above)
// and returns the project.
func (s *Management) ClearRequestLog(ctx context.Context, p model.Principal, projectID string) (*model.Project, error) {
	c, err := s.project(ctx, p, projectID)
	if err == nil {
		err = c.ClearRequestLog(ctx)
	}
	if err != nil {
		return nil, err
	}
	return s.readProject(ctx, p, projectID, "")
}
