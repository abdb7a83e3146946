package realtime

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mockgql/mockgql/model"
)

// TestWSSessionEnded: once the session's credential is revoked, each
// running operation gets an error with the refusal's code, and the
// connection closes with 4403.
func TestWSSessionEnded(t *testing.T) {
	ts, rt := testServer(t, quickConfig())
	c := dial(t, ts)
	c.init("good")
	c.send(`{"type":"subscribe","id":"s1","payload":{"query":"subscription { tick }"}}`)
	waitFor(t, func() bool { return rt.hub.Subscribers("p") == 1 })
	rt.hub.Publish(Event{Topic: "p", Data: 1, Size: 1})
	c.expect("next", "s1", `"tick":1`)
	rt.revoke(model.Errorf(model.CodeAPIKeyInvalid, "this API key was revoked"))
	c.expect("error", "s1", `"code":"API_KEY_INVALID"`)
	if m := c.recv(); m.Type != "closed" || m.ID != "4403" {
		t.Fatalf("after the error: %+v, want close 4403", m)
	}
	waitFor(t, func() bool { return rt.hub.Subscribers("p") == 0 && rt.open.Load() == 0 })
}

// TestSSESessionEnded: an event stream whose credential is revoked sends
// the refusal as a next event's errors, then complete, and ends.
func TestSSESessionEnded(t *testing.T) {
	ts, rt := testServer(t, quickConfig())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/mock/shop/graphql", strings.NewReader(`{"query":"subscription { tick }"}`))
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "good")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	waitFor(t, func() bool { return rt.hub.Subscribers("p") == 1 })
	rt.revoke(model.Errorf(model.CodeProjectNotFound, "the project was deleted"))
	var got []string
	r := bufio.NewReader(res.Body)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			break // the stream ended
		}
		if strings.HasPrefix(line, "event: ") || strings.HasPrefix(line, "data: ") {
			got = append(got, strings.TrimSpace(line))
		}
	}
	want := `event: next|data: {"errors":[{"extensions":{"code":"PROJECT_NOT_FOUND"},"message":"the project was deleted"}]}|event: complete|data:`
	if strings.Join(got, "|") != want {
		t.Fatalf("got %q, want %q", strings.Join(got, "|"), want)
	}
}

// TestWSCountOperation: every subscribe counts against CountOperation; a
// refusal is that operation's error, with its retry time, and the
// connection goes on.
func TestWSCountOperation(t *testing.T) {
	cfg := quickConfig()
	rt := &fakeRuntime{hub: NewHub(cfg)}
	srv := NewServer(cfg, rt)
	var n atomic.Int64
	srv.CountOperation = func(_ context.Context, ip string) error {
		if ip == "" {
			t.Error("no client IP counted")
		}
		if n.Add(1) > 2 {
			return &model.Error{Code: model.CodeTooManyRequests, RetryAfter: 42, Message: "too many runtime requests"}
		}
		return nil
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	c := dial(t, ts)
	c.init("good")
	for _, id := range []string{"q1", "q2"} {
		c.send(`{"type":"subscribe","id":"` + id + `","payload":{"query":"{ hello }"}}`)
		c.expect("next", id, "world")
		c.expect("complete", id, "")
	}
	c.send(`{"type":"subscribe","id":"q3","payload":{"query":"{ hello }"}}`)
	m := c.expect("error", "q3", `"code":"TOO_MANY_REQUESTS"`)
	if !strings.Contains(string(m.Payload), `"retryAfter":42`) {
		t.Fatalf("no retry time: %s", m.Payload)
	}
	c.send(`{"type":"ping"}`)
	c.expect("pong", "", "")
}
