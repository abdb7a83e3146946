package actors

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/scheduler"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/model"
)

// Sent events and demo event streams (docs/using/realtime.md): an editor
// publishes an event of an existing row without changing data, or starts a
// stream that publishes one every few seconds, going through the table's
// rows in storage order. Streams live in the grain's activation: at most
// one per table and kind, at least MinEventEvery apart, each for at most
// EventStreamLife; they keep the grain active while they run and stop
// with it (its project deleted or expired, its node stopped or failed
// over). Nothing of them is written: after a restart none runs.

// MinEventEvery is the shortest interval of a demo event stream.
const MinEventEvery = time.Second

// EventStreamLife is how long a demo event stream runs before it stops.
const EventStreamLife = time.Hour

// eventStream is one running demo stream.
type eventStream struct {
	every time.Duration
	next  time.Time // when it publishes next
	until time.Time // when it stops
	n     int       // how many it published: the next row's position
}

// streamKey names a stream: one per table and kind.
type streamKey struct {
	table string
	kind  graphql.EventKind
}

// eventTick is the grain's own message that drives its streams.
type eventTick struct{}

// sendEvent publishes an event of row m.RowId of table m.TableId.
func (p *projectGrain) sendEvent(g *grain, m *pb.ProjectSendEvent) (result, error) {
	kind := graphql.EventKind(m.Kind)
	if !kind.Valid() {
		return nil, model.Errorf(model.CodeBadUserInput, "kind %q is not CREATED, UPDATED or DELETED", m.Kind)
	}
	rt, err := p.runtime(g)
	if err != nil {
		return nil, err
	}
	if err := rt.RowExists(g.env.Pool.forAccount(p.st.Project.AccountID), p.ov, m.TableId, m.RowId); err != nil {
		return nil, err
	}
	p.publishEvents(g, []graphql.Event{{TableID: m.TableId, RowID: m.RowId, Kind: kind, At: p.ov.Snapshot()}})
	return nil, nil
}

// eventStreamCall starts, replaces or (every_seconds 0) stops a stream.
func (p *projectGrain) eventStreamCall(g *grain, c *call, m *pb.ProjectEventStream) (result, error) {
	kind := graphql.EventKind(m.Kind)
	switch {
	case !kind.Valid():
		return nil, model.Errorf(model.CodeBadUserInput, "kind %q is not CREATED, UPDATED or DELETED", m.Kind)
	case p.st.Project.Table(m.TableId) == nil:
		return nil, model.Errorf(model.CodeNotFound, "table %q not found", m.TableId)
	case m.EverySeconds < 0 || m.EverySeconds > 3600:
		return nil, model.Errorf(model.CodeBadUserInput, "everySeconds is from %d to 3600 (0 stops the stream)", int(MinEventEvery/time.Second))
	}
	key := streamKey{m.TableId, kind}
	if m.EverySeconds == 0 {
		delete(p.streams, key)
		return nil, nil
	}
	every := max(time.Duration(m.EverySeconds)*time.Second, MinEventEvery)
	now := g.env.Clock.Now()
	if p.streams == nil {
		p.streams = map[streamKey]*eventStream{}
	}
	p.streams[key] = &eventStream{every: every, next: now.Add(every), until: now.Add(EventStreamLife)}
	if p.stopStreams == nil {
		p.stopStreams = scheduler.NewTimerScheduler(c.ctx).SendRepeatedly(MinEventEvery/4, MinEventEvery/4, c.ctx.Self(), eventTick{})
	}
	return nil, nil
}

// tickStreams publishes the events of the streams that are due and drops
// those past their life or whose table is gone.
func (p *projectGrain) tickStreams(g *grain) {
	if p.st == nil || p.st.Project.Expired(g.env.Clock.Now()) {
		p.endStreams()
		return
	}
	now := g.env.Clock.Now()
	g.lastUsed = now // a running stream keeps the activation
	var rt *graphql.Runtime
	for key, s := range p.streams {
		if now.After(s.until) || p.st.Project.Table(key.table) == nil {
			delete(p.streams, key)
			continue
		}
		if now.Before(s.next) {
			continue
		}
		s.next = now.Add(s.every)
		if rt == nil {
			var err error
			if rt, err = p.runtime(g); err != nil {
				return
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		id, ok := rt.SampleRow(ctx, g.env.Pool.forAccount(p.st.Project.AccountID), p.ov, key.table, s.n)
		cancel()
		if ok {
			s.n++
			p.publishEvents(g, []graphql.Event{{TableID: key.table, RowID: id, Kind: key.kind, At: p.ov.Snapshot()}})
		}
	}
	if len(p.streams) == 0 {
		p.endStreams()
	}
}

// endStreams stops every stream and the tick.
func (p *projectGrain) endStreams() {
	p.streams = nil
	if p.stopStreams != nil {
		p.stopStreams()
		p.stopStreams = nil
	}
}

// SendEvent asks the project to publish an event of kind of
// its row rowID of table tableID without changing data (EDITOR and
// above; NOT_FOUND for a row or table it does not have).
func (p ProjectClient) SendEvent(ctx context.Context, tableID string, kind graphql.EventKind, rowID string) error {
	_, err := p.ask(ctx, &pb.ProjectSendEvent{TableId: tableID, Kind: string(kind), RowId: rowID})
	return err
}

// EventStream starts (everySeconds >= 1), replaces or stops (0) the demo
// event stream of one table and kind of the project.
func (p ProjectClient) EventStream(ctx context.Context, tableID string, kind graphql.EventKind, everySeconds int) error {
	_, err := p.ask(ctx, &pb.ProjectEventStream{TableId: tableID, Kind: string(kind), EverySeconds: int32(everySeconds)})
	return err
}
