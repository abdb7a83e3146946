package graphql

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// packageVarsAllowed are the package-level variables of the runtime, each
// with why it is not mutable state: everything else a Runtime needs is a
// field of it (package engine checks its own).
var packageVarsAllowed = map[string]string{
	"errMutationInQuery":      "a sentinel error",
	"errQueryInMutate":        "a sentinel error",
	"errForeignPrepared":      "a sentinel error",
	"aliasMeta":               "the generator catalog's read-only table of option descriptions, never written",
	"aliasCategory":           "the generator catalog's read-only table of categories, never written",
	"lookupCategory":          "the generator catalog's read-only table of categories, never written",
	"catalog":                 "the generator catalog, computed once from constants and never written",
	"genAliases":              "the generator kinds, computed once from constants and never written",
	"errNotSubscription":      "a sentinel error",
	"ErrSubscriptionOverHTTP": "a sentinel error",
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
		for _, v := range packageVars(f) {
			if _, ok := packageVarsAllowed[v]; !ok {
				t.Errorf("%s: package-level var %s: make it a field of what owns it, or a constant", name, v)
			}
		}
	}
}

// packageVars returns the names of f's package-level variables.
func packageVars(f *ast.File) []string {
	var names []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, s := range g.Specs {
			for _, n := range s.(*ast.ValueSpec).Names {
				names = append(names, n.Name)
			}
		}
	}
	return names
}
