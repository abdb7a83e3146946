package http

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// TestRequireJSON: a GraphQL POST is JSON or refused; GET passes.
func TestRequireJSON(t *testing.T) {
	for _, tc := range []struct {
		method, ct string
		ok         bool
	}{
		{"POST", "application/json", true},
		{"POST", "Application/JSON; charset=utf-8", true},
		{"POST", "text/plain", false},
		{"POST", "application/x-www-form-urlencoded", false},
		{"POST", "multipart/form-data; boundary=x", false},
		{"POST", "", false},
		{"POST", "application/json-seq", false},
		{"GET", "", true},
	} {
		r := httptest.NewRequest(tc.method, "/graphql", nil)
		if tc.ct != "" {
			r.Header.Set("Content-Type", tc.ct)
		}
		err := requireJSON(r)
		if (err == nil) != tc.ok || err != nil && model.ErrorCode(err) != model.CodeBadRequest {
			t.Errorf("%s %q: %v, want ok=%v", tc.method, tc.ct, err, tc.ok)
		}
	}
}

// TestCheckOrigin: a request with the app's cookies and a foreign Origin
// is FORBIDDEN; the app's own origins, its Host, and requests without
// cookies or without an Origin pass.
func TestCheckOrigin(t *testing.T) {
	s := &Server{cfg: Config{AppURL: "https://app.example", BaseURL: "https://api.example"}}
	for _, tc := range []struct {
		name, origin, cookie string
		ok                   bool
	}{
		{"no origin", "", "mgq_jwt=x", true},
		{"no cookie", "https://evil.example", "", true},
		{"other cookie", "https://evil.example", "other=1", true},
		{"app url", "https://app.example", "mgq_jwt=x", true},
		{"base url", "https://API.example", "mgq_session=x", true},
		{"own host", "http://10.0.0.1:8080", "mgq_jwt=x", true},
		{"foreign", "https://evil.example", "mgq_jwt=x", false},
		{"other port of the host", "https://app.example:444", "mgq_session=x", false},
		{"other scheme", "http://app.example", "mgq_jwt=x", false},
		{"null", "null", "mgq_jwt=x", false},
		{"garbage", "::", "mgq_jwt=x", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "http://10.0.0.1:8080/graphql", nil)
			if tc.origin != "" {
				r.Header.Set("Origin", tc.origin)
			}
			if tc.cookie != "" {
				r.Header.Set("Cookie", tc.cookie)
			}
			err := s.checkOrigin(r)
			if (err == nil) != tc.ok || err != nil && model.ErrorCode(err) != model.CodeForbidden {
				t.Fatalf("%v, want ok=%v", err, tc.ok)
			}
		})
	}
}

// TestClipEchoes: an oversized path or detail is clipped in the error body.
func TestClipEchoes(t *testing.T) {
	s := &Server{log: logger(nil)}
	w := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/mock/"+strings.Repeat("s", 10000)+"/graphql", nil)
	s.refuse(w, r, "", model.Errorf(model.CodeNotFound, "no project %s", strings.Repeat("s", 10000)))
	if w.Body.Len() > maxEchoPath+maxEchoDetail+300 || !strings.Contains(w.Body.String(), "(10014 bytes)") {
		t.Fatalf("%d bytes: %.300s", w.Body.Len(), w.Body.String())
	}
}
