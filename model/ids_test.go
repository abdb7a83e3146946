package model

import (
	"strings"
	"testing"
)

// TestIdentifierChecks: every identifier and name a client sends has a
// length limit and a shape; the refusal is BAD_USER_INPUT, names the limit
// and never echoes more than 64 characters of the value.
func TestIdentifierChecks(t *testing.T) {
	long := strings.Repeat("x", 40<<10)
	tests := []struct {
		name  string
		err   error
		ok    bool
		limit string
	}{
		{"project ID", CheckID("projectId", "pAbC0123456789z"), true, ""},
		{"child ID", CheckID("tableId", "pAbC0123456789z.tAbCdEfGh"), true, ""},
		{"long ID", CheckID("projectId", long), false, "limit is 64"},
		{"ID with a space", CheckID("projectId", "p 1"), false, "letters, digits"},
		{"empty ID", CheckID("projectId", ""), false, "empty"},
		{"token", CheckToken("share token", "shr_abc"), true, ""},
		{"long token", CheckToken("share token", long), false, "limit is 256"},
		{"token with a newline", CheckToken("share token", "shr_\n"), false, "character"},
		{"grain identity", CheckGrainIdentity("user", "ann@example.com"), true, ""},
		{"long grain identity", CheckGrainIdentity("user", long), false, "1 to 256"},
		{"grain identity with NUL", CheckGrainIdentity("project", "p\x00"), false, "characters"},
		{"table name", CheckName("table name", "Product"), true, ""},
		{"long table name", CheckName("table name", strings.Repeat("A", 65)), false, "limit is 64"},
		{"64-letter name", CheckName("attribute name", strings.Repeat("a", 64)), true, ""},
		{"bad name", CheckName("attribute name", "1"+long), false, "limit is 64"},
		{"display name", CheckDisplayName("a project name", strings.Repeat("é", 100)), true, ""},
		{"long display name", CheckDisplayName("a project name", long), false, "limit is 100"},
	}
	for _, tt := range tests {
		switch {
		case tt.ok && tt.err != nil:
			t.Errorf("%s: %v", tt.name, tt.err)
		case !tt.ok && (ErrorCode(tt.err) != CodeBadUserInput || !strings.Contains(tt.err.Error(), tt.limit) || len(tt.err.Error()) > 200):
			t.Errorf("%s: %v; want BAD_USER_INPUT saying %q, short", tt.name, tt.err, tt.limit)
		}
	}
	for in, want := range map[string]string{" Ann@Example.com ": "ann@example.com"} {
		if got, err := NormEmail(in); err != nil || got != want {
			t.Errorf("NormEmail(%q) = %q, %v", in, got, err)
		}
	}
	for _, bad := range []string{long + "@example.com", "not an address " + long[:300], "a@b@c"} {
		if _, err := NormEmail(bad); ErrorCode(err) != CodeBadUserInput || len(err.Error()) > 200 {
			t.Errorf("NormEmail(%.20q…): %v", bad, err)
		}
	}
}
