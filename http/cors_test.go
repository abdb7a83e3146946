package http

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mockgql/mockgql/model"
)

// runtimeStub lets the test-only stubs embed Runtime (whose own method is
// named Runtime) for the methods they do not implement.
type runtimeStub = Runtime

// unreached is the test-only preview and adoption backend of the CORS
// server, whose tests reach neither route: it refuses everything.
type unreached struct{}

func (unreached) Preview(context.Context, string, string) (*model.Preview, error) {
	return nil, model.Errorf(model.CodeNotFound, "no preview in this test")
}

func (unreached) Adopt(context.Context, string) (string, time.Time, error) {
	return "", time.Time{}, model.Errorf(model.CodeAdoptionTokenInvalid, "no adoption in this test")
}

// corsRuntime serves two projects: "guest" (any origin) and "acct" (an
// account project that allows http://app.test and answers only to the key
// mgq_good); "gone" names none, "broken"'s lookup fails. It counts the
// CORS lookups.
type corsRuntime struct {
	runtimeStub
	lookups atomic.Int32
}

func (r *corsRuntime) CORS(_ context.Context, slug, projectID string) (model.CORSPolicy, error) {
	r.lookups.Add(1)
	switch {
	case slug == "broken":
		return model.CORSPolicy{}, model.Errorf(model.CodeUnavailable, "no grain")
	case slug == "acct" || projectID == "prj_acct":
		return model.CORSPolicy{Listed: true, Origins: []string{"http://app.test"}}, nil
	}
	return model.CORSPolicy{}, nil
}

func (r *corsRuntime) Runtime(_ context.Context, q model.RuntimeRequest) (*model.RuntimeResult, error) {
	switch {
	case q.Slug == "gone":
		return nil, model.Errorf(model.CodeProjectNotFound, "no project")
	case q.Slug == "acct" && q.KeyValue != "mgq_good":
		return nil, model.Errorf(model.CodeUnauthenticated, "no key")
	}
	if q.BodyFrom != nil {
		if _, err := q.BodyFrom.ReadBody(); err != nil {
			return nil, err
		}
	}
	return &model.RuntimeResult{Status: 200, Body: []byte(`{"data":{"x":1}}`)}, nil
}

func (r *corsRuntime) AuthKey(_ context.Context, v string) (model.APIKey, error) {
	if v != "mgq_good" {
		return model.APIKey{}, model.Errorf(model.CodeUnauthenticated, "bad key")
	}
	return model.APIKey{ProjectID: "prj_acct"}, nil
}

func (r *corsRuntime) IssueActorToken(_ context.Context, v string) (any, error) {
	if v != "mgq_good" {
		return nil, model.Errorf(model.CodeUnauthenticated, "bad key")
	}
	return map[string]string{"token": "act_1"}, nil
}

func (r *corsRuntime) CheckIP(context.Context, string) error { return nil }

func (r *corsRuntime) CheckWindow(context.Context, string, string) error { return nil }

// startCORSServer serves rt on a real loopback listener.
func startCORSServer(tb testing.TB, rt *corsRuntime) *Server {
	tb.Helper()
	s, err := NewServer(Config{Addr: "127.0.0.1:0", JWTSecret: []byte(strings.Repeat("k", 32)), MaxBodyBytes: 64,
		Logger: slog.New(slog.DiscardHandler)}, testBackends(rt), nil)
	if err != nil {
		tb.Fatal(err)
	}
	if err := s.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	return s
}

