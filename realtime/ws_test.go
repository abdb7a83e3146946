package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/mockgql/mockgql/internal/testdata"
)

// testServer starts a Server with cfg over a fake runtime on a real
// listener.
func testServer(t *testing.T, cfg Config) (*httptest.Server, *fakeRuntime) {
	t.Helper()
	ts, rt, _ := testServerLog(t, cfg)
	return ts, rt
}

// testServerLog is testServer whose Log (internal failures) is kept.
func testServerLog(t *testing.T, cfg Config) (*httptest.Server, *fakeRuntime, *testdata.SyncBuffer) {
	t.Helper()
	rt := &fakeRuntime{hub: NewHub(cfg)}
	srv := NewServer(cfg, rt)
	log := &testdata.SyncBuffer{}
	srv.Log = slog.New(slog.NewTextHandler(log, nil))
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts, rt, log
}

// client is a graphql-transport-ws client for tests.
type client struct {
	t *testing.T
	c *websocket.Conn
}

func dial(t *testing.T, ts *httptest.Server) *client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+"/mock/shop/graphql",
		&websocket.DialOptions{Subprotocols: []string{Subprotocol}})
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(1 << 20)
	t.Cleanup(func() { c.CloseNow() })
	return &client{t: t, c: c}
}

func (c *client) send(msg string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.c.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
		c.t.Fatal(err)
	}
}

// recv returns the next message, or the close status the connection ended
// with (as message type "closed:<code>").
func (c *client) recv() message {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, data, err := c.c.Read(ctx)
	if err != nil {
		if code := websocket.CloseStatus(err); code != -1 {
			return message{Type: "closed", ID: fmt.Sprint(int(code))}
		}
		c.t.Fatalf("read: %v", err)
	}
	var m message
	if err := json.Unmarshal(data, &m); err != nil {
		c.t.Fatal(err)
	}
	return m
}

func (c *client) expect(typ, id, payloadPart string) message {
	c.t.Helper()
	m := c.recv()
	if m.Type != typ || m.ID != id || !strings.Contains(string(m.Payload), payloadPart) {
		c.t.Fatalf("got %s %s %s, want %s %s containing %q", m.Type, m.ID, m.Payload, typ, id, payloadPart)
	}
	return m
}

func (c *client) init(token string) {
	c.send(`{"type":"connection_init","payload":{"Authorization":"` + token + `"}}`)
	c.expect("connection_ack", "", "")
}

func quickConfig() Config {
	cfg := DefaultConfig()
	cfg.InitTimeout = 300 * time.Millisecond
	cfg.WriteTimeout = 500 * time.Millisecond
	return cfg
}

// TestWSSubscription: a subscription gets the hub's events in order, a
// query answers once, a document that cannot run answers an error and the
// connection stays; complete stops the subscription and frees its place in
// the hub; the session closes with the connection.
func TestWSSubscription(t *testing.T) {
	ts, rt := testServer(t, quickConfig())
	c := dial(t, ts)
	c.init("good")
	c.send(`{"type":"subscribe","id":"s1","payload":{"query":"subscription { tick }"}}`)
	waitFor(t, func() bool { return rt.hub.Subscribers("p") == 1 })
	for i := 1; i <= 3; i++ {
		rt.hub.Publish(Event{Topic: "p", Data: i, Size: 1})
	}
	for i := 1; i <= 3; i++ {
		c.expect("next", "s1", `"tick":`+string(rune('0'+i)))
	}
	c.send(`{"type":"subscribe","id":"q1","payload":{"query":"{ hello }"}}`)
	c.expect("next", "q1", "world")
	c.expect("complete", "q1", "")
	c.send(`{"type":"subscribe","id":"b1","payload":{"query":"bad { x }"}}`)
	c.expect("error", "b1", "GRAPHQL_VALIDATION_FAILED")
	c.send(`{"type":"ping"}`)
	c.expect("pong", "", "")
	c.send(`{"type":"complete","id":"s1"}`)
	waitFor(t, func() bool { return rt.hub.Subscribers("p") == 0 })
	rt.hub.Publish(Event{Topic: "p", Data: "end"})
	c.c.Close(websocket.StatusNormalClosure, "")
	waitFor(t, func() bool { return rt.open.Load() == 0 && rt.closed.Load() == 1 })
}

