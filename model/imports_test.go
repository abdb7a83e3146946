package model_test

import (
	"go/build"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// modelPath is the import path of package model; its subpackages may
// import it and nothing else outside the standard library.
const modelPath = "github.com/mockgql/mockgql/model"

// TestModelImportsOnlyStandardLibrary: model and the packages under it are
// the domain vocabulary, so they import the standard library and model's
// own packages only (test files included). A column store, a parser or a
// wire format belongs beside model, not in it.
func TestModelImportsOnlyStandardLibrary(t *testing.T) {
	dirs := modelDirs(t)
	if len(dirs) < 2 {
		t.Fatalf("found %d packages under model: the walk is broken", len(dirs))
	}
	for _, dir := range dirs {
		pkg, err := build.ImportDir(dir, build.ImportComment)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		imports := append(append(pkg.Imports, pkg.TestImports...), pkg.XTestImports...)
		for _, imp := range imports {
			if !allowedInModel(imp) {
				t.Errorf("%s imports %s: model takes the standard library and model only", dir, imp)
			}
		}
	}
}

// TestAllowedInModel pins what the import check accepts, so that a check
// that accepts everything cannot pass.
func TestAllowedInModel(t *testing.T) {
	for imp, want := range map[string]bool{
		"strings":                                true,
		"encoding/json":                          true,
		modelPath:                                true,
		modelPath + "/codegen":                   true,
		"github.com/mockgql/mockgql/dataset":     false,
		"github.com/mockgql/mockgql/graphql":     false,
		"github.com/RoaringBitmap/roaring/v2":    false,
		"github.com/getkin/kin-openapi/openapi3": false,
		"golang.org/x/sys/unix":                  false,
		"github.com/mockgql/mockgql/modelx":      false,
	} {
		if got := allowedInModel(imp); got != want {
			t.Errorf("allowedInModel(%q) = %v, want %v", imp, got, want)
		}
	}
}

// allowedInModel reports whether a package under model may import imp:
// a standard-library package (no dot in its first element) or model's own.
func allowedInModel(imp string) bool {
	if imp == modelPath || strings.HasPrefix(imp, modelPath+"/") {
		return true
	}
	first, _, _ := strings.Cut(imp, "/")
	return !strings.Contains(first, ".")
}

// modelDirs returns the directories of model's packages: this one and
// every directory under it holding Go files, testdata left out.
func modelDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != "." {
			return filepath.SkipDir
		}
		if m, _ := filepath.Glob(filepath.Join(path, "*.go")); len(m) > 0 {
			dirs = append(dirs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}