// TestCORSHeaders: preflights and answers — refusals included — carry the
// CORS headers their project allows; account projects only for their
// listed origins; the management and public APIs never.
func TestCORSHeaders(t *testing.T) {
	s := startCORSServer(t, &corsRuntime{})
	big := `{"query":"{ x }","pad":"` + strings.Repeat("x", 100) + `"}`
	for _, tc := range []struct {
		name, method, path, origin, key, body string
		status                                int
		acao                                  string // Access-Control-Allow-Origin wanted
		preflight                             bool   // the preflight's headers wanted
	}{
		{"guest preflight", "OPTIONS", "/mock/guest/graphql", "http://other.test", "", "", 204, "*", true},
		{"guest query", "POST", "/mock/guest/graphql?token=t", "http://other.test", "", `{"query":"{ x }"}`, 200, "*", false},
		{"guest GET query", "GET", "/mock/guest/graphql?query=%7Bx%7D", "http://other.test", "", "", 200, "*", false},
		{"guest too large", "POST", "/mock/guest/graphql", "http://other.test", "", big, 413, "*", false},
		{"not a slug", "POST", "/mock/NOT_A_SLUG/graphql", "http://other.test", "", `{"query":"{ x }"}`, 200, "*", false},
		{"no such slug", "POST", "/mock/gone/graphql", "http://other.test", "", `{"query":"{ x }"}`, 404, "*", false},
		{"account preflight, listed", "OPTIONS", "/mock/acct/graphql", "http://app.test", "", "", 204, "http://app.test", true},
		{"account preflight, not listed", "OPTIONS", "/mock/acct/graphql", "http://evil.test", "", "", 204, "", false},
		{"account query, listed", "POST", "/mock/acct/graphql", "http://app.test", "mgq_good", `{"query":"{ x }"}`, 200, "http://app.test", false},
		{"account query, not listed", "POST", "/mock/acct/graphql", "http://evil.test", "mgq_good", `{"query":"{ x }"}`, 200, "", false},
		{"account refusal, listed", "POST", "/mock/acct/graphql", "http://app.test", "", `{"query":"{ x }"}`, 401, "http://app.test", false},
		{"lookup fails: no header", "POST", "/mock/broken/graphql", "http://app.test", "", `{"query":"{ x }"}`, 200, "", false},
		{"no Origin: no header", "POST", "/mock/guest/graphql", "", "", `{"query":"{ x }"}`, 200, "", false},
		{"actors preflight", "OPTIONS", "/runtime/actors", "http://app.test", "", "", 204, "*", true},
		{"actors, listed", "POST", "/runtime/actors", "http://app.test", "mgq_good", "", 200, "http://app.test", false},
		{"actors, not listed", "POST", "/runtime/actors", "http://evil.test", "mgq_good", "", 200, "", false},
		{"actors, bad key", "POST", "/runtime/actors", "http://evil.test", "mgq_bad", "", 401, "*", false},
		{"management API", "POST", "/graphql", "http://other.test", "", `{"query":"{ __typename }"}`, 0, "", false},
		{"management preflight", "OPTIONS", "/graphql", "http://other.test", "", "", 0, "", false},
		{"public API", "POST", "/public-graphql", "http://other.test", "", `{"query":"{ __typename }"}`, 0, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, "http://"+s.Addr()+tc.path, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			if tc.key != "" {
				req.Header.Set("Authorization", "Bearer "+tc.key)
			}
			if tc.method == "OPTIONS" {
				req.Header.Set("Access-Control-Request-Method", "POST")
				req.Header.Set("Access-Control-Request-Headers", "content-type, authorization")
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			h := res.Header
			if tc.status != 0 && res.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, tc.status, body)
			}
			if got := h.Get("Access-Control-Allow-Origin"); got != tc.acao {
				t.Fatalf("Access-Control-Allow-Origin %q, want %q", got, tc.acao)
			}
			if tc.acao != "" && (h.Get("Vary") == "" || !strings.Contains(h.Get("Access-Control-Expose-Headers"), "Retry-After")) {
				t.Fatalf("Vary %q, Expose-Headers %q", h.Get("Vary"), h.Get("Access-Control-Expose-Headers"))
			}
			if h.Get("Access-Control-Allow-Credentials") != "" {
				t.Fatal("credentials are never allowed")
			}
			got := h.Get("Access-Control-Allow-Methods") != "" && h.Get("Access-Control-Max-Age") == corsMaxAge
			for _, want := range []string{"Authorization", "X-API-Key", "X-Actor-Token", "Content-Type"} {
				got = got && strings.Contains(h.Get("Access-Control-Allow-Headers"), want)
			}
			if got != tc.preflight {
				t.Fatalf("preflight headers %v, want %v: %v", got, tc.preflight, h)
			}
			if tc.status >= 400 && !strings.Contains(string(body), `"statusCode":`) {
				t.Fatalf("a refusal without the error body: %s", body)
			}
		})
	}
}

