package actors

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExportedNamesCarryNoProtocol: no exported function, method, type or
// field of actors names a type of the grain protocol (pb.…) in its
// signature. The protocol being internal keeps callers from naming its
// types; this keeps them from receiving its values through a method of
// the client (a reply they could read without importing pb).
func TestExportedNamesCarryNoProtocol(t *testing.T) {
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
		for _, use := range exportedProtocolUses(fset, f) {
			t.Errorf("%s: an exported name carries a protocol type (pb.…); keep the protocol behind the typed client", use)
		}
	}
	if checked == 0 {
		t.Fatal("no source file found")
	}
}

// TestProtocolCheckFindsUses: the check above sees pb in exported
// signatures, types and fields, and not in bodies or unexported names.
func TestProtocolCheckFindsUses(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      int
	}{
		{"method result", `func (c *Client) Raw() (*pb.Reply, error) { return nil, nil }`, 1},
		{"function parameter", `func Send(r *pb.Reply) {}`, 1},
		{"exported field", `type X struct{ R *pb.Reply }`, 1},
		{"exported interface", `type X interface{ GetHeader() *pb.Header }`, 1},
		{"only in the body", `func (c *Client) Del() error { _ = &pb.KeyDelete{}; return nil }`, 0},
		{"unexported function", `func send(r *pb.Reply) {}`, 0},
		{"unexported field", `type X struct{ r *pb.Reply }`, 0},
		{"method of an unexported type", `func (c client) Raw() *pb.Reply { return nil }`, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "x.go", "package actors\n"+tt.src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			if got := exportedProtocolUses(fset, f); len(got) != tt.want {
				t.Fatalf("found %v, want %d", got, tt.want)
			}
		})
	}
}

// exportedProtocolUses returns the positions of pb.… selectors in the
// exported signatures, types and fields of f.
func exportedProtocolUses(fset *token.FileSet, f *ast.File) []string {
	var out []string
	find := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "pb" {
					out = append(out, fset.Position(sel.Pos()).String())
				}
			}
			return true
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.IsExported() && (d.Recv == nil || exportedReceiver(d.Recv)) {
				find(d.Type)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.IsExported() {
					findExported(ts.Type, find)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// findExported runs find on the exported fields and methods of a type
// (all of an alias or a named other type).
func findExported(t ast.Expr, find func(ast.Node)) {
	var fields *ast.FieldList
	switch t := t.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields = t.Methods
	default:
		find(t)
		return
	}
	for _, f := range fields.List {
		if len(f.Names) == 0 || slices.ContainsFunc(f.Names, (*ast.Ident).IsExported) {
			find(f.Type)
		}
	}
}

// exportedReceiver says whether a method's receiver type is exported.
func exportedReceiver(recv *ast.FieldList) bool {
	t := recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if g, ok := t.(*ast.IndexExpr); ok {
		t = g.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.IsExported()
}
