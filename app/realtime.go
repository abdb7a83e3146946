package app

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/realtime"
)

// Realtime serves a node's subscriptions (docs/using/realtime.md): it is
// the realtime.Runtime of the node's realtime.Server, and it receives the
// events every project grain broadcasts (Deliver) into the node's Hub.
//
// A connection opens with the runtime's credential checks (slug, key,
// scope, actor token, share token; no quota), which are made again every
// RecheckEvery while it is open: a refusal ends it. Each operation it starts is
// one runtime request (quota, faults, request log): a query or mutation
// answers once; a subscription answers with what it follows, and then
// each event of its project's table and kind is rendered for it by the
// project's grain (actors.Client.RenderEvent). Safe for concurrent use.
type Realtime struct {
	svc     *core
	hub     *realtime.Hub
	renders renders
	guard   guard
}

// eventBytes is what one event counts against a subscriber's QueueBytes:
// the queue holds the event's numbers and ids, not its rendering.
const eventBytes = 128

// NewRealtime returns the realtime runtime of s over hub.
func NewRealtime(s *Service, hub *realtime.Hub) *Realtime {
	r := &Realtime{svc: s.core, hub: hub}
	r.guard.rt = r
	return r
}

// Deliver hands what a project grain broadcast to this node's subscribers,
// in order. It never blocks (Hub.Publish does not).
func (r *Realtime) Deliver(data []byte) {
	projectID, evs, err := actors.DecodeRowEvents(data)
	if err != nil {
		return
	}
	for _, e := range evs {
		r.hub.Publish(realtime.Event{Topic: projectID, Data: e, Size: eventBytes})
	}
}

// Open implements realtime.Runtime.
func (r *Realtime) Open(ctx context.Context, path string, c realtime.Credentials) (realtime.Session, error) {
	slug, ok := slugOf(path)
	if !ok {
		return nil, model.Errorf(model.CodeProjectNotFound, "no project at %s", path)
	}
	base := model.RuntimeRequest{Slug: slug, KeyValue: keyOf(c), ShareToken: c.Query.Get("token"),
		ActorToken: c.Value("X-Actor-Token"), FaultHeader: c.Value("X-Mock-Fault"), Subscribe: true, Sandbox: c.Value("X-Mock-Sandbox")}
	if base.Sandbox == "" {
		base.Sandbox = c.Query.Get("sandbox")
	}
	if base.Sandbox != "" {
		if _, _, err := model.SplitSandbox(base.Sandbox); err != nil {
			return nil, err
		}
	}
	check := base
	check.CheckOnly = true
	if _, err := r.svc.runtime.Run(ctx, check); err != nil {
		return nil, err
	}
	projectID, err := r.svc.grains.ResolveSlug(ctx, slug, false)
	if err != nil {
		return nil, err
	}
	s := &session{rt: r, base: base, projectID: projectID, ended: make(chan struct{})}
	r.guard.add(s)
	return s, nil
}

// slugOf reads the slug of /mock/{slug}/graphql.
func slugOf(path string) (string, bool) {
	rest, ok := strings.CutPrefix(path, "/mock/")
	if !ok {
		return "", false
	}
	slug, ok := strings.CutSuffix(rest, "/graphql")
	return slug, ok && slug != "" && !strings.Contains(slug, "/")
}

// keyOf is the API key a connection presents: X-API-Key, else
// Authorization: Bearer (or a bare key), from the init payload or headers.
func keyOf(c realtime.Credentials) string {
	if k := strings.TrimSpace(c.Value("X-API-Key")); k != "" {
		return k
	}
	a := strings.TrimSpace(c.Value("Authorization"))
	if len(a) > 7 && strings.EqualFold(a[:7], "bearer ") {
		return strings.TrimSpace(a[7:])
	}
	return a
}

// session is one connection. Its credential is checked again every
// RecheckEvery (guard), which also keeps its actor token in use; a
// refusal ends it (Ended).
type session struct {
	rt        *Realtime
	base      model.RuntimeRequest
	projectID string // the slug's project when the connection opened

	endOnce sync.Once
	ended   chan struct{} // closed by end
	err     error         // why, set before ended closes
}

// check is the request that checks the session's credential again: the
// opening's checks, on the project the connection opened with (a slug
// moved to another project does not carry its streams along).
func (s *session) check() model.RuntimeRequest {
	c := s.base
	c.CheckOnly, c.ProjectID = true, s.projectID
	return c
}

// end ends the session because err refused its credential.
func (s *session) end(err error) {
	s.endOnce.Do(func() {
		s.err = err
		close(s.ended)
	})
}

// Ended implements realtime.Session.
func (s *session) Ended() <-chan struct{} { return s.ended }

// Err implements realtime.Session.
func (s *session) Err() error {
	select {
	case <-s.ended:
		return s.err
	default:
		return nil
	}
}

// Project implements realtime.Session.
func (s *session) Project() string { return s.projectID }

// Close implements realtime.Session: it releases the connection's actor
// token, whose slot the connection held (docs/using/realtime.md).
func (s *session) Close() {
	s.rt.guard.remove(s)
	if s.base.ActorToken == "" || s.base.KeyValue == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = (&Runtime{s.rt.svc}).ReleaseActorToken(ctx, s.base.KeyValue, s.base.ActorToken)
}

