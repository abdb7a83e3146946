package upstream

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// introspection is a minimal introspection answer.
const introspection = `{"data":{"__schema":{"queryType":{"name":"Query"},"types":[]}}}`

// TestPrivateAddressesRefused: without AllowPrivate, a URL on this host
// (loopback) is refused before any byte is sent, whether named directly
// or by a name that resolves to it (the check runs on the address dialed,
// so it holds for every redirect's hop too); with AllowPrivate it is
// fetched, through a redirect as well.
func TestPrivateAddressesRefused(t *testing.T) {
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		w.Write([]byte(introspection))
	}))
	defer srv.Close()
	for _, u := range []string{srv.URL, strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)} {
		_, err := (&Client{}).Introspect(context.Background(), u, nil)
		if model.ErrorCode(err) != model.CodeBadUserInput || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("%s: %v; want BAD_USER_INPUT naming a loopback address", u, err)
		}
	}
	if hits != 0 {
		t.Fatalf("the refused calls reached the server %d times", hits)
	}
	redirect := httptest.NewServer(http.RedirectHandler(srv.URL, http.StatusTemporaryRedirect))
	defer redirect.Close()
	if _, err := (&Client{AllowPrivate: true}).Introspect(context.Background(), redirect.URL, nil); err != nil {
		t.Fatalf("allowed, through a redirect: %v", err)
	}
	if hits != 1 {
		t.Fatalf("hits %d", hits)
	}
}

// TestBounds: an answer over MaxBytes is PAYLOAD_TOO_LARGE, an answer
// that is no introspection result UNAVAILABLE naming its status, headers
// over their bounds or that would set the request's framing
// BAD_USER_INPUT, a URL with credentials or another scheme too; the
// caller's headers are sent, and nothing else that names mockgql's
// credentials.
func TestBounds(t *testing.T) {
	var got http.Header
	big := strings.Repeat("x", MaxBytes+10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		switch r.URL.Path {
		case "/big":
			w.Write([]byte(big))
		case "/html":
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte(`<html>no</html>`))
		default:
			w.Write([]byte(introspection))
		}
	}))
	defer srv.Close()
	c := &Client{AllowPrivate: true}
	ctx := context.Background()
	if _, err := c.Introspect(ctx, srv.URL+"/big", nil); model.ErrorCode(err) != model.CodePayloadTooLarge {
		t.Errorf("a 16 MB answer: %v", err)
	}
	if _, err := c.Introspect(ctx, srv.URL+"/html", nil); model.ErrorCode(err) != model.CodeUnavailable || !strings.Contains(err.Error(), "HTTP 403") {
		t.Errorf("an HTML 403: %v", err)
	}
	if _, err := c.Introspect(ctx, srv.URL, []Header{{Name: "Authorization", Value: "Bearer real"}}); err != nil {
		t.Fatal(err)
	}
	if got.Get("Authorization") != "Bearer real" || got.Get("Cookie") != "" || got.Get("X-Api-Key") != "" {
		t.Errorf("sent headers %v", got)
	}
	many := make([]Header, MaxHeaders+1)
	for i := range many {
		many[i] = Header{Name: "X-A", Value: "1"}
	}
	for name, h := range map[string][]Header{
		"too many": many, "too long": {{Name: "X-A", Value: strings.Repeat("v", MaxHeaderBytes)}},
		"Host": {{Name: "host", Value: "evil"}}, "a newline": {{Name: "X-A", Value: "a\r\nX-B: b"}}, "no name": {{Name: " ", Value: "a"}},
	} {
		if _, err := c.Introspect(ctx, srv.URL, h); model.ErrorCode(err) != model.CodeBadUserInput {
			t.Errorf("headers %s: %v; want BAD_USER_INPUT", name, err)
		}
	}
	for _, u := range []string{"ftp://example.com/", "http://user:pw@example.com/graphql", "/graphql", "http://" + strings.Repeat("a", MaxURLBytes)} {
		if _, err := c.Introspect(ctx, u, nil); model.ErrorCode(err) != model.CodeBadUserInput {
			t.Errorf("url %.60s: %v; want BAD_USER_INPUT", u, err)
		}
	}
}
