package graphql

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/graphql/exec"
)

// The runtime's golden files: testdata/runtime/NAME.graphql holds one or
// more requests separated by a line "# ---"; a line "# variables: {...}"
// gives a request's variables. The requests run in order against the test
// model (runtime_fixture_test.go) and one overlay, mutations applied, and
// NAME.golden.json holds their results. go test -run TestRuntimeGolden
// -update rewrites the golden files.

func init() {
	// The executor's golden test may define -update already; share it.
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files")
	}
}

func rtUpdating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func TestRuntimeGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/runtime/*.graphql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".graphql")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := runRTGolden(t, string(src))
			golden := strings.TrimSuffix(file, ".graphql") + ".golden.json"
			if rtUpdating() {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("result differs from %s (run with -update to accept):\n%s", golden, got)
			}
		})
	}
}

// runRTGolden runs the requests of one golden input and returns their
// results, indented: one object, or an array when there are several.
func runRTGolden(t *testing.T, src string) []byte {
	h := newRTHarness(t)
	var results []json.RawMessage
	for _, doc := range strings.Split(src, "\n# ---\n") {
		var vars map[string]any
		for _, line := range strings.Split(doc, "\n") {
			if v, ok := strings.CutPrefix(line, "# variables:"); ok {
				req, err := exec.DecodeRequest([]byte(`{"query": "{}", "variables": ` + v + `}`))
				if err != nil {
					t.Fatalf("variables %q: %v", v, err)
				}
				vars = req.Variables // numbers as json.Number, as over HTTP
			}
		}
		results = append(results, h.raw(doc, vars))
	}
	var all []byte
	if len(results) == 1 {
		all = results[0]
	} else {
		all, _ = json.Marshal(results)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, all, "", "  "); err != nil {
		t.Fatalf("result is not JSON: %v\n%s", err, all)
	}
	out.WriteByte('\n')
	return out.Bytes()
}
