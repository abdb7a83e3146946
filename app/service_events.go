package app

import (
	"context"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/model"
)

// maxRowID bounds the row id of a sent event (docs/reference/bounds.md).
const maxRowID = 1024

// SendEvent publishes an event of an existing row to the project's
// subscribers without changing data (EDITOR and above; docs/using/
// realtime.md). kind is CREATED, UPDATED or DELETED.
func (s *Management) SendEvent(ctx context.Context, p model.Principal, projectID, tableID, kind, rowID string) error {
	a, err := s.callerAccess(ctx, p, projectID)
	if err != nil {
		return err
	}
	if err := model.CheckID("tableId", tableID); err != nil {
		return err
	}
	if rowID == "" || len(rowID) > maxRowID {
		return model.Errorf(model.CodeBadUserInput, "id is empty or longer than %d bytes", maxRowID)
	}
	return s.grains.Project(projectID, a).SendEvent(ctx, tableID, graphql.EventKind(kind), rowID)
}

// SetEventStream starts (everySeconds from 1 to 3600), replaces or stops
// (0) the project's demo event stream of one table and kind (EDITOR and
// above): an event every everySeconds, going through the table's rows.
func (s *Management) SetEventStream(ctx context.Context, p model.Principal, projectID, tableID, kind string, everySeconds int) error {
	a, err := s.callerAccess(ctx, p, projectID)
	if err != nil {
		return err
	}
	if err := model.CheckID("tableId", tableID); err != nil {
		return err
	}
	return s.grains.Project(projectID, a).EventStream(ctx, tableID, graphql.EventKind(kind), everySeconds)
}

// callerAccess is the access of p to projectID, with projectAsk's checks.
func (s *core) callerAccess(ctx context.Context, p model.Principal, projectID string) (actors.Access, error) {
	if projectID == "" {
		return actors.Access{}, model.Errorf(model.CodeNotFound, "project not found")
	}
	if err := model.CheckID("projectId", projectID); err != nil {
		return actors.Access{}, err
	}
	if p.Anonymous() && !p.System {
		return actors.Access{}, model.Errorf(model.CodeUnauthenticated, "sign in, or use an API key or a session")
	}
	return s.access(ctx, p)
}
