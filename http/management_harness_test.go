package http

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/mockgql/mockgql/graphql/exec"
)

// updateSurface rewrites the golden files of the surface tests. It is not
// called -update so that it cannot clash with another test's flag in this
// package.
var updateSurface = flag.Bool("update-surface", false, "rewrite http/testdata/surface/*/*.golden.json")

// testJWTTTL is the mgq_jwt cookie age of the test surfaces.
const testJWTTTL = 72 * time.Hour

// The principals of the surface tests.
var (
	userPrincipal      = Principal{UserID: "u_1", AccountID: "acc_1"}
	sessionPrincipal   = Principal{SessionID: "ses_1"}
	anonymousPrincipal = Principal{}
)

// surfaceCase is one GraphQL call in a table of surface tests.
type surfaceCase struct {
	name      string
	principal *Principal // nil: the table's default principal
	query     string
	vars      map[string]any
	fail      map[string]error // backend methods that fail, and how
}

// setCookie is one SetCookie call as the tests record it.
type setCookie struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	MaxAge string `json:"maxAge"`
}

// surfaceOutcome is what one call did: the golden file's content.
type surfaceOutcome struct {
	Principal any             `json:"principal"`
	Query     string          `json:"query"`
	Variables map[string]any  `json:"variables,omitempty"`
	Calls     []fakeCall      `json:"calls"`
	Cookies   []setCookie     `json:"cookies"`
	Response  json.RawMessage `json:"response"`

	result *exec.Result
}

// testSurfaceConfig returns the SurfaceConfig of the test surfaces.
func testSurfaceConfig() SurfaceConfig {
	return SurfaceConfig{
		BaseURL: "https://api.example.test", AppURL: "https://app.example.test", JWTTTL: testJWTTTL,
		IssueToken: func(userID, accountID string, _ uint64) (string, error) {
			return "jwt." + userID + "." + accountID, nil
		},
	}
}

// surfaceMaker builds a surface from cfg over a fresh test-only fake of
// its backend, and returns the fake's recorder.
type surfaceMaker func(cfg SurfaceConfig) (*Surface, *fakeRecorder, error)

// managementSurface is the management API over a fakeManagement.
func managementSurface(cfg SurfaceConfig) (*Surface, *fakeRecorder, error) {
	f := newFakeManagement()
	s, err := NewManagementSurface(cfg, f)
	return s, f.fakeRecorder, err
}

// publicSurface is the public API over a fakePublic.
func publicSurface(cfg SurfaceConfig) (*Surface, *fakeRecorder, error) {
	f := newFakePublic()
	s, err := NewPublicSurface(cfg, f)
	return s, f.fakeRecorder, err
}

// mustSurface builds a surface with newSurface over a fresh fake.
func mustSurface(tb testing.TB, newSurface surfaceMaker) (*Surface, *fakeRecorder) {
	tb.Helper()
	s, b, err := newSurface(testSurfaceConfig())
	if err != nil {
		tb.Fatalf("new surface: %v", err)
	}
	return s, b
}

// runSurface executes query as p on a surface built by newSurface, with the
// backend failures given, and returns what happened.
func runSurface(tb testing.TB, newSurface surfaceMaker, p Principal, query string, vars map[string]any, fail map[string]error) surfaceOutcome {
	tb.Helper()
	s, b := mustSurface(tb, newSurface)
	b.fail = fail
	body, err := json.Marshal(exec.Request{Query: query, Variables: vars})
	if err != nil {
		tb.Fatal(err)
	}
	out := surfaceOutcome{Principal: compact(p), Query: query, Variables: vars, Cookies: []setCookie{}}
	call := &Call{Principal: p, Body: body, SetCookie: func(name, value string, maxAge time.Duration) {
		out.Cookies = append(out.Cookies, setCookie{name, value, maxAge.String()})
	}}
	res, err := s.Execute(context.Background(), call)
	if err != nil {
		tb.Fatalf("Execute: %v", err)
	}
	out.result, out.Calls = res, b.recorded()
	if out.Calls == nil {
		out.Calls = []fakeCall{}
	}
	if out.Response, err = json.Marshal(res); err != nil {
		tb.Fatalf("marshal result: %v", err)
	}
	return out
}