// TestCORSCache: a preflight and the requests after it cost one policy
// lookup per slug within corsTTL, and a new one after it.
func TestCORSCache(t *testing.T) {
	rt := &corsRuntime{}
	s := startCORSServer(t, rt)
	now := time.Unix(1_000_000, 0)
	var clock atomic.Int64
	clock.Store(now.UnixNano())
	s.cors.now = func() time.Time { return time.Unix(0, clock.Load()) }
	call := func(method string) {
		req, _ := http.NewRequest(method, "http://"+s.Addr()+"/mock/guest/graphql", strings.NewReader(`{"query":"{ x }"}`))
		req.Header.Set("Origin", "http://other.test")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	call("OPTIONS")
	call("POST")
	call("POST")
	if n := rt.lookups.Load(); n != 1 {
		t.Fatalf("%d lookups for one slug, want 1", n)
	}
	clock.Add(int64(corsTTL))
	call("POST")
	if n := rt.lookups.Load(); n != 2 {
		t.Fatalf("%d lookups after the TTL, want 2", n)
	}
	req, _ := http.NewRequest("OPTIONS", "http://"+s.Addr()+"/mock/"+strings.Repeat("X", 5000)+"/graphql", nil)
	req.Header.Set("Origin", "http://other.test")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	s.cors.mu.Lock()
	l := len(s.cors.m)
	s.cors.mu.Unlock()
	if n := rt.lookups.Load(); n != 2 || l != 1 || res.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("a name that is no slug: %d lookups, %d cached, %v", n, l, res.Header)
	}
}

// TestCORSGateRefusal: the 429 the IP gate answers before gin carries the
// CORS headers, so a page can read the error body and Retry-After.
func TestCORSGateRefusal(t *testing.T) {
	for _, tc := range []struct{ method, path, origin, acao string }{
		{"POST", "/mock/acct/graphql", "http://other.test", "*"},
		{"DELETE", "/runtime/actors", "http://other.test", "*"},
		{"POST", "/mock/acct/graphql", "", ""},
	} {
		s := &Server{cfg: Config{EdgeLimits: model.EdgeLimits{IPLimit: 1}}, metrics: NewMetrics(), log: slog.New(slog.DiscardHandler), b: Backends{Edge: limitedEdge{}}}
		g, err := newGate(s, http.NotFoundHandler())
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(tc.method, tc.path, strings.NewReader(`{"query":"{ x }"}`))
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		g.ServeHTTP(rec, req)
		h := rec.Header()
		if rec.Code != 429 || h.Get("Access-Control-Allow-Origin") != tc.acao || (tc.acao != "" && !strings.Contains(h.Get("Access-Control-Expose-Headers"), "Retry-After")) {
			t.Fatalf("%s %s: %d, headers %v", tc.method, tc.path, rec.Code, h)
		}
	}
}

// TestGraphiQLPage: a browser's navigation gets GraphiQL under the pages'
// CSP; GraphQL clients' Accept headers and scripts get the runtime.
func TestGraphiQLPage(t *testing.T) {
	s := startCORSServer(t, &corsRuntime{})
	for _, tc := range []struct {
		name, method, path, accept string
		page                       bool
	}{
		{"browser navigation", "GET", "/mock/guest/graphql?token=t", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", true},
		{"navigation with ?query=", "GET", "/mock/guest/graphql?query=%7Bx%7D", "text/html,*/*;q=0.8", true},
		{"urql", "GET", "/mock/guest/graphql?query=%7Bx%7D", "application/graphql-response+json, application/json, text/event-stream, multipart/mixed", false},
		{"JSON", "GET", "/mock/guest/graphql?query=%7Bx%7D", "application/json", false},
		{"JSON before HTML", "GET", "/mock/guest/graphql?query=%7Bx%7D", "application/json, text/html", false},
		{"curl", "GET", "/mock/guest/graphql?query=%7Bx%7D", "*/*", false},
		{"POST asking for HTML", "POST", "/mock/guest/graphql", "text/html", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, "http://"+s.Addr()+tc.path, strings.NewReader(`{"query":"{ x }"}`))
			req.Header.Set("Accept", tc.accept)
			req.Header.Set("Origin", "http://other.test")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			isPage := strings.HasPrefix(res.Header.Get("Content-Type"), "text/html")
			if isPage != tc.page || res.StatusCode != 200 {
				t.Fatalf("%d %s: page %v, want %v", res.StatusCode, res.Header.Get("Content-Type"), isPage, tc.page)
			}
			if !tc.page {
				if string(body) != `{"data":{"x":1}}` {
					t.Fatalf("body %s", body)
				}
				return
			}
			if !strings.Contains(string(body), "graphiql-runtime.js") || !strings.Contains(res.Header.Get("Content-Security-Policy"), "script-src 'self'") ||
				res.Header.Get("X-Frame-Options") != "DENY" || res.Header.Get("Access-Control-Allow-Origin") != "" {
				t.Fatalf("page headers %v", res.Header)
			}
		})
	}
}
