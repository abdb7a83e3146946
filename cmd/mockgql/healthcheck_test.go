package main

import (
	"bytes"
	"fmt"
	stdhttp "net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHealthcheck: `mockgql healthcheck` exits 0 on a ready node's /readyz
// and 1 on a refusal or no answer, and finds the local node from MGQ_HTTP.
func TestHealthcheck(t *testing.T) {
	s := startServer(t)
	notReady := httptest.NewServer(stdhttp.HandlerFunc(func(w stdhttp.ResponseWriter, _ *stdhttp.Request) {
		w.WriteHeader(503)
		fmt.Fprint(w, `{"status":"starting"}`)
	}))
	defer notReady.Close()
	gone := freePort(t)
	for _, c := range []struct {
		name string
		url  string
		code int
		out  string
	}{
		{"ready node", s.base + "/readyz", 0, `"status":"ready"`},
		{"not ready", notReady.URL, 1, "503"},
		{"nothing listening", fmt.Sprintf("http://127.0.0.1:%d/readyz", gone), 1, "connection refused"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run([]string{"healthcheck", "--url", c.url}, &out, &errb)
			if code != c.code || !strings.Contains(out.String()+errb.String(), c.out) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d with %q", code, out.String(), errb.String(), c.code, c.out)
			}
		})
	}
	for addr, want := range map[string]string{
		"0.0.0.0:8080":   "http://127.0.0.1:8080/readyz",
		":9090":          "http://127.0.0.1:9090/readyz",
		"[::]:8080":      "http://127.0.0.1:8080/readyz",
		"10.1.2.3:8081":  "http://10.1.2.3:8081/readyz",
		"":               "http://127.0.0.1:8080/readyz",
		"[fd00::1]:8080": "http://[fd00::1]:8080/readyz",
	} {
		if got := localReadyz(addr); got != want {
			t.Errorf("MGQ_HTTP=%q: %s, want %s", addr, got, want)
		}
	}
}