// TestWSSubscriptionCompletes: a stream that ends sends complete.
func TestWSSubscriptionCompletes(t *testing.T) {
	ts, rt := testServer(t, quickConfig())
	c := dial(t, ts)
	c.init("good")
	c.send(`{"type":"subscribe","id":"s1","payload":{"query":"subscription { tick }"}}`)
	waitFor(t, func() bool { return rt.hub.Subscribers("p") == 1 })
	rt.hub.Publish(Event{Topic: "p", Data: 7, Size: 1})
	rt.hub.Publish(Event{Topic: "p", Data: "end", Size: 1})
	c.expect("next", "s1", `"tick":7`)
	c.expect("complete", "s1", "")
}

// TestWSProtocolRefusals: each protocol breach closes with its
// graphql-transport-ws code.
func TestWSProtocolRefusals(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps []string
		code  string
	}{
		{"no init in time", nil, "4408"},
		{"wrong credential", []string{`{"type":"connection_init","payload":{"Authorization":"nope"}}`}, "4403"},
		{"subscribe first", []string{`{"type":"subscribe","id":"1","payload":{"query":"{ hello }"}}`}, "4401"},
		{"not JSON", []string{`hello`}, "4400"},
		{"second init", []string{`{"type":"connection_init","payload":{"Authorization":"good"}}`, "ack", `{"type":"connection_init"}`}, "4429"},
		{"duplicate id", []string{`{"type":"connection_init","payload":{"Authorization":"good"}}`, "ack",
			`{"type":"subscribe","id":"1","payload":{"query":"subscription { tick }"}}`,
			`{"type":"subscribe","id":"1","payload":{"query":"subscription { tick }"}}`}, "4409"},
		{"subscribe without query", []string{`{"type":"connection_init","payload":{"Authorization":"good"}}`, "ack",
			`{"type":"subscribe","id":"1","payload":{}}`}, "4400"},
		{"unknown type", []string{`{"type":"connection_init","payload":{"Authorization":"good"}}`, "ack", `{"type":"shout"}`}, "4400"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts, _ := testServer(t, quickConfig())
			c := dial(t, ts)
			for _, s := range tc.steps {
				if s == "ack" {
					c.expect("connection_ack", "", "")
					continue
				}
				c.send(s)
			}
			m := c.recv()
			if m.Type != "closed" || !strings.Contains(m.ID, tc.code) {
				t.Fatalf("got %s %s, want a close with %s", m.Type, m.ID, tc.code)
			}
		})
	}
}

// TestWSInternalFailure: a connection the runtime fails to open (a
// failure of the server, not a refusal) closes with 4500 and a reason
// that keeps the cause for the log; an operation that fails inside ends
// with "internal error" and its cause is logged too.
func TestWSInternalFailure(t *testing.T) {
	ts, _, log := testServerLog(t, quickConfig())
	c := dial(t, ts)
	c.send(`{"type":"connection_init","payload":{"Authorization":"store down"}}`)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _, err := c.c.Read(ctx)
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != CloseInternal || ce.Reason != "Internal server error" {
		t.Fatalf("got %v, want close 4500 Internal server error", err)
	}
	if !strings.Contains(log.String(), "the key store is closed") {
		t.Errorf("the cause is not in the log: %q", log.String())
	}

	ts, rt, log := testServerLog(t, quickConfig())
	c = dial(t, ts)
	c.init("good")
	c.send(`{"type":"subscribe","id":"b","payload":{"query":"subscription broken { tick }"}}`)
	waitFor(t, func() bool { return rt.hub.Subscribers("p") == 1 })
	rt.hub.Publish(Event{Topic: "p", Data: -1, Size: 1})
	c.expect("error", "b", `"message":"internal error"`)
	if !strings.Contains(log.String(), "the stream broke") {
		t.Errorf("the cause is not in the log: %q", log.String())
	}
}

