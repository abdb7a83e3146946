package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestTestingGuideExamples runs the examples of docs/using/testing.md as
// they are written (testdata/js/testing): the Playwright fixture that
// gives each test a sandbox, with four tests writing in parallel, a page
// reading its test's sandbox, an error state from a field error and
// tests starting their sandboxes from a named state saved in a beforeAll;
// Apollo Client's and urql's clients per test; against a real mockgql
// serve process.
func TestTestingGuideExamples(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		skipOrFail(t, "node is not installed; .ci/run installs it")
	}
	dir := filepath.Join("testdata", "js")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@playwright", "test")); err != nil {
		skipOrFail(t, "run `make js-deps` (npm ci in cmd/mockgql/testdata/js) first")
	}
	browser := chromium(t)
	s := startServer(t)
	sh := newShop(t, s, "guide@example.com", "guide")
	url := s.base + sh.runtime
	for _, script := range []string{"apollo.mjs", "urql.mjs"} {
		cmd := exec.Command(node, filepath.Join("testing", script), url, sh.rtKey)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
	}
	cmd := exec.Command(node, filepath.Join("node_modules", "@playwright", "test", "cli.js"), "test", "--config", filepath.Join("testing", "playwright.config.mjs"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MOCKGQL_RUNTIME_URL="+url, "MOCKGQL_KEY="+sh.rtKey,
		"MOCKGQL_MANAGEMENT_URL="+s.base+"/graphql", "MOCKGQL_MANAGEMENT_KEY="+sh.mgmtKey, "MOCKGQL_PROJECT_ID="+sh.project["id"].(string), "CHROMIUM="+browser, "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("playwright: %v\n%s", err, out)
	}
	t.Logf("playwright:\n%s", out)
}