// runCases runs each case as a subtest and compares its outcome with the
// golden file testdata/surface/<dir>/<case>.golden.json.
func runCases(t *testing.T, dir string, newSurface surfaceMaker, def Principal, cases []surfaceCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := def
			if tc.principal != nil {
				p = *tc.principal
			}
			out := runSurface(t, newSurface, p, tc.query, tc.vars, tc.fail)
			if out.result.Refused {
				t.Fatalf("refused: %v", out.result.Errors)
			}
			checkGolden(t, filepath.Join("testdata", "surface", dir, tc.name+".golden.json"), out)
		})
	}
}

// checkGolden compares out with the golden file at path, or rewrites it
// under -update-surface.
func checkGolden(tb testing.TB, path string, out surfaceOutcome) {
	tb.Helper()
	calls := make([]fakeCall, len(out.Calls))
	for i, c := range out.Calls {
		calls[i] = fakeCall{Method: c.Method, Args: make([]any, len(c.Args))}
		for j, a := range c.Args {
			if p, ok := a.(Principal); ok {
				a = compact(p)
			}
			calls[i].Args[j] = a
		}
	}
	out.Calls = calls
	got, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		tb.Fatal(err)
	}
	got = append(got, '\n')
	if *updateSurface {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (run go test ./http -run 'Management|Public' -update-surface)", err)
	}
	if !bytes.Equal(got, want) {
		tb.Errorf("%s differs from the golden file:\n got: %s\nwant: %s", path, got, want)
	}
}

// compact renders p with only its set fields, so that the golden files
// stay valid when Principal grows a field.
func compact(p Principal) map[string]any {
	out := map[string]any{}
	v := reflect.ValueOf(p)
	for i := range v.NumField() {
		if f := v.Field(i); !f.IsZero() {
			out[v.Type().Field(i).Name] = f.Interface()
		}
	}
	return out
}

// errorCodes returns the extensions.code of each error of out.
func errorCodes(out surfaceOutcome) []string {
	var codes []string
	for _, e := range out.result.Errors {
		codes = append(codes, fmt.Sprint(e.Extensions["code"]))
	}
	return codes
}

// rootFields returns the root field names query selects (without
// fragments).
func rootFields(tb testing.TB, query string) []string {
	tb.Helper()
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		tb.Fatalf("parse %q: %v", query, err)
	}
	var names []string
	for _, op := range doc.Operations {
		for _, sel := range op.SelectionSet {
			if f, ok := sel.(*ast.Field); ok && !strings.HasPrefix(f.Name, "__") {
				names = append(names, f.Name)
			}
		}
	}
	return names
}

// mustSchema parses a surface's SDL.
func mustSchema(tb testing.TB, s *Surface) *ast.Schema {
	tb.Helper()
	schema, err := gqlparser.LoadSchema(&ast.Source{Name: "surface.graphql", Input: s.SDL()})
	if err != nil {
		tb.Fatalf("load schema: %v", err)
	}
	return schema
}

// checkCoverage fails unless cases call every root field of s's schema.
func checkCoverage(t *testing.T, s *Surface, cases []surfaceCase) {
	t.Helper()
	called := map[string]bool{}
	for _, tc := range cases {
		for _, name := range rootFields(t, tc.query) {
			called[name] = true
		}
	}
	schema := mustSchema(t, s)
	var missing []string
	for _, root := range []*ast.Definition{schema.Query, schema.Mutation} {
		for _, f := range root.Fields {
			if !strings.HasPrefix(f.Name, "__") && !called[f.Name] {
				missing = append(missing, root.Name+"."+f.Name)
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no case calls %v", missing)
	}
}

// ptrTo returns a pointer to v.
func ptrTo[T any](v T) *T { return &v }
