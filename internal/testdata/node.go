package testdata

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// RequireNodeModule skips tb when node is not on PATH or the npm package
// pkg is not installed in dir/node_modules (`npm ci` there, which `make
// test` runs), and fails it instead when MGQ_REQUIRE_TOOLS=1 (CI), where a
// missing tool must not pass as a skip.
func RequireNodeModule(tb testing.TB, dir, pkg string) {
	tb.Helper()
	missing := func(format string, args ...any) {
		tb.Helper()
		if os.Getenv("MGQ_REQUIRE_TOOLS") == "1" {
			tb.Fatalf(format+" (MGQ_REQUIRE_TOOLS=1)", args...)
		}
		tb.Skipf(format, args...)
	}
	if _, err := exec.LookPath("node"); err != nil {
		missing("node is not installed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg)); err != nil {
		missing("%s is not installed in %s (run npm ci there): %v", pkg, dir, err)
	}
}

// Node runs node with args in dir, stdin given, and returns what it
// printed, failing tb on a non-zero exit with its standard error.
func Node(tb testing.TB, dir string, stdin []byte, args ...string) []byte {
	tb.Helper()
	cmd := exec.Command("node", args...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("node %v: %v\n%s", args, err, stderr.Bytes())
	}
	return out
}
