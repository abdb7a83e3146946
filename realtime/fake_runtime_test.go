package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mockgql/mockgql/model"
)

// fakeRuntime is a test-only Runtime: the credential "good" (the init
// payload's or the header's Authorization, or ?token=) opens a session,
// "store down" fails as the server would (an internal error);
// "subscription …" documents follow the hub's topic "p", "bad" documents
// fail validation, anything else answers one result.
type fakeRuntime struct {
	hub    *Hub
	open   atomic.Int64 // sessions open now
	closed atomic.Int64

	mu       sync.Mutex
	sessions []*fakeSession
}

// revoke ends every session opened so far with err, as the runtime does
// when their credential is revoked.
func (f *fakeRuntime) revoke(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.sessions {
		s.end.Do(func() { s.err = err; close(s.ended) })
	}
}

func (f *fakeRuntime) Open(_ context.Context, path string, c Credentials) (Session, error) {
	if c.Value("Authorization") == "store down" { // a failure of the server, not a refusal
		return nil, errors.New("the key store is closed")
	}
	if c.Value("Authorization") != "good" && c.Query.Get("token") != "good" {
		return nil, model.Errorf(model.CodeAPIKeyInvalid, "no such key")
	}
	f.open.Add(1)
	s := &fakeSession{f: f, ended: make(chan struct{})}
	f.mu.Lock()
	f.sessions = append(f.sessions, s)
	f.mu.Unlock()
	return s, nil
}

type fakeSession struct {
	f     *fakeRuntime
	end   sync.Once
	ended chan struct{}
	err   error // set before ended closes
}

func (s *fakeSession) Ended() <-chan struct{} { return s.ended }

func (s *fakeSession) Err() error {
	select {
	case <-s.ended:
		return s.err
	default:
		return nil
	}
}

func (s *fakeSession) Run(_ context.Context, req Request) (Stream, error) {
	switch {
	case strings.HasPrefix(req.Query, "bad"):
		return nil, &RequestError{Errors: []json.RawMessage{errorJSON(`Cannot query field "bad"`, "GRAPHQL_VALIDATION_FAILED")}}
	case strings.HasPrefix(req.Query, "subscription failing"):
		return &hubStream{sub: s.f.hub.Subscribe("p", nil), failOn: -1}, nil
	case strings.HasPrefix(req.Query, "subscription broken"):
		return &hubStream{sub: s.f.hub.Subscribe("p", nil), breakOn: -1}, nil
	case strings.HasPrefix(req.Query, "subscription"):
		return &hubStream{sub: s.f.hub.Subscribe("p", nil)}, nil
	}
	return &oneStream{res: json.RawMessage(`{"data":{"hello":"world"}}`)}, nil
}

func (s *fakeSession) Project() string { return "p" }

func (s *fakeSession) Close() {
	s.f.open.Add(-1)
	s.f.closed.Add(1)
}

// hubStream turns the hub's events (ints) into results; the event failOn
// into an EventError, breakOn into a failure of the stream.
type hubStream struct {
	sub             *Subscriber
	failOn, breakOn any
}

func (h *hubStream) Next(ctx context.Context) (json.RawMessage, error) {
	e, err := h.sub.Next(ctx)
	if err != nil {
		return nil, err
	}
	switch {
	case e.Data == "end":
		return nil, io.EOF
	case h.failOn != nil && e.Data == h.failOn:
		return nil, &EventError{Err: model.Errorf(model.CodeBadUserInput, "the event cannot be rendered")}
	case h.breakOn != nil && e.Data == h.breakOn:
		return nil, model.Errorf(model.CodeInternal, "the stream broke")
	}
	return json.RawMessage(fmt.Sprintf(`{"data":{"tick":%v}}`, e.Data)), nil
}

func (h *hubStream) Close() { h.sub.Close() }

type oneStream struct {
	res  json.RawMessage
	sent bool
}

func (o *oneStream) Next(context.Context) (json.RawMessage, error) {
	if o.sent {
		return nil, io.EOF
	}
	o.sent = true
	return o.res, nil
}

func (o *oneStream) Close() {}
