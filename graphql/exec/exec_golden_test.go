package exec

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/exec")

// goldenCase is one testdata/exec/*.graphql file: the query, with the
// request's variables and operation name in leading comment lines
// "# variables: {...}" and "# operationName: Name".
type goldenCase struct {
	query, variables, operationName string
}

func readGoldenCase(t *testing.T, path string) goldenCase {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := goldenCase{query: string(src)}
	for _, line := range strings.Split(c.query, "\n") {
		if v, ok := strings.CutPrefix(line, "# variables: "); ok {
			c.variables = v
		}
		if v, ok := strings.CutPrefix(line, "# operationName: "); ok {
			c.operationName = v
		}
	}
	return c
}

// TestExecGolden runs every testdata/exec/*.graphql against the test
// schema and compares the outcome with the .golden.json beside it; -update
// rewrites them.
func TestExecGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/exec/*.graphql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".graphql")
		t.Run(name, func(t *testing.T) {
			var log []string
			got := goldenOutcome(t, newTestExecutor(t, &log), readGoldenCase(t, file), &log)
			golden := strings.TrimSuffix(file, ".graphql") + ".golden.json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestExecGolden -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("outcome differs from %s:\n got: %s\nwant: %s", golden, got, want)
			}
		})
	}
}

// goldenOutcome runs c and returns the indented JSON that the golden file
// holds: the response, and what Prepare reports.
func goldenOutcome(t *testing.T, ex *Executor, c goldenCase, log *[]string) []byte {
	t.Helper()
	res, body := runQuery(t, ex, c.query, c.variables, c.operationName)
	outcome := map[string]any{"response": json.RawMessage(body), "refused": res.Refused}
	if res.Refused {
		outcome["code"] = res.Code
	} else {
		p, _ := ex.Prepare(Request{Query: c.query, OperationName: c.operationName, Variables: decodeVariables(t, c.variables)})
		outcome["rootFields"], outcome["mutation"] = p.RootFields(), p.Mutation()
	}
	if len(*log) > 0 {
		outcome["mutationLog"] = *log
	}
	out, err := json.MarshalIndent(outcome, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

func decodeVariables(t *testing.T, variables string) map[string]any {
	t.Helper()
	if variables == "" {
		return nil
	}
	var v map[string]any
	if err := decodeJSON([]byte(variables), &v); err != nil {
		t.Fatal(err)
	}
	return v
}
