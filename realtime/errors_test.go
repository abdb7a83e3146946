package realtime

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestWSEventErrors: a result that fails reaches its subscription as a
// next with errors and the subscription goes on; a subscription that
// fails gets an error message and ends; the connection's other
// subscriptions and the connection itself are left alone.
func TestWSEventErrors(t *testing.T) {
	ts, rt := testServer(t, quickConfig())
	c := dial(t, ts)
	c.init("good")
	c.send(`{"type":"subscribe","id":"plain","payload":{"query":"subscription { tick }"}}`)
	c.send(`{"type":"subscribe","id":"failing","payload":{"query":"subscription failing { tick }"}}`)
	c.send(`{"type":"subscribe","id":"broken","payload":{"query":"subscription broken { tick }"}}`)
	waitFor(t, func() bool { return rt.hub.Subscribers("p") == 3 })
	for _, d := range []any{1, -1, 3} {
		rt.hub.Publish(Event{Topic: "p", Data: d, Size: 1})
	}
	got := map[string][]string{}
	for i := 0; i < 8; i++ { // plain: 3 nexts; failing: 3 nexts; broken: 1 next and its error
		m := c.recv()
		if m.Type == "closed" {
			t.Fatalf("the connection closed with %s after %v", m.ID, got)
		}
		got[m.ID] = append(got[m.ID], m.Type+" "+string(m.Payload))
	}
	want := map[string][]string{
		"plain":   {`next {"data":{"tick":1}}`, `next {"data":{"tick":-1}}`, `next {"data":{"tick":3}}`},
		"failing": {`next {"data":{"tick":1}}`, `next {"errors":[{"extensions":{"code":"BAD_USER_INPUT"},"message":"the event cannot be rendered"}]}`, `next {"data":{"tick":3}}`},
		"broken":  {`next {"data":{"tick":1}}`, `error [{"extensions":{"code":"INTERNAL"},"message":"internal error"}]`},
	}
	for id, w := range want {
		if strings.Join(got[id], "\n") != strings.Join(w, "\n") {
			t.Errorf("%s got\n%s\nwant\n%s", id, strings.Join(got[id], "\n"), strings.Join(w, "\n"))
		}
	}
	waitFor(t, func() bool { return rt.hub.Subscribers("p") == 2 })
	rt.hub.Publish(Event{Topic: "p", Data: 4, Size: 1})
	ids := map[string]bool{}
	for i := 0; i < 2; i++ { // the two left, in either order
		if m := c.recv(); m.Type == "next" && strings.Contains(string(m.Payload), `"tick":4`) {
			ids[m.ID] = true
		}
	}
	if !ids["plain"] || !ids["failing"] {
		t.Errorf("after the errors, tick 4 reached %v, want plain and failing", ids)
	}
	c.send(`{"type":"ping"}`)
	c.expect("pong", "", "")
}

// TestSSEEventErrors: over SSE, a result that fails is a next event with
// errors and the stream goes on; a stream that fails sends its error as a
// next event, then complete.
func TestSSEEventErrors(t *testing.T) {
	ts, rt := testServer(t, quickConfig())
	read := func(query string) (*bufio.Reader, func()) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/mock/shop/graphql", strings.NewReader(`{"query":"`+query+`"}`))
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Authorization", "good")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return bufio.NewReader(res.Body), func() { cancel(); res.Body.Close() }
	}
	failing, stop1 := read("subscription failing { tick }")
	defer stop1()
	broken, stop2 := read("subscription broken { tick }")
	defer stop2()
	waitFor(t, func() bool { return rt.hub.Subscribers("p") == 2 })
	for _, d := range []any{1, -1, 3} {
		rt.hub.Publish(Event{Topic: "p", Data: d, Size: 1})
	}
	events := func(r *bufio.Reader, n int) []string {
		var out []string
		for len(out) < n {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("after %v: %v", out, err)
			}
			if strings.HasPrefix(line, "data: ") {
				out = append(out, strings.TrimSpace(strings.TrimPrefix(line, "data: ")))
			}
		}
		return out
	}
	if got, want := strings.Join(events(failing, 3), "\n"), `{"data":{"tick":1}}
{"errors":[{"extensions":{"code":"BAD_USER_INPUT"},"message":"the event cannot be rendered"}]}
{"data":{"tick":3}}`; got != want {
		t.Errorf("failing got\n%s\nwant\n%s", got, want)
	}
	if got, want := strings.Join(events(broken, 3), "\n"), `{"data":{"tick":1}}
{"errors":[{"extensions":{"code":"INTERNAL"},"message":"internal error"}]}
`; got != want { // then complete, whose data is empty
		t.Errorf("broken got\n%s\nwant\n%s", got, want)
	}
}
