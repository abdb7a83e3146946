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

// actorsAllowed are the names of package actors the use cases may use
// (issue 12: app depends on actors only through the typed client), each
// with why. Anything else — grain kinds, ID and secret helpers (package
// ids), catalog keys, quota periods, access on the wire — belongs behind
// a Client method or unexported in actors.
var actorsAllowed = map[string]string{
	"Client":       "the typed client: every grain call goes through its per-kind methods",
	"Request":      "the parameter type of the client's methods (a pb request message)",
	"Access":       "the caller's rights a project request carries (Client.AskProjectAs)",
	"AccountState": "the account grain's record (Client.AskAccount)",
	"KeyRef":       "an entry of AccountState's key index",
	"UserState":    "a user grain's record: workspaces and invitations (Client.AskUser)",
	"SessionClaim": "a session grain's claim (Client.AskSession)",
	"ProjectOwner": "who pays for a project's calls (OwnerOf)",
	"DatasetMeta":  "a dataset's catalog entry (Client.ReadDataset, Pool.Readable)",
	"EncodeDoc":    "the request encoder of documents (pb.ProjectDoc and the like)",
	"WireFaults":   "the request encoder of fault settings (pb.EditSetFaults)",
	"DecodeDoc":    "the reply decoder of one document",
	"DecodeDocs":   "the reply decoder of a list of documents",
	"EditResult":   "the reply decoder of a model edit",
	"RequestLogOf": "the reply decoder of a project's request log",
	"OwnerOf":      "the reply decoder of a project's owner",
	"Env":          "wiring: NewService takes the node's Env",
	"Config":       "wiring: the node's settings, copied by NewService",
	"Clock":        "wiring: the injected clock",
	"Pool":         "wiring: the node's data pool (uploads' blobs, the catalog read)",
	"Local":        "wiring: the node's read snapshots of grains",
	"RuntimePath":  "wiring: the order of runtime checks, run by Service.Runtime",
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

// TestServiceEmbedsNothing: Service holds the grain client in a named
// field, so the client's methods (and any other embedded type's) never
// become use cases of Service.
func TestServiceEmbedsNothing(t *testing.T) {
	st := reflect.TypeFor[Service]()
	for i := range st.NumField() {
		if f := st.Field(i); f.Anonymous {
			t.Errorf("Service embeds %s; hold it in a named field", f.Type)
		}
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
