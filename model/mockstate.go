package model

import (
	"strings"
	"time"
)

// A named state is a saved copy of a project's mock data changes (its
// own, or a sandbox's on top of the project's as they were then) that the
// project or a sandbox can be restored to, and that a sandbox can start
// from (X-Mock-Sandbox: <sandbox>@<state>; docs/using/testing.md).

// MockState describes one named state of a project.
type MockState struct {
	Name    string    `json:"name"`
	SavedAt time.Time `json:"savedAt"`
	// ChangedRows is the number of rows it holds created, changed or
	// deleted; Bytes their stored size, which the state byte bound counts.
	ChangedRows int   `json:"changedRows"`
	Bytes       int64 `json:"bytes"`
}

// CheckStateName accepts what CheckSandboxName accepts: 1 to 64
// characters of [A-Za-z0-9._-]; anything else is BAD_USER_INPUT.
func CheckStateName(name string) error {
	if CheckSandboxName(name) != nil {
		return Errorf(CodeBadUserInput, "a state name is 1 to %d characters of A-Z, a-z, 0-9, '.', '_' and '-'", MaxSandboxName)
	}
	return nil
}

// SplitSandbox splits the value of X-Mock-Sandbox (or ?sandbox=) into the
// sandbox's name and the named state it starts from ("" none):
// "checkout@cart-3" is sandbox "checkout" made from state "cart-3". Both
// names are checked.
func SplitSandbox(v string) (name, state string, err error) {
	name, state, found := strings.Cut(v, "@")
	if err := CheckSandboxName(name); err != nil {
		return "", "", err
	}
	if found {
		if err := CheckStateName(state); err != nil {
			return "", "", err
		}
	}
	return name, state, nil
}
