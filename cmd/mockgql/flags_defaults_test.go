package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// ownDefaults are the flags whose default belongs to the command itself,
// not to a package's config.
var ownDefaults = map[string]bool{"data": true, "log-level": true}

// literalDefaults returns the flags defined in src (fs.IntVar(&v, "name",
// default, usage), fs.Duration("name", default, usage), …) whose default
// is written as a value (a literal, or an expression of literals only)
// instead of naming a package's default; "" and false, a flag that is
// off or empty, are not values.
func literalDefaults(t *testing.T, fset *token.FileSet, f *ast.File) map[string]string {
	t.Helper()
	out := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		at := -1
		switch sel.Sel.Name {
		case "IntVar", "Int64Var", "UintVar", "Uint64Var", "Float64Var", "DurationVar", "StringVar", "BoolVar":
			at = 1
		case "Int", "Int64", "Uint", "Uint64", "Float64", "Duration", "String", "Bool":
			at = 0
		}
		if at < 0 || len(call.Args) != at+3 {
			return true
		}
		lit, ok := call.Args[at].(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		name, _ := strconv.Unquote(lit.Value)
		def := call.Args[at+1]
		if l, ok := def.(*ast.BasicLit); ok && l.Value == `""` {
			return true
		}
		named := false
		ast.Inspect(def, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := s.X.(*ast.Ident); ok && x.Name == "time" {
					return false // a unit: 30*time.Second is a literal
				}
			}
			if id, ok := n.(*ast.Ident); ok && id.Name != "true" && id.Name != "false" {
				named = true
			}
			return true
		})
		if id, ok := def.(*ast.Ident); ok && id.Name == "false" {
			named = true
		}
		if !named {
			out[name] = fset.Position(def.Pos()).String()
		}
		return true
	})
	return out
}

// TestFlagDefaultsFromPackages: every flag takes its default from the
// package it configures (actors.DefaultConfig, http.DefaultConfig,
// exec.Default*, …), so that a default is written in one place; a literal
// in a flag's definition would be a second copy that can drift.
func TestFlagDefaultsFromPackages(t *testing.T) {
	fset := token.NewFileSet()
	probe, err := parser.ParseFile(fset, "probe.go", `package p
func f() {
	fs.IntVar(&a, "a", 600, "")
	fs.Int64Var(&b, "b", 32<<20, "")
	fs.String("c", "http://x", "")
	fs.IntVar(&d, "d", pkg.Default>>20, "")
	fs.BoolVar(&e, "e", false, "")
	fs.StringVar(&g, "g", "", "")
	fs.Duration("h", 30*time.Second, "")
	fs.DurationVar(&i, "i", cfg.Timeout, "")
}`, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := literalDefaults(t, fset, probe)
	if len(got) != 4 || got["a"] == "" || got["b"] == "" || got["c"] == "" || got["h"] == "" {
		t.Errorf("literalDefaults on a probe = %v, want a, b, c and h", got)
	}

	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	flags := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		flags += strings.Count(name, "flags") // at least the flags*.go files are read
		for flag, at := range literalDefaults(t, fset, f) {
			if !ownDefaults[flag] {
				t.Errorf("%s: --%s's default is a literal; take it from the package it configures (its DefaultConfig or a Default constant)", at, flag)
			}
		}
	}
	if flags < 4 {
		t.Errorf("read only %d flags*.go files of %v", flags, files)
	}
}
