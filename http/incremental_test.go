package http

import (
	"testing"

	"github.com/mockgql/mockgql/graphql/exec/incremental"
)

// TestIncrementalFormat checks the negotiation by Accept of the clients
// that read incremental delivery, and of those that do not.
func TestIncrementalFormat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, accept string
		want         incremental.Format
	}{
		{"Apollo Client 3", "multipart/mixed;deferSpec=20220824,application/json", incremental.Spec20220824},
		{"Apollo Client 4", "multipart/mixed;incrementalSpec=v0.2, application/graphql-response+json", incremental.V02},
		{"meros and Relay", "multipart/mixed", incremental.V02},
		{"urql", "application/graphql-response+json, application/json, text/event-stream, multipart/mixed", incremental.V02},
		{"quoted, spaced, upper case", `Multipart/Mixed; deferSpec="20220824"`, incremental.Spec20220824},
		{"JSON only", "application/json", 0},
		{"none", "", 0},
		{"q=0", "multipart/mixed;q=0, application/json", 0},
		{"another deferSpec", "multipart/mixed;deferSpec=20991231", 0},
		{"another incrementalSpec, then a plain one", "multipart/mixed;incrementalSpec=v9, multipart/mixed", incremental.V02},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := incrementalFormat(tt.accept); got != tt.want {
				t.Fatalf("incrementalFormat(%q) = %d, want %d", tt.accept, got, tt.want)
			}
		})
	}
}
