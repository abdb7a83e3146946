package actors

import (
	"context"
	"encoding/json"
	"sync"

	"google.golang.org/protobuf/proto"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// Realtime events (docs/using/realtime.md). A project grain publishes the
// events of a runtime mutation once its changes are written (to a majority
// of replicas in a cluster) and applied: it numbers them in its
// activation's eventRing, which keeps the overlay version each event is to
// be read in, and broadcasts their numbers to every node (Env.Broadcast),
// in the order it made them. A node's subscriptions then ask the ring's
// activation to render their selection on the event (RenderEvent): on
// this node directly, from another by one grain call. An event whose
// activation has gone (the node failed over, or the grain passivated) or
// that fell out of the ring is skipped: delivery is at most once.

// eventRingSize is how many events an activation keeps for rendering.
const eventRingSize = 4096

// RowEvent is one event as nodes receive it: the activation of the
// project grain that published it, its number there, and the row.
type RowEvent struct {
	Activation string
	Seq        int64
	TableID    string
	RowID      string
	Kind       graphql.EventKind
	// Sandbox is the sandbox whose mutation made the event; "" the
	// project's own data. Only subscriptions of that sandbox receive it.
	Sandbox string
}

// eventRing is an activation's recent events. Safe for concurrent use.
type eventRing struct {
	activation string
	mu         sync.Mutex
	next       int64 // the number of the next event; the first is 1
	buf        [eventRingSize]graphql.Event
}

func newEventRing() *eventRing { return &eventRing{activation: ids.RandomString(12), next: 1} }

// add numbers evs and keeps them, evicting the oldest.
func (r *eventRing) add(evs []graphql.Event) []*pb.RowEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*pb.RowEvent, len(evs))
	for i, e := range evs {
		seq := r.next
		r.next++
		r.buf[seq%eventRingSize] = e
		out[i] = &pb.RowEvent{Seq: seq, TableId: e.TableID, RowId: e.RowID, Kind: string(e.Kind)}
	}
	return out
}

