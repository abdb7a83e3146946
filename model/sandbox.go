package model

import "time"

// A sandbox is a named overlay of one project's mock data that only the
// runtime requests naming it (X-Mock-Sandbox, ?sandbox=) read and write:
// its changes sit on the project's current data and are invisible to
// every other sandbox and to requests without one
// (docs/using/testing.md).

// MaxSandboxName is the longest sandbox name.
const MaxSandboxName = 64

// CheckSandboxName accepts 1 to MaxSandboxName characters of
// [A-Za-z0-9._-]; anything else is BAD_USER_INPUT (the name not echoed).
func CheckSandboxName(name string) error {
	if name == "" || len(name) > MaxSandboxName {
		return Errorf(CodeBadUserInput, "a sandbox name is 1 to %d characters of A-Z, a-z, 0-9, '.', '_' and '-'", MaxSandboxName)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return Errorf(CodeBadUserInput, "a sandbox name is 1 to %d characters of A-Z, a-z, 0-9, '.', '_' and '-'", MaxSandboxName)
		}
	}
	return nil
}

// Sandbox describes one live sandbox of a project.
type Sandbox struct {
	Name string `json:"name"`
	// ChangedRows is the number of rows its mutations created, changed or
	// deleted; Bytes their stored size, which the sandbox byte bound
	// counts.
	ChangedRows int       `json:"changedRows"`
	Bytes       int64     `json:"bytes"`
	CreatedAt   time.Time `json:"createdAt"`
	// LastUsedAt is its last request; it is forgotten once idle for the
	// node's sandbox TTL (ExpiresAt).
	LastUsedAt time.Time `json:"lastUsedAt"`
	ExpiresAt  time.Time `json:"expiresAt"`
}
