package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// packageVarsAllowed are the package-level variables of the engine, each
// with why it is not mutable state: everything else an Overlay or a Cache
// needs is a field of it.
var packageVarsAllowed = map[string]string{
	"emptyState":    "the empty overlay version, never written through",
	"bitsPool":      "a sync.Pool of scratch bitsets: one call at a time holds each, and its words are written before they are read",
	"sparseScratch": "a sync.Pool of scratch sparse plans: one call at a time holds each, reset before use",
}

// TestNoPackageState: the package doc says the engine keeps no mutable
// package state, so a package-level var must be one of the allowed ones.
func TestNoPackageState(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					if _, ok := packageVarsAllowed[n.Name]; !ok {
						t.Errorf("%s: package-level var %s: make it a field of what owns it, or a constant", name, n.Name)
					}
				}
			}
		}
	}
}
