package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestGraphQLClients drives the runtime with graphql-js (introspection,
// buildClientSchema, validate), graphql-request and urql, unmodified, as
// frontend developers use them (testdata/js/clients.mjs).
func TestGraphQLClients(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		skipOrFail(t, "node is not installed; .ci/run installs it")
	}
	if _, err := os.Stat(filepath.Join("testdata", "js", "node_modules", "graphql-request")); err != nil {
		skipOrFail(t, "run `make js-deps` (npm ci in cmd/mockgql/testdata/js) first")
	}
	s := startServer(t)
	sh := newShop(t, s, "clients@example.com", "cl")
	cmd := exec.Command(node, "clients.mjs", s.base+sh.runtime, sh.rtKey)
	cmd.Dir = filepath.Join("testdata", "js")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("clients.mjs: %v\n%s", err, out)
	}
}