// get returns event seq of activation, if the ring still has it.
func (r *eventRing) get(activation string, seq int64) (graphql.Event, bool) {
	if r == nil || activation != r.activation {
		return graphql.Event{}, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if seq <= 0 || seq >= r.next || seq < r.next-eventRingSize {
		return graphql.Event{}, false
	}
	return r.buf[seq%eventRingSize], true
}

// publishEvents numbers evs and broadcasts them. It runs on the grain's
// goroutine, so a project's events leave in the order they happened.
func (p *projectGrain) publishEvents(g *grain, evs []graphql.Event) {
	p.publishSandboxEvents(g, "", evs)
}

// publishSandboxEvents is publishEvents for the events of sandbox's
// mutation ("" the project's), which only its subscriptions receive.
func (p *projectGrain) publishSandboxEvents(g *grain, sandbox string, evs []graphql.Event) {
	if len(evs) == 0 || g.env.Broadcast == nil {
		return
	}
	if p.events == nil {
		p.events = newEventRing()
		p.publish(g)
	}
	msg := &pb.RowEvents{ProjectId: g.id, Activation: p.events.activation, Events: p.events.add(evs), Sandbox: sandbox}
	data, err := proto.Marshal(msg)
	if err != nil {
		g.env.Log.Error("encoding events", "project", g.id, "err", err)
		return
	}
	g.env.Broadcast(data)
}

// DecodeRowEvents reads what a project grain broadcast: its project and
// its events, in order.
func DecodeRowEvents(data []byte) (projectID string, evs []RowEvent, err error) {
	var m pb.RowEvents
	if err := proto.Unmarshal(data, &m); err != nil {
		return "", nil, err
	}
	evs = make([]RowEvent, len(m.Events))
	for i, e := range m.Events {
		evs[i] = RowEvent{Activation: m.Activation, Seq: e.Seq, TableID: e.TableId, RowID: e.RowId, Kind: graphql.EventKind(e.Kind), Sandbox: m.Sandbox}
	}
	return m.ProjectId, evs, nil
}

// renderOn runs the subscription body for event seq of activation with
// runtime rt over the pool: the GraphQL result, or ok false when the
// event is not for it or is gone. A document that no longer validates
// (the model changed) answers its errors.
func renderOn(ctx context.Context, rt *graphql.Runtime, pool graphql.Pool, ring *eventRing, activation string, seq int64, body []byte) ([]byte, bool, error) {
	ev, ok := ring.get(activation, seq)
	if !ok {
		return nil, false, nil
	}
	return renderEvent(ctx, rt, pool, ev, body)
}

// renderTick runs the subscription body for the nth payload of a
// generated subscription, on the overlay's current version.
func renderTick(ctx context.Context, rt *graphql.Runtime, pool graphql.Pool, ov *graphql.Overlay, n int64, body []byte) ([]byte, bool, error) {
	return renderEvent(ctx, rt, pool, graphql.Event{Kind: graphql.EventGenerated, N: n, At: ov.Snapshot()}, body)
}

// renderEvent runs the subscription body for ev.
func renderEvent(ctx context.Context, rt *graphql.Runtime, pool graphql.Pool, ev graphql.Event, body []byte) ([]byte, bool, error) {
	req, err := exec.DecodeRequest(body)
	if err != nil {
		return nil, false, err
	}
	prep, refusal := rt.PrepareContext(ctx, req)
	if refusal != nil {
		if err := exec.TimeoutError(refusal); err != nil {
			return nil, false, err
		}
		return refusal.AppendJSON(nil), true, nil
	}
	if _, _, sub := rt.SubscriptionTarget(prep); !sub {
		return nil, false, model.Errorf(model.CodeBadRequest, "the operation is no subscription of the project any more")
	}
	res, ok, err := rt.RenderEvent(ctx, prep, pool, ev)
	if err != nil || !ok {
		return nil, false, err
	}
	return res.AppendJSON(nil), true, nil
}

// renderCall answers a ProjectRenderEvent from another node.
func (p *projectGrain) renderCall(g *grain, c *call, m *pb.ProjectRenderEvent) (result, error) {
	if err := p.live(g); err != nil {
		return nil, err
	}
	tick := m.Activation == "" // a generated subscription's payload number Seq
	if !tick && (p.events == nil || p.events.activation != m.Activation) {
		return rawReply{&pb.Reply{}}, nil // another activation's event: skipped
	}
	rt, err := p.runtime(g)
	if err != nil {
		return nil, err
	}
	pool, ring, ov := g.env.Pool.forAccount(p.st.Project.AccountID), p.events, p.ov
	go func() {
		ctx, cancel := callContext(c.hdr)
		defer cancel()
		var body []byte
		var ok bool
		var err error
		if tick {
			body, ok, err = renderTick(ctx, rt, pool, ov, m.Seq, m.Body)
		} else {
			body, ok, err = renderOn(ctx, rt, pool, ring, m.Activation, m.Seq, m.Body)
		}
		switch {
		case err != nil:
			g.replyLater(c, errorReply(err))
		case ok:
			g.replyLater(c, &pb.Reply{Status: 200, Body: body})
		default:
			g.replyLater(c, &pb.Reply{})
		}
	}()
	return nil, errDeferred
}

// RenderEvent runs a subscription (body, its GraphQL request) for one
// event: the result, or ok false when the event is not for it or its
// activation no longer keeps it. On the node of the project's grain it
// reads the grain's snapshot; elsewhere it is one grain call.
//
// A RowEvent of Kind graphql.EventGenerated and no Activation is the
// payload number Seq of a generated subscription (a contract project's
// Subscription field that follows no table): rendered on the project's
// current data.
func (s *Client) RenderEvent(ctx context.Context, projectID string, ev RowEvent, body []byte) ([]byte, bool, error) {
	if v := s.env.Local.project(projectID); ev.Activation == "" && v != nil && v.rt != nil && v.ov != nil {
		return renderTick(ctx, v.rt, s.env.Pool.forAccount(v.project.AccountID), v.ov, ev.Seq, body)
	}
	if v := s.env.Local.project(projectID); v != nil && v.rt != nil && v.events != nil && v.events.activation == ev.Activation {
		return renderOn(ctx, v.rt, s.env.Pool.forAccount(v.project.AccountID), v.events, ev.Activation, ev.Seq, body)
	}
	r, err := s.ask(ctx, kindProject, projectID, &pb.ProjectRenderEvent{Header: &pb.Header{}, Activation: ev.Activation, Seq: ev.Seq, Body: body})
	if err != nil {
		return nil, false, err
	}
	return r.Body, r.Status == 200, nil
}

// SubscriptionTarget is what a started subscription follows.
type SubscriptionTarget struct {
	ProjectID string            `json:"projectId"`
	TableID   string            `json:"tableId"`
	Kind      graphql.EventKind `json:"kind"` // "" every kind; graphql.EventGenerated: a generated stream
	// EveryMs is, for a generated stream, the milliseconds between its
	// payloads.
	EveryMs int64 `json:"everyMs,omitempty"`
	// OperationName is the document's operation's name, for the request log.
	OperationName string `json:"operationName,omitempty"`
	// Sandbox is the sandbox whose events it receives; "" the project's.
	Sandbox string `json:"sandbox,omitempty"`
}

// subscriptionBody is the answer to a subscription's start
// (model.RuntimeRequest.Subscribe): its target, under a key no GraphQL
// response has.
func subscriptionBody(rt *graphql.Runtime, prep *exec.Prepared, projectID, sandbox string) []byte {
	t := SubscriptionTarget{ProjectID: projectID, OperationName: prep.OperationName(), Sandbox: sandbox}
	target, _ := rt.Target(prep)
	t.TableID, t.Kind, t.EveryMs = target.TableID, target.Kind, target.Every.Milliseconds()
	b, _ := json.Marshal(map[string]SubscriptionTarget{"subscription": t})
	return b
}

// Matches reports whether ev is of the sandbox, table and kind t follows.
func (t SubscriptionTarget) Matches(ev RowEvent) bool {
	return t.Sandbox == ev.Sandbox && graphql.SubTarget{TableID: t.TableID, Kind: t.Kind}.Matches(ev.TableID, ev.Kind)
}

// ParseSubscriptionBody returns the target a subscription's start
// answered, or ok false for a GraphQL response (errors, a fault's, or a
// query's or mutation's result).
func ParseSubscriptionBody(body []byte) (t SubscriptionTarget, ok bool) {
	var m struct {
		Subscription *SubscriptionTarget `json:"subscription"`
	}
	if json.Unmarshal(body, &m) != nil || m.Subscription == nil {
		return t, false
	}
	return *m.Subscription, true
}

// subscriptionEndOf is the request log entry of a subscription's end as
// the wire carries it, its texts clipped as the log clips a request's.
func subscriptionEndOf(w *pb.RequestLogEntry) *model.RequestLogEntry {
	e := &model.RequestLogEntry{At: unstamp(w.GetAt()), OperationName: model.Clip(w.GetOperationName(), model.MaxLoggedName),
		Query: model.Clip(w.GetQuery(), model.MaxLoggedQuery), Status: 200, DurationMs: w.GetDurationMs(),
		Code: model.Code(model.Clip(w.GetCode(), model.MaxLoggedName)), Subscription: model.SubscriptionEnd, Events: int(w.GetEvents()),
		Sandbox: model.Clip(w.GetSandbox(), model.MaxSandboxName)}
	return e
}

// LogSubscriptionEnd adds the end of a subscription to project projectID's
// request log (e: its start, life, events, document and, when it ended on
// an error, that error's code): directly on the grain's node, else by one
// grain call.
func (s *Client) LogSubscriptionEnd(ctx context.Context, projectID string, e model.RequestLogEntry) error {
	w := &pb.RequestLogEntry{At: stamp(e.At), OperationName: e.OperationName, Query: e.Query, DurationMs: e.DurationMs,
		Code: string(e.Code), Subscription: model.SubscriptionEnd, Events: int64(e.Events), Sandbox: e.Sandbox}
	if v := s.env.Local.project(projectID); v != nil && v.faults != nil {
		if !s.env.Config.NoRequestLog {
			v.faults.record(subscriptionEndOf(w))
		}
		return nil
	}
	return s.tell(ctx, kindProject, projectID, &pb.ProjectLogSubscriptionEnd{Header: &pb.Header{}, Entry: w})
}
