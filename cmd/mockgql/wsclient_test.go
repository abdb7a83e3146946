package main

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// wsSub is a test-only graphql-transport-ws client of one connection.
type wsSub struct {
	t    *testing.T
	c    *websocket.Conn
	msgs chan wsMsg // every message but pings and pongs, from one reader
	err  chan error // why the reader stopped (a close carries its status)
}

// wsMsg is a graphql-transport-ws message.
type wsMsg struct {
	Type    string          `json:"type"`
	ID      string          `json:"id,omitempty"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// dialSub opens a graphql-transport-ws connection to the runtime at
// base+path and sends connection_init with payload. It does not wait for
// the acknowledgement (ack does).
func dialSub(t *testing.T, base, path string, payload map[string]any) *wsSub {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+path, &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		t.Fatalf("dial %s: %v", path, err)
	}
	c.SetReadLimit(8 << 20)
	t.Cleanup(func() { c.CloseNow() })
	w := &wsSub{t: t, c: c, msgs: make(chan wsMsg, 1024), err: make(chan error, 1)}
	go w.reader()
	p, _ := json.Marshal(payload)
	w.send(wsMsg{Type: "connection_init", Payload: p})
	return w
}

func (w *wsSub) send(m wsMsg) {
	w.t.Helper()
	b, _ := json.Marshal(m)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := w.c.Write(ctx, websocket.MessageText, b); err != nil {
		w.t.Fatalf("write: %v", err)
	}
}

// reader reads until the connection ends: a Read whose context ends
// would drop the connection, so waits with a timeout happen in read.
func (w *wsSub) reader() {
	for {
		_, data, err := w.c.Read(context.Background())
		if err != nil {
			w.err <- err
			close(w.msgs)
			return
		}
		var m wsMsg
		if json.Unmarshal(data, &m) == nil && m.Type != "ping" && m.Type != "pong" {
			w.msgs <- m
		}
	}
}

// errTimeout is read's error when nothing came within its time.
var errTimeout = errors.New("no message in time")

// read returns the next message, or the close error once the connection
// closed, or errTimeout after d.
func (w *wsSub) read(d time.Duration) (wsMsg, error) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case m, ok := <-w.msgs:
		if !ok {
			err := <-w.err
			w.err <- err
			return wsMsg{}, err
		}
		return m, nil
	case <-t.C:
		return wsMsg{}, errTimeout
	}
}

// ack waits for connection_ack.
func (w *wsSub) ack() *wsSub {
	w.t.Helper()
	m, err := w.read(10 * time.Second)
	if err != nil || m.Type != "connection_ack" {
		w.t.Fatalf("connection_ack: %+v %v", m, err)
	}
	return w
}

// subscribe starts operation id.
func (w *wsSub) subscribe(id, query string, vars map[string]any) {
	w.t.Helper()
	p, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	w.send(wsMsg{Type: "subscribe", ID: id, Payload: p})
}

// next waits for a message and requires it to be a next of id; it
// returns its payload decoded.
func (w *wsSub) next(id string, d time.Duration) map[string]any {
	w.t.Helper()
	m, err := w.read(d)
	if err != nil || m.Type != "next" || m.ID != id {
		w.t.Fatalf("want next %s, got %+v %s %v", id, m, m.Payload, err)
	}
	var out map[string]any
	_ = json.Unmarshal(m.Payload, &out)
	return out
}

// until calls do every interval until a message arrives and returns it:
// a subscription starts a moment after subscribe is sent, so the test
// repeats what fires it until the first event comes.
func (w *wsSub) until(t *testing.T, do func(), interval time.Duration, tries int) wsMsg {
	t.Helper()
	for range tries {
		do()
		m, err := w.read(interval)
		switch {
		case err == nil:
			return m
		case err != errTimeout:
			t.Fatalf("read: %v", err)
		}
	}
	t.Fatalf("no message after %d tries", tries)
	return wsMsg{}
}
