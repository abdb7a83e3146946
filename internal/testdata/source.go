package testdata

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// PackageFiles parses the non-test Go files of the test's package (the
// working directory), by file name; mode is parser's (parser.ImportsOnly,
// 0 for everything).
func PackageFiles(tb testing.TB, mode parser.Mode) map[string]*ast.File {
	tb.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		tb.Fatal(err)
	}
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, mode)
		if err != nil {
			tb.Fatal(err)
		}
		files[name] = f
	}
	return files
}

// NoPackageState fails tb for each package-level variable of the test's
// package that allowed (name → why it is not mutable state) does not name:
// a package whose doc says it keeps no mutable package state checks it so.
func NoPackageState(tb testing.TB, allowed map[string]string) {
	tb.Helper()
	for name, f := range PackageFiles(tb, 0) {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					if _, ok := allowed[n.Name]; !ok {
						tb.Errorf("%s: package-level var %s: make it a field of what owns it, or a constant", name, n.Name)
					}
				}
			}
		}
	}
}
