package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// repoRoot is the module's root, seen from this package's folder.
const repoRoot = "../.."

var testFunc = regexp.MustCompile(`(?m)^func (Test\w+)\(`)

// makeVar returns the value of a `NAME := value` line of the Makefile.
func makeVar(t *testing.T, makefile, name string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + name + `\s*:=\s*(.*)$`).FindStringSubmatch(makefile)
	if m == nil {
		t.Fatalf("the Makefile sets no %s", name)
	}
	return strings.TrimSpace(m[1])
}

// testsByPackage returns the top-level test functions of every package
// under root, by the package's folder ("./cluster").
func testsByPackage(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		pkg := "./" + filepath.ToSlash(rel)
		for _, m := range testFunc.FindAllStringSubmatch(string(b), -1) {
			out[pkg] = append(out[pkg], m[1])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// noRaceStray returns the packages that hold a test run matches but pkgs
// does not list, and the listed packages that hold none.
func noRaceStray(run *regexp.Regexp, pkgs []string, tests map[string][]string) (unlisted, empty []string) {
	for pkg, names := range tests {
		for _, n := range names {
			if run.MatchString(n) && !slices.Contains(pkgs, pkg) {
				unlisted = append(unlisted, pkg+"."+n)
			}
		}
	}
	for _, pkg := range pkgs {
		if !slices.ContainsFunc(tests[pkg], run.MatchString) {
			empty = append(empty, pkg)
		}
	}
	sort.Strings(unlisted)
	return unlisted, empty
}

// TestNoRacePackagesListed: `make test`'s race pass skips NORACE_TESTS
// and SHARD_TESTS, which the no-race pass and the board shard run only in
// NORACE_PKGS and SHARD_PKGS, so a test a pattern matches in any other
// package would run in no pass.
func TestNoRacePackagesListed(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}

	// The check itself: a package holding a matching test must be listed.
	fake := map[string][]string{"./a": {"TestClusterX"}, "./b": {"TestOther"}}
	if u, e := noRaceStray(regexp.MustCompile("TestCluster"), []string{"./b"}, fake); !slices.Equal(u, []string{"./a.TestClusterX"}) || !slices.Equal(e, []string{"./b"}) {
		t.Errorf("noRaceStray on a made-up tree = %v, %v; want [./a.TestClusterX], [./b]", u, e)
	}

	tests := testsByPackage(t, repoRoot)
	if len(tests) < 10 {
		t.Fatalf("found tests in only %d packages: %v", len(tests), tests)
	}
	for _, pass := range []struct{ tests, pkgs string }{{"NORACE_TESTS", "NORACE_PKGS"}, {"SHARD_TESTS", "SHARD_PKGS"}} {
		// go test's -run and -skip match anywhere in the name, as here.
		run := regexp.MustCompile(makeVar(t, string(b), pass.tests))
		pkgs := strings.Fields(makeVar(t, string(b), pass.pkgs))
		unlisted, empty := noRaceStray(run, pkgs, tests)
		for _, u := range unlisted {
			t.Errorf("%s matches %s, so the race pass skips it, but its package is not in the Makefile's %s (%v): it runs in no pass", u, pass.tests, pass.pkgs, pkgs)
		}
		for _, e := range empty {
			t.Errorf("%s lists %s, which holds no test %s matches", pass.pkgs, e, pass.tests)
		}
	}
}
