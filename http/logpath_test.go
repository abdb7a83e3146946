package http

import (
	"strings"
	"testing"
)

func TestLogPathRedactsAdoptionTokens(t *testing.T) {
	token := "adt_" + strings.Repeat("A", 32)
	cases := []struct{ path, want string }{
		{"/auth/adopt/" + token, "/auth/adopt/[redacted]"},
		{"/auth/adopt/anything-at-all", "/auth/adopt/[redacted]"},
		{"/auth/adopt/", "/auth/adopt/"},
		{"/mock/shop/graphql", "/mock/shop/graphql"},
		{"/" + strings.Repeat("p", 1000), "/" + strings.Repeat("p", maxEchoPath-1)},
	}
	for _, c := range cases {
		if got := logPath(c.path); !strings.HasPrefix(got, c.want) || strings.Contains(got, token) {
			t.Errorf("logPath(%.40q) = %.60q, want %.60q", c.path, got, c.want)
		}
	}
}
