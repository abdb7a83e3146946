// Package protogen checks, for the tests of a package of generated
// protobuf messages (actors/internal/pb, cluster/pb), that the committed .pb.go
// files are what gen.sh makes from the .proto files now.
package protogen

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Check regenerates the .pb.go files of the test's package (the working
// directory) from protoDir/*.proto into a temporary folder and fails t if
// any differs from the committed one. Without protoc it skips, or fails
// under MGQ_REQUIRE_TOOLS=1.
func Check(t testing.TB, protoDir string) {
	t.Helper()
	if _, err := exec.LookPath("protoc"); err != nil {
		if os.Getenv("MGQ_REQUIRE_TOOLS") == "1" {
			t.Fatal("protoc not found and MGQ_REQUIRE_TOOLS=1 (Debian: apt-get install protobuf-compiler)")
		}
		t.Skip("protoc not found (Debian: apt-get install protobuf-compiler)")
	}
	_, self, _, _ := runtime.Caller(0)
	out := t.TempDir()
	cmd := exec.Command("sh", filepath.Join(filepath.Dir(self), "gen.sh"), protoDir)
	cmd.Env = append(os.Environ(), "OUT="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen.sh: %v\n%s", err, b)
	}
	made, _ := filepath.Glob(filepath.Join(out, "*.pb.go"))
	have, _ := filepath.Glob("*.pb.go")
	if len(made) == 0 || len(made) != len(have) {
		t.Fatalf("gen.sh made %d files, %d are committed: run go generate", len(made), len(have))
	}
	for _, m := range made {
		want, _ := os.ReadFile(m)
		got, err := os.ReadFile(filepath.Base(m))
		if err != nil || !bytes.Equal(withoutProtocVersion(got), withoutProtocVersion(want)) {
			t.Errorf("%s is not current (%v): run go generate", filepath.Base(m), err)
		}
	}
}

// withoutProtocVersion drops the header line naming protoc's version: the
// output is the same for the protoc versions Debian ships, the line not.
func withoutProtocVersion(b []byte) []byte {
	var out [][]byte
	for _, l := range bytes.Split(b, []byte("\n")) {
		if !bytes.HasPrefix(l, []byte("// \tprotoc ")) {
			out = append(out, l)
		}
	}
	return bytes.Join(out, []byte("\n"))
}
