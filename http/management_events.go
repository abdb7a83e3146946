package http

import (
	"context"
)

// The resolvers of realtime events (docs/using/realtime.md):
// Mutation.sendEvent, Mutation.startEventStream, Mutation.stopEventStream.

// Events is what the event mutations ask.
type Events interface {
	// SendEvent publishes an event of an existing row without changing
	// data (EDITOR and above).
	SendEvent(ctx context.Context, p Principal, projectID, tableID, kind, rowID string) error
	// SetEventStream starts (everySeconds >= 1) or stops (0) the demo
	// event stream of one table and kind (EDITOR and above).
	SetEventStream(ctx context.Context, p Principal, projectID, tableID, kind string, everySeconds int) error
}

// eventsResolvers resolves the event mutations through an Events backend.
type eventsResolvers struct {
	*Surface
	b Events
}

// roots returns the root fields of this file by "Type.field".
func (s eventsResolvers) roots() map[string]rootFunc {
	return map[string]rootFunc{
		"Mutation.sendEvent":        s.sendEvent,
		"Mutation.startEventStream": s.startEventStream,
		"Mutation.stopEventStream":  s.stopEventStream,
	}
}

func (s eventsResolvers) sendEvent(ctx context.Context, c *Call, args input) (any, error) {
	err := s.b.SendEvent(ctx, c.Principal, args.str("projectId"), args.str("tableId"), args.str("kind"), args.str("id"))
	return err == nil, err
}

func (s eventsResolvers) startEventStream(ctx context.Context, c *Call, args input) (any, error) {
	every, _ := args.integer("everySeconds")
	if every < 1 {
		every = -1 // 0 would stop it: refused as out of range
	}
	err := s.b.SetEventStream(ctx, c.Principal, args.str("projectId"), args.str("tableId"), args.str("kind"), every)
	return err == nil, err
}

func (s eventsResolvers) stopEventStream(ctx context.Context, c *Call, args input) (any, error) {
	err := s.b.SetEventStream(ctx, c.Principal, args.str("projectId"), args.str("tableId"), args.str("kind"), 0)
	return err == nil, err
}
