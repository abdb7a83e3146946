package realtime

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestHubQueues: events arrive in order and only for matching subscribers
// of their topic; a subscriber past QueueEvents or QueueBytes gets
// ErrSlowConsumer and takes nothing more; Close is idempotent and leaves
// the hub.
func TestHubQueues(t *testing.T) {
	cfg := DefaultConfig()
	cfg.QueueEvents, cfg.QueueBytes = 3, 100
	h := NewHub(cfg)
	all := h.Subscribe("p", nil)
	even := h.Subscribe("p", func(e Event) bool { return e.Data.(int)%2 == 0 })
	other := h.Subscribe("q", nil)
	for i := 1; i <= 3; i++ {
		h.Publish(Event{Topic: "p", Data: i, Size: 10})
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	for i := 1; i <= 3; i++ {
		if e, err := all.Next(ctx); err != nil || e.Data != i {
			t.Fatalf("event %d: %v %v", i, e.Data, err)
		}
	}
	if e, err := even.Next(ctx); err != nil || e.Data != 2 {
		t.Fatalf("matching subscriber: %v %v", e.Data, err)
	}
	short, stop := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer stop()
	if _, err := other.Next(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("another topic's subscriber got %v", err)
	}
	if n := h.Publish(Event{Topic: "p", Data: 4, Size: 10}); n != 2 {
		t.Fatalf("an even event taken by %d subscribers, want 2", n)
	}
	if _, err := all.Next(ctx); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		h.Publish(Event{Topic: "p", Data: 5, Size: 1})
	}
	if _, err := all.Next(ctx); !errors.Is(err, ErrSlowConsumer) {
		t.Fatalf("past QueueEvents: %v, want ErrSlowConsumer", err)
	}
	all.Close()
	all.Close()
	even.Close()
	if _, err := all.Next(ctx); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
	if n := h.Publish(Event{Topic: "q", Data: 6, Size: 101}); n != 0 {
		t.Fatalf("an event over QueueBytes taken by %d", n)
	}
	if _, err := other.Next(ctx); !errors.Is(err, ErrSlowConsumer) {
		t.Fatalf("past QueueBytes: %v, want ErrSlowConsumer", err)
	}
	if h.Subscribers("p") != 0 || h.Subscribers("q") != 1 {
		t.Fatalf("subscribers left: p %d, q %d", h.Subscribers("p"), h.Subscribers("q"))
	}
}

// TestSSERequests: the operation comes from a POST body or a GET query
// string; what is not a GraphQL request is 400, a refused credential
// reaches Refuse.
func TestSSERequests(t *testing.T) {
	rt := &fakeRuntime{hub: NewHub(quickConfig())}
	srv := NewServer(quickConfig(), rt)
	var refused error
	srv.Refuse = func(w http.ResponseWriter, r *http.Request, err error) {
		refused = err
		w.WriteHeader(http.StatusUnauthorized)
	}
	for _, tc := range []struct {
		name, method, target, body, token string
		status                            int
		want                              string
	}{
		{"POST", "POST", "/g", `{"query":"{ hello }"}`, "good", 200, "event: next\ndata: {\"data\":{\"hello\":\"world\"}}\n\nevent: complete\ndata: \n\n"},
		{"GET", "GET", "/g?query=%7B%20hello%20%7D&token=good", "", "", 200, "world"},
		{"invalid document", "POST", "/g", `{"query":"bad { x }"}`, "good", 200, "Cannot query field"},
		{"not JSON", "POST", "/g", `hello`, "good", 401, ""},
		{"no query", "GET", "/g", "", "good", 401, ""},
		{"refused", "POST", "/g", `{"query":"{ hello }"}`, "nope", 401, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			refused = nil
			r := httptest.NewRequest(tc.method, tc.target, strings.NewReader(tc.body))
			r.Header.Set("Accept", "text/event-stream")
			if tc.token != "" {
				r.Header.Set("Authorization", tc.token)
			}
			if !IsSubscription(r) {
				t.Fatal("an event-stream request is not IsSubscription")
			}
			w := httptest.NewRecorder()
			srv.ServeHTTP(w, r)
			if w.Code != tc.status || !strings.Contains(w.Body.String(), tc.want) {
				t.Fatalf("%d %q, want %d containing %q", w.Code, w.Body, tc.status, tc.want)
			}
			if (tc.status == 401) != (refused != nil) {
				t.Fatalf("Refuse called with %v", refused)
			}
		})
	}
}
