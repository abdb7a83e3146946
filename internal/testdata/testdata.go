// Package testdata finds the repository's shared test documents (the
// top-level testdata/ folder) from any package's tests, so that a test reads
// them by name wherever its package lives and fails when one is missing.
package testdata

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the absolute path of the repository's testdata/<sub> folder,
// found by walking up from the working directory (a package's folder under
// go test) to the folder holding go.mod. It fails tb when there is none.
func Dir(tb testing.TB, sub string) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testdata", sub)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatalf("no go.mod above the working directory: cannot find testdata/%s", sub)
		}
		dir = parent
	}
}

// Read returns the file testdata/<sub>/<name>, failing tb when it cannot
// be read.
func Read(tb testing.TB, sub, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(Dir(tb, sub), name))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
