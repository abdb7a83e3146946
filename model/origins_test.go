package model

import (
	"strings"
	"testing"
)

// TestCheckAllowedOrigins: origins are scheme://host[:port], bounded in
// count and length, never "*", and only on account projects.
func TestCheckAllowedOrigins(t *testing.T) {
	many := make([]string, MaxAllowedOrigins+1)
	for i := range many {
		many[i] = "http://h" + strings.Repeat("a", i+1) + ".test"
	}
	for _, tc := range []struct {
		name    string
		kind    ProjectKind
		in      []string
		want    []string
		wantErr bool
	}{
		{"none", KindAccount, nil, []string{}, false},
		{"dev server", KindAccount, []string{"http://localhost:5173"}, []string{"http://localhost:5173"}, false},
		{"lower-cased, deduplicated", KindAccount, []string{"HTTPS://App.Example.com", "https://app.example.com"}, []string{"https://app.example.com"}, false},
		{"trailing slash", KindAccount, []string{"https://app.example.com/"}, []string{"https://app.example.com"}, false},
		{"IPv6", KindAccount, []string{"http://[::1]:3000"}, []string{"http://[::1]:3000"}, false},
		{"star", KindAccount, []string{"*"}, nil, true},
		{"path", KindAccount, []string{"http://localhost:5173/app"}, nil, true},
		{"query", KindAccount, []string{"http://localhost:5173?x=1"}, nil, true},
		{"fragment", KindAccount, []string{"http://localhost#x"}, nil, true},
		{"user info", KindAccount, []string{"http://u:p@localhost"}, nil, true},
		{"no scheme", KindAccount, []string{"localhost:5173"}, nil, true},
		{"ftp", KindAccount, []string{"ftp://files.test"}, nil, true},
		{"wildcard host", KindAccount, []string{"https://*.example.com"}, nil, true},
		{"bad port", KindAccount, []string{"http://localhost:abc"}, nil, true},
		{"empty", KindAccount, []string{""}, nil, true},
		{"too long", KindAccount, []string{"https://" + strings.Repeat("a", MaxOriginLength) + ".test"}, nil, true},
		{"too many", KindAccount, many, nil, true},
		{"guest project", KindGuest, []string{"http://localhost:5173"}, nil, true},
		{"guest project, cleared", KindSession, []string{}, []string{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CheckAllowedOrigins(tc.kind, tc.in)
			if tc.wantErr {
				if ErrorCode(err) != CodeBadUserInput {
					t.Fatalf("got %v, %v; want BAD_USER_INPUT", got, err)
				}
				return
			}
			if err != nil || strings.Join(got, ",") != strings.Join(tc.want, ",") || got == nil {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// TestCORSPolicy: guest and session projects allow every origin, account
// projects their list only.
func TestCORSPolicy(t *testing.T) {
	acct := &Project{Kind: KindAccount, AllowedOrigins: []string{"http://localhost:5173"}}
	for _, tc := range []struct {
		p      *Project
		origin string
		want   bool
	}{
		{&Project{Kind: KindGuest}, "http://any.test", true},
		{&Project{Kind: KindSession}, "null", true},
		{acct, "http://localhost:5173", true},
		{acct, "http://LOCALHOST:5173", true},
		{acct, "http://localhost:5174", false},
		{&Project{Kind: KindAccount}, "http://localhost:5173", false},
	} {
		if got := tc.p.CORS().Allows(tc.origin); got != tc.want {
			t.Errorf("%s project, origin %q: %v, want %v", tc.p.Kind, tc.origin, got, tc.want)
		}
	}
}