// TestWSSubscriptionLimit: past MaxSubscriptions a subscribe answers an
// error with LIMIT_REACHED and the connection stays open.
func TestWSSubscriptionLimit(t *testing.T) {
	cfg := quickConfig()
	cfg.MaxSubscriptions = 2
	ts, rt := testServer(t, cfg)
	c := dial(t, ts)
	c.init("good")
	c.send(`{"type":"subscribe","id":"1","payload":{"query":"subscription { tick }"}}`)
	c.send(`{"type":"subscribe","id":"2","payload":{"query":"subscription { tick }"}}`)
	c.send(`{"type":"subscribe","id":"3","payload":{"query":"subscription { tick }"}}`)
	c.expect("error", "3", "LIMIT_REACHED")
	waitFor(t, func() bool { return rt.hub.Subscribers("p") == 2 })
	c.send(`{"type":"ping"}`)
	c.expect("pong", "", "")
}

// TestWSSlowConsumer: a client that stops reading is closed with 1013
// once its queue overflows, its subscription leaves the hub, and what the
// server held for it is bounded by the queue (the publisher never blocks).
func TestWSSlowConsumer(t *testing.T) {
	cfg := quickConfig()
	cfg.QueueEvents = 8
	ts, rt := testServer(t, cfg)
	c := dial(t, ts)
	c.init("good")
	c.send(`{"type":"subscribe","id":"s","payload":{"query":"subscription { tick }"}}`)
	waitFor(t, func() bool { return rt.hub.Subscribers("p") == 1 })
	big := strings.Repeat("x", 64<<10)
	taken := 0
	for i := 0; i < 10000 && rt.hub.Subscribers("p") == 1; i++ {
		taken += rt.hub.Publish(Event{Topic: "p", Data: `"` + big + `"`, Size: len(big)})
	}
	waitFor(t, func() bool { return rt.hub.Subscribers("p") == 0 })
	for {
		m := c.recv()
		if m.Type == "closed" {
			if !strings.Contains(m.ID, "1013") {
				t.Fatalf("closed with %s, want 1013", m.ID)
			}
			break
		}
	}
	if taken >= 10000 {
		t.Fatalf("all %d events were queued for a client that does not read", taken)
	}
}

// TestWSIdle: a connection that runs nothing for IdleTimeout is closed.
func TestWSIdle(t *testing.T) {
	cfg := quickConfig()
	cfg.PingInterval, cfg.IdleTimeout = 50*time.Millisecond, 100*time.Millisecond
	ts, rt := testServer(t, cfg)
	c := dial(t, ts)
	c.init("good")
	if m := c.recv(); m.Type != "closed" || !strings.Contains(m.ID, "1000") {
		t.Fatalf("got %v, want a normal close", m)
	}
	waitFor(t, func() bool { return rt.open.Load() == 0 })
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 10 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestWSNodeLimits: operations per client IP and per project count over
// every connection of the node; past either a subscribe answers an error
// with LIMIT_REACHED, and an operation that ends gives its place back.
func TestWSNodeLimits(t *testing.T) {
	for _, tc := range []struct {
		name       string
		ip, proj   int
		wantPhrase string
	}{
		{"per IP", 2, 0, "your address"},
		{"per project", 0, 2, "this project"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := quickConfig()
			cfg.MaxPerIP, cfg.MaxPerProject = tc.ip, tc.proj
			ts, rt := testServer(t, cfg)
			a, b := dial(t, ts), dial(t, ts)
			a.init("good")
			b.init("good")
			a.send(`{"type":"subscribe","id":"1","payload":{"query":"subscription { tick }"}}`)
			b.send(`{"type":"subscribe","id":"1","payload":{"query":"subscription { tick }"}}`)
			waitFor(t, func() bool { return rt.hub.Subscribers("p") == 2 })
			b.send(`{"type":"subscribe","id":"2","payload":{"query":"subscription { tick }"}}`)
			b.expect("error", "2", tc.wantPhrase)
			a.send(`{"type":"complete","id":"1"}`)
			waitFor(t, func() bool { return rt.hub.Subscribers("p") == 1 })
			b.send(`{"type":"subscribe","id":"3","payload":{"query":"subscription { tick }"}}`)
			waitFor(t, func() bool { return rt.hub.Subscribers("p") == 2 })
		})
	}
}
