package http

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/mockgql/mockgql/model"
)

// TestGateRoutes: the gate counts exactly the requests routes() sends to
// the handlers that call the runtime.
func TestGateRoutes(t *testing.T) {
	for _, tc := range []struct{ method, path, want string }{
		{"POST", "/mock/shop/graphql", "runtime"},
		{"GET", "/mock/shop/graphql", "runtime"},
		{"PUT", "/mock/shop/graphql", ""},
		{"OPTIONS", "/mock/shop/graphql", "runtime"},
		{"OPTIONS", "/runtime/actors", ""},
		{"POST", "/mock//graphql", ""},
		{"POST", "/mock/a/b/graphql", ""},
		{"POST", "/mock/shop/graphql/", ""},
		{"POST", "/mock/graphql", ""},
		{"POST", "/runtime/actors", "actors"},
		{"DELETE", "/runtime/actors", "actors"},
		{"GET", "/runtime/actors", ""},
		{"GET", "/preview/shop/data", "preview"},
		{"GET", "/preview/shop", ""},
		{"POST", "/preview/shop/data", ""},
		{"POST", "/graphql", ""},
		{"POST", "/public-graphql", ""},
	} {
		if got := windowed(tc.method, tc.path); got != tc.want {
			t.Errorf("%s %s: counted as %q, want %q", tc.method, tc.path, got, tc.want)
		}
	}
}

// TestGateClientIP: the gate identifies the client as gin's ClientIP does
// with the same settings (the request log and everything else use gin's).
func TestGateClientIP(t *testing.T) {
	for _, trusted := range [][]string{nil, {"10.0.0.0/8"}, {"10.0.0.1", "192.168.0.0/16"}, {"::1/128", "fd00::/8"}} {
		s := &Server{cfg: Config{TrustedProxies: trusted}, metrics: NewMetrics()}
		g, err := newGate(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		engine := gin.New()
		if err := engine.SetTrustedProxies(trusted); err != nil {
			t.Fatal(err)
		}
		engine.RemoteIPHeaders = []string{"X-Forwarded-For"}
		var seen string
		engine.POST("/*any", func(c *gin.Context) { seen = c.ClientIP() })
		for _, tc := range []struct {
			remote string
			xff    []string
		}{
			{"203.0.113.9:5000", nil},
			{"203.0.113.9:5000", []string{"1.2.3.4"}},
			{"10.0.0.1:5000", nil},
			{"10.0.0.1:5000", []string{"1.2.3.4"}},
			{"10.0.0.1:5000", []string{"1.2.3.4, 10.2.3.4"}},
			{"10.0.0.1:5000", []string{"1.2.3.4", "10.9.9.9"}},
			{"10.0.0.1:5000", []string{"10.1.1.1, 10.2.2.2"}},
			{"10.0.0.1:5000", []string{"not-an-ip, 1.2.3.4"}},
			{"10.0.0.1:5000", []string{"1.2.3.4, garbage"}},
			{"192.168.3.3:5000", []string{" 5.6.7.8 "}},
			{"[::1]:5000", []string{"2001:db8::7"}},
			{"[fd00::5]:5000", []string{"2001:db8::7, fd00::9"}},
			{"[2001:db8::1]:5000", []string{"1.2.3.4"}},
			{"garbage", nil},
		} {
			r := httptest.NewRequest(http.MethodPost, "/mock/x/graphql", nil)
			r.RemoteAddr = tc.remote
			for _, v := range tc.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			seen = "(not served)"
			engine.ServeHTTP(httptest.NewRecorder(), r)
			if got, want := g.clientIP(r), seen; got != want {
				t.Errorf("trusted %v, peer %s, X-Forwarded-For %q: gate sees %q, gin %q", trusted, tc.remote, tc.xff, got, want)
			}
		}
	}
}

// panickyEdge's IP window panics; nothing else of it is called.
type panickyEdge struct{ Edge }

func (panickyEdge) CheckIP(context.Context, string) error { panic("window broken") }

// limitedEdge refuses every request with the window's error.
type limitedEdge struct{ Edge }

func (limitedEdge) CheckIP(context.Context, string) error {
	return &model.Error{Code: model.CodeTooManyRequests, RetryAfter: 7, Message: "too many"}
}

// TestGateAnswers: a request over the window gets the error body and
// Retry-After without reaching gin; a panic in the check is a 500 with the
// error body, never a dropped connection; other routes pass through.
func TestGateAnswers(t *testing.T) {
	for _, tc := range []struct {
		name    string
		edge    Edge
		status  int
		code    model.Code
		retry   string
		through bool
	}{
		{"over the window", limitedEdge{}, http.StatusTooManyRequests, model.CodeTooManyRequests, "7", false},
		{"the check panics", panickyEdge{}, http.StatusInternalServerError, model.CodeInternal, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Server{cfg: Config{EdgeLimits: model.EdgeLimits{IPLimit: 1}}, metrics: NewMetrics(), log: slog.New(slog.DiscardHandler), b: Backends{Edge: tc.edge}}
			reached := false
			g, err := newGate(s, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached = true }))
			if err != nil {
				t.Fatal(err)
			}
			rec := httptest.NewRecorder()
			g.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/mock/shop/graphql", strings.NewReader(`{"query":"{ x }"}`)))
			var body errorBody
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != tc.status || body.Code != tc.code ||
				body.StatusCode != tc.status || body.Path != "/mock/shop/graphql" || rec.Header().Get("Retry-After") != tc.retry || reached {
				t.Fatalf("%d %q (Retry-After %q, reached gin %v): %v", rec.Code, rec.Body, rec.Header().Get("Retry-After"), reached, err)
			}
			rec = httptest.NewRecorder()
			g.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/graphql", nil))
			if !reached {
				t.Fatal("a route outside the window did not reach gin")
			}
		})
	}
}
