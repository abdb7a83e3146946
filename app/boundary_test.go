package app

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// actorsPath is the import path of package actors.
const actorsPath = "github.com/mockgql/mockgql/actors"

// actorsTestPath is the import path of the test helpers that send grains
// what no use case sends (a resent call, a sweeper stopped half-way).
const actorsTestPath = actorsPath + "/actorstest"

// actorsAllowed are the names of package actors the use cases may use
// (issue 12: app depends on actors only through the typed client), each
// with why. Anything else — grain kinds, ID and secret helpers (package
// ids), catalog keys, quota periods, access on the wire — belongs behind
// a Client method or unexported in actors.
var actorsAllowed = map[string]string{
	"Client":                "the typed client: every grain call goes through its methods and per-grain clients",
	"ProjectClient":         "the typed client of one project grain (Client.Project)",
	"Access":                "the caller's rights a project client carries (Client.Project)",
	"AccountState":          "the account grain's record (AccountClient)",
	"KeyRef":                "an entry of AccountState's key index (AccountClient.ClaimKey)",
	"UserState":             "a user grain's record: workspaces and invitations (UserClient)",
	"NewUser":               "a sign-up (UserClient.SignUp)",
	"InviteAnswer":          "an answer to an invitation (AccountClient.AnswerInvite)",
	"SessionClaim":          "a session grain's claim (SessionClient)",
	"ProjectOwner":          "who pays for a project's calls (ProjectClient.Owner)",
	"DatasetMeta":           "a dataset's catalog entry (Client.ReadDataset, Pool.Readable)",
	"Env":                   "wiring: NewService takes the node's Env",
	"Config":                "wiring: the node's settings, copied by NewService",
	"Clock":                 "wiring: the injected clock",
	"Pool":                  "wiring: the node's data pool (uploads' blobs, the catalog read)",
	"Local":                 "wiring: the node's read snapshots of grains",
	"RuntimePath":           "wiring: the order of runtime checks, run by Service.Runtime",
	"RowEvent":              "a realtime event as nodes receive it (DecodeRowEvents, Client.RenderEvent)",
	"DecodeRowEvents":       "the decoder of the events a project grain broadcasts (cluster.Node.Broadcast)",
	"ParseSubscriptionBody": "the reply decoder of a subscription's start (model.RuntimeRequest.Subscribe)",
}

// TestAppUsesActorsOnlyThroughItsClient keeps the boundary: a non-test
// file of app that uses a name of actors outside actorsAllowed fails.
func TestAppUsesActorsOnlyThroughItsClient(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, use := range actorsUses(fset, f) {
			if _, ok := actorsAllowed[use.name]; !ok {
				t.Errorf("%s uses actors.%s: app reaches actors only through the typed client and the wiring types (actorsAllowed); move it behind a Client method, or into package ids", use.pos, use.name)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no source file of app found")
	}
}

// TestAppImportsOnlyTheTypedClient: no file of app, tests included,
// imports a package under actors other than actors itself (the typed
// client) — not the grain protocol (actors/internal/pb, which the
// compiler refuses too), not actors/pb where it used to live; tests may
// import the test helpers (actorstest) besides.
func TestAppImportsOnlyTheTypedClient(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no file of app found")
	}
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range importsBeyondClient(f, strings.HasSuffix(name, "_test.go")) {
			t.Errorf("%s imports %s: app reaches grains only through the typed client (package actors)", name, p)
		}
	}
}

// importsBeyondClient returns the imports of f under package actors other
// than actors itself (and, in a test file, actorstest).
func importsBeyondClient(f *ast.File, test bool) []string {
	var out []string
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if !strings.HasPrefix(p, actorsPath+"/") || test && p == actorsTestPath {
			continue
		}
		out = append(out, p)
	}
	return out
}

// TestImportCheckFindsImports: the check above sees the protocol under
// any name and at its old place, and lets the client and other packages be.
func TestImportCheckFindsImports(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		test      bool
		want      []string
	}{
		{"internal protocol", `package app; import "github.com/mockgql/mockgql/actors/internal/pb"`, false, []string{actorsPath + "/internal/pb"}},
		{"renamed, old place", `package app; import w "github.com/mockgql/mockgql/actors/pb"`, false, []string{actorsPath + "/pb"}},
		{"test helpers in a source file", `package app; import "github.com/mockgql/mockgql/actors/actorstest"`, false, []string{actorsTestPath}},
		{"test helpers in a test", `package app; import "github.com/mockgql/mockgql/actors/actorstest"`, true, nil},
		{"the client", `package app; import "github.com/mockgql/mockgql/actors"`, false, nil},
		{"another package", `package app; import "github.com/mockgql/mockgql/cluster/pb"`, false, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, err := parser.ParseFile(token.NewFileSet(), "x.go", tt.src, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			if got := importsBeyondClient(f, tt.test); !slices.Equal(got, tt.want) {
				t.Fatalf("imports %v, want %v", got, tt.want)
			}
		})
	}
}

// TestBoundaryCheckFindsUses: the check above sees uses under any import
// name, and not the names of another package.
func TestBoundaryCheckFindsUses(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      []string
	}{
		{"kind constant", `package app; import "github.com/mockgql/mockgql/actors"; var _ = actors.KindProject`, []string{"KindProject"}},
		{"renamed import", `package app; import a "github.com/mockgql/mockgql/actors"; func f(c *a.Client) { _ = a.HashSecret("x") }`, []string{"Client", "HashSecret"}},
		{"another package", `package app; import "github.com/mockgql/mockgql/ids"; var _ = ids.HashSecret("x")`, nil},
		{"no import", `package app; type actors struct{ Kind string }; var _ = actors{}.Kind`, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "x.go", tt.src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, u := range actorsUses(fset, f) {
				got = append(got, u.name)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("uses %v, want %v", got, tt.want)
			}
		})
	}
}

// TestCoreEmbedsNothing: the core every service embeds holds the grain
// client in a named field and has no exported method, so neither the
// client's methods (nor any other embedded type's) nor a helper becomes a
// use case of a surface.
func TestCoreEmbedsNothing(t *testing.T) {
	st := reflect.TypeFor[core]()
	for i := range st.NumField() {
		if f := st.Field(i); f.Anonymous {
			t.Errorf("core embeds %s; hold it in a named field", f.Type)
		}
	}
	if n := reflect.TypeFor[*core]().NumMethod(); n > 0 {
		t.Errorf("core has %d exported methods; a use case belongs to a service (surfaces.go)", n)
	}
}

// actorsUse is one qualified use of a name of package actors.
type actorsUse struct {
	pos  token.Position
	name string
}

// actorsUses returns the qualified uses (x.Name) of package actors in f,
// under whatever name f imports it.
func actorsUses(fset *token.FileSet, f *ast.File) []actorsUse {
	local := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == actorsPath {
			local = "actors"
			if imp.Name != nil {
				local = imp.Name.Name
			}
		}
	}
	if local == "" {
		return nil
	}
	var out []actorsUse
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == local {
				out = append(out, actorsUse{pos: fset.Position(sel.Pos()), name: sel.Sel.Name})
			}
		}
		return true
	})
	return out
}