// Run implements realtime.Session.
func (s *session) Run(ctx context.Context, req realtime.Request) (realtime.Stream, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	call := s.base
	call.Body = body
	res, err := s.rt.svc.runtime.Run(ctx, call)
	switch {
	case err != nil:
		return nil, err
	case res.Refusal != nil:
		return nil, res.Refusal
	case res.Status == 400:
		return nil, requestError(res.Body)
	}
	target, ok := actors.ParseSubscriptionBody(res.Body)
	if !ok { // a query's or mutation's result, or a fault's errors
		return &once{res: append(json.RawMessage(nil), res.Body...), delay: res.Delay}, nil
	}
	st := &eventStream{rt: s.rt, projectID: target.ProjectID, body: body, delay: res.Delay,
		start: s.rt.svc.clock.Now(), query: req.Query, operationName: target.OperationName}
	if target.Kind == graphql.EventGenerated { // a contract's generated stream: a payload every EveryMs
		st.every = time.Duration(max(target.EveryMs, 1000)) * time.Millisecond
		return st, nil
	}
	match := func(e realtime.Event) bool { return target.Matches(e.Data.(actors.RowEvent)) }
	st.sub = s.rt.hub.Subscribe(target.ProjectID, match)
	return st, nil
}

// requestError turns a 400 body (GraphQL errors) into a RequestError.
func requestError(body []byte) error {
	var b struct {
		Errors []json.RawMessage `json:"errors"`
	}
	if json.Unmarshal(body, &b) != nil || len(b.Errors) == 0 {
		return model.Errorf(model.CodeBadRequest, "the request cannot run")
	}
	return &realtime.RequestError{Errors: b.Errors}
}

// once is the one result of a query or mutation, after its fault latency.
type once struct {
	res   json.RawMessage
	delay time.Duration
	sent  bool
}

func (o *once) Next(ctx context.Context) (json.RawMessage, error) {
	if o.sent {
		return nil, io.EOF
	}
	o.sent = true
	if err := wait(ctx, o.delay); err != nil {
		return nil, err
	}
	return o.res, nil
}

func (o *once) Close() {}

// eventStream is a subscription's results: each event of its target that
// its id and where arguments keep, rendered by the project's grain, after
// the fault latency its start drew. A contract project's generated
// subscription has no Subscriber: its nth payload, rendered by the grain,
// comes every after the (n-1)th.
type eventStream struct {
	rt        *Realtime
	sub       *realtime.Subscriber // nil for a generated stream
	every     time.Duration        // a generated stream's rate
	ticks     int64                // the payloads of a generated stream so far
	projectID string
	body      []byte
	delay     time.Duration

	// What the request log's END entry says (LogSubscriptionEnd).
	start                time.Time
	query, operationName string
	events               atomic.Int64 // Next and Close may run on different goroutines (SSE)
	closed               sync.Once
}

// Next implements realtime.Stream: the next result the stream's source
// renders, after the fault latency.
func (s *eventStream) Next(ctx context.Context) (json.RawMessage, error) {
	for {
		out, ok, err := s.render(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if err := wait(ctx, s.delay); err != nil {
			return nil, err
		}
		s.events.Add(1)
		return out, nil
	}
}

// render waits for the stream's next event (or, for a generated stream,
// its rate) and renders it; ok is false when the event's row is not the
// subscription's (its id or where keeps it out).
func (s *eventStream) render(ctx context.Context) (out json.RawMessage, ok bool, err error) {
	if s.sub == nil {
		if err := wait(ctx, s.every); err != nil {
			return nil, false, err
		}
		s.ticks++
		out, ok, err = s.rt.svc.grains.RenderEvent(ctx, s.projectID, actors.RowEvent{Kind: graphql.EventGenerated, Seq: s.ticks}, s.body)
	} else {
		e, nerr := s.sub.Next(ctx)
		if nerr != nil {
			return nil, false, nerr
		}
		out, ok, err = s.rt.renders.render(ctx, s.rt.svc.grains, s.projectID, e.Data.(actors.RowEvent), s.body)
	}
	if err != nil {
		return nil, false, eventError(ctx, err)
	}
	return out, ok, nil
}

// eventError is a failed rendering of one event: an execution error of
// that result alone (the subscription and its connection go on), unless
// the subscription is ending (ctx done).
func eventError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return &realtime.EventError{Err: err}
}

// Close implements realtime.Stream: the subscription's end goes to the
// project's request log, in the background (a grain call on another node
// must not hold the connection's close).
func (s *eventStream) Close() {
	s.closed.Do(func() {
		if s.sub != nil {
			s.sub.Close()
		}
		now := s.rt.svc.clock.Now()
		e := model.RequestLogEntry{At: s.start, OperationName: model.Clip(s.operationName, model.MaxLoggedName),
			Query: model.Clip(s.query, model.MaxLoggedQuery), DurationMs: float64(now.Sub(s.start)) / float64(time.Millisecond), Events: int(s.events.Load())}
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = s.rt.svc.grains.LogSubscriptionEnd(ctx, s.projectID, e)
		}()
	})
}

// wait waits d, or until ctx ends.
func wait(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
