package main

import (
	"strings"
	"testing"
)

func TestOperations(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "ops@example.com", "ops")
	sh.query(`{ products { total } }`, nil).data(t)

	t.Run("health and readiness", func(t *testing.T) {
		if r := s.do("GET", "/healthz", nil); r.Status != 200 {
			t.Fatalf("healthz: %d", r.Status)
		}
		if r := s.do("GET", "/readyz", nil); r.Status != 200 {
			t.Fatalf("readyz: %d %s", r.Status, r.Raw)
		}
	})
	t.Run("metrics", func(t *testing.T) {
		r := s.do("GET", "/metrics", nil)
		body := string(r.Raw)
		for _, want := range []string{`mockgql_http_requests_total{code="200",route="runtime"}`, `mockgql_http_request_seconds_bucket{route="runtime"`,
			`mockgql_grain_activations_total{kind="project"}`, "go_goroutines"} {
			if !strings.Contains(body, want) {
				t.Errorf("metrics lack %s", want)
			}
		}
	})
	t.Run("request IDs", func(t *testing.T) {
		r := s.do("GET", "/healthz", nil, "X-Request-Id", "abc123")
		if r.Header.Get("X-Request-Id") != "abc123" {
			t.Fatalf("request id not echoed: %v", r.Header)
		}
		if s.do("GET", "/healthz", nil).Header.Get("X-Request-Id") == "" {
			t.Fatal("no request id")
		}
	})
	t.Run("unknown routes use the error body", func(t *testing.T) {
		s.do("GET", "/nope", nil).refusal(t, 404, "NOT_FOUND")
		s.do("GET", sh.runtime, nil).refusal(t, 400, "Bad Request")
	})
}
