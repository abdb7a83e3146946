package contract

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestPlanGolden interprets every schema of testdata (SDL and
// introspection results) and compares the plan and its report with
// testdata/<name>.golden.json; -update rewrites them.
func TestPlanGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.graphql")
	if err != nil {
		t.Fatal(err)
	}
	json, _ := filepath.Glob("testdata/*.introspection.json")
	files = append(files, json...)
	if len(files) < 6 {
		t.Fatalf("only %d schemas in testdata", len(files))
	}
	for _, file := range files {
		name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(file), ".graphql"), ".json")
		t.Run(name, func(t *testing.T) {
			got := goldenOf(t, file)
			golden := filepath.Join("testdata", name+".golden.json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if string(got) != string(want) {
				t.Errorf("%s differs from %s:\n%s", file, golden, got)
			}
		})
	}
}

// goldenOf returns the plan of the schema in file and its report, as
// indented JSON.
func goldenOf(t *testing.T, file string) []byte {
	t.Helper()
	doc, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(doc, MaxDocumentBytes)
	if err != nil {
		t.Fatal(err)
	}
	p := Interpret(s)
	out, err := json.MarshalIndent(struct {
		Report []string
		Plan   *Plan
	}{p.Report(), p}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

// TestIntrospectionMatchesSDL: an introspection result of a document
// (made by graphql-js) gives the same plan as the document itself.
func TestIntrospectionMatchesSDL(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.introspection.json")
	if len(files) == 0 {
		t.Fatal("no introspection results in testdata")
	}
	for _, file := range files {
		sdlFile := strings.TrimSuffix(file, ".introspection.json") + ".graphql"
		t.Run(filepath.Base(sdlFile), func(t *testing.T) {
			a, b := planOf(t, sdlFile), planOf(t, file)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("plans differ:\nSDL:           %s\nintrospection: %s", mustJSON(a), mustJSON(b))
			}
		})
	}
}

func planOf(t *testing.T, file string) *Plan {
	t.Helper()
	doc, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(doc, MaxDocumentBytes)
	if err != nil {
		t.Fatal(err)
	}
	return Interpret(s)
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestParseRefusals: each bad document is refused with its code and a
// message naming where or what.
func TestParseRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		code      model.Code
		want      string
		max       int
	}{
		{"too large", "type Query { a: Int }", model.CodePayloadTooLarge, "over the limit of 10", 10},
		{"empty", "  \n", model.CodeBadUserInput, "empty", 0},
		{"syntax", "type Query {\n  a: Int\n  b(: Int\n}", model.CodeBadUserInput, "line 3, column 5", 0},
		{"unterminated string", "type Query {\n  a: String\n  \"unterminated\n  b: Int\n}\n", model.CodeBadUserInput, "line 3, column 3: unterminated string", 0},
		{"unterminated block string", "type Query {\n a: String\n # a comment\n \"\"\"block\n b: Int\n}\ntype X { y: Int }\n", model.CodeBadUserInput, "line 4, column 2: unterminated string", 0},
		{"unterminated default after a wide character", "type Query {\n \"é\" a(x: String = \"abc): Int\n}\n", model.CodeBadUserInput, "line 2, column 20: unterminated string", 0},
		{"unknown type", "type Query {\n  a: Nope\n}", model.CodeBadUserInput, "line 2", 0},
		{"no query type", "type Book { id: ID }", model.CodeBadUserInput, "no query type", 0},
		{"json not introspection", `{"hello": 1}`, model.CodeBadUserInput, "introspection result", 0},
		{"bad json", `{"data": `, model.CodeBadUserInput, "not an introspection result", 0},
		{"introspection without query", `{"__schema":{"types":[]}}`, model.CodeBadUserInput, "no queryType", 0},
		{"unknown kind", `{"__schema":{"queryType":{"name":"Query"},"types":[{"kind":"WIDGET","name":"Query"}]}}`, model.CodeBadUserInput, `unknown kind "WIDGET"`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			max := tc.max
			if max == 0 {
				max = MaxDocumentBytes
			}
			_, err := Parse([]byte(tc.doc), max)
			e := model.AsError(err)
			if e == nil || e.Code != tc.code || !strings.Contains(e.Message, tc.want) {
				t.Fatalf("Parse: %v, want %s containing %q", err, tc.code, tc.want)
			}
		})
	}
}
