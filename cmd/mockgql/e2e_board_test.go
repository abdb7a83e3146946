package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium finds the browser the board tests drive (Debian's chromium;
// .ci/run installs it). Without one the test skips, or fails when
// MGQ_REQUIRE_TOOLS=1 (CI sets it, so CI cannot pass without a browser).
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("MGQ_REQUIRE_TOOLS") == "1" {
		t.Fatal("no Chromium installed and MGQ_REQUIRE_TOOLS=1; .ci/run installs Debian's chromium")
	}
	t.Skip("no Chromium installed; .ci/run installs Debian's chromium")
	return ""
}

// browser starts a headless Chromium for the test.
func browser(t *testing.T) context.Context {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium(t)),
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-quic", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	return ctx
}

// TestBoardOpensAdoptedProject opens an assistant's adoption link in a real
// browser: the redirect lands on the board, which shows the model and runs
// a query against the project's runtime.
func TestBoardOpensAdoptedProject(t *testing.T) {
	ctx := browser(t)
	s := startServer(t)
	seedPool(t, s)
	a := &assistant{s: s}
	sp := buildSessionModel(t, a)

	err := chromedp.Do(ctx,
		chromedp.Navigate(sp["adoptionUrl"].(string)),
		chromedp.WaitVisible(`[data-table="Review"]`),
	)
	if err != nil {
		t.Fatalf("browser: %v", err)
	}
	location, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	tables, err := chromedp.Run(ctx, chromedp.Text(`#tables`))
	if err != nil {
		t.Fatal(err)
	}
	// chromedp.Click waits for a layout event this page never sends in
	// headless mode; a DOM click is what a user's click does here.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.getElementById("run").click(), true)`)); err != nil {
		t.Fatal(err)
	}
	var result string
	for deadline := time.Now().Add(10 * time.Second); result == "" && time.Now().Before(deadline); {
		if result, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("result").textContent`)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(os.TempDir(), "mockgql-board.png"), shot, 0o600)
	if !strings.HasSuffix(location, "/board/projects/"+sp["projectId"].(string)) {
		t.Fatalf("landed on %s", location)
	}
	for _, want := range []string{"Product", "Category", "Review", "price.amount", "ready"} {
		if !strings.Contains(tables, want) {
			t.Errorf("board lacks %q: %s", want, tables)
		}
	}
	if !strings.Contains(result, `"total": 4`) {
		t.Fatalf("query result on the board: %s", result)
	}
}

// TestBoardShowsSchemaChanges: after a baseline and a breaking rename, the
// board's API design section lists the change.
func TestBoardShowsSchemaChanges(t *testing.T) {
	ctx := browser(t)
	s := startServer(t)
	sh := newShop(t, s, "design@example.com", "d")
	pid := sh.project["id"]
	sh.owner.must(`mutation($p:ID!){ setSchemaBaseline(projectId:$p) }`, map[string]any{"p": pid})
	var opID string
	for _, o := range get(sh.owner.must(`query($id:ID){ project(id:$id) { operations { id name } } }`, map[string]any{"id": pid}), "project", "operations").([]any) {
		if get(o, "name") == "categories" {
			opID = get(o, "id").(string)
		}
	}
	sh.owner.must(`mutation($id:ID!){ updateOperation(input:{operationId:$id, name:"allCategories"}) { name } }`, map[string]any{"id": opID})
	// The board reads with the signed-in owner's cookie.
	if err := chromedp.Do(ctx, chromedp.Navigate(s.base+"/healthz")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.cookie = "mgq_jwt=`+sh.owner.token+`; path=/", true)`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(s.base+"/board/projects/"+pid.(string)), chromedp.WaitVisible(`[data-criticality="BREAKING"]`)); err != nil {
		t.Fatalf("board: %v", err)
	}
	changes, err := chromedp.Run(ctx, chromedp.Text(`#changes`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(changes, "BREAKING") || !strings.Contains(changes, "categories") {
		t.Fatalf("changes on the board: %s", changes)
	}
}

// TestBoardImportsOpenAPI drives the board's import wizard: a real public
// OpenAPI document, its schemas listed, the object ones imported as tables.
func TestBoardImportsOpenAPI(t *testing.T) {
	doc, err := os.ReadFile("../../../shared/testdata/openapi/petstore-v3.0.yaml")
	if err != nil {
		t.Skipf("shared test data missing: %v", err)
	}
	ctx := browser(t)
	s := startServer(t)
	u := s.signUp("wizard@example.com")
	pid := get(u.must(`mutation { createProject(name: "Pets") { id } }`, nil), "createProject", "id").(string)
	if err := chromedp.Do(ctx, chromedp.Navigate(s.base+"/healthz")); err != nil {
		t.Fatal(err)
	}
	js := func(expr string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("("+expr+", true)")); err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
	}
	js(`document.cookie = "mgq_jwt=` + u.token + `; path=/"`)
	if err := chromedp.Do(ctx, chromedp.Navigate(s.base+"/board/projects/"+pid), chromedp.WaitVisible(`#wizard`)); err != nil {
		t.Fatal(err)
	}
	quoted, _ := json.Marshal(string(doc))
	js(`document.getElementById("oaDoc").value = ` + string(quoted))
	js(`document.getElementById("oaRead").click()`)
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`#oaImport`)); err != nil {
		t.Fatal(err)
	}
	listed, err := chromedp.Run(ctx, chromedp.Text(`#oaSchemas`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(listed, "Pet (") || !strings.Contains(listed, "Pets (not an object)") {
		t.Fatalf("schemas listed: %q", listed)
	}
	js(`document.getElementById("oaImport").click()`)
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`[data-table="Pet"]`)); err != nil {
		t.Fatal(err)
	}
	d := u.must(`query($id:ID){ project(id:$id) { tables { name attributes { name } } } }`, map[string]any{"id": pid})
	if !strings.Contains(fmt.Sprint(d), "Pet") || !strings.Contains(fmt.Sprint(d), "Error") {
		t.Fatalf("tables after the wizard: %v", d)
	}
}
