package main

import (
	"net/url"
	"strings"
	"testing"
)

// TestBoardWayfinding (issue 22 item 8): the project header shows the
// runtime URL with a copy button and "Open in GraphiQL"; the runtime's
// GraphiQL page of an account project asks for a key before it sends a
// request, then runs queries with it; a guest project's header shows its
// URL with the share token; an empty model links to the data pool; the
// not-ready reason names a control that is on the screen.
func TestBoardWayfinding(t *testing.T) {
	s := startServer(t)
	seedPool(t, s)
	sh := newShop(t, s, "wayfinding@example.com", "wf")
	pid := sh.project["id"].(string)
	p := newPage(t, s)
	p.signedIn(sh.owner)
	p.open("/board/projects/"+pid, "#runtimeUrl")
	if got := p.text("#runtimeUrl"); got != s.base+sh.runtime {
		t.Fatalf("runtime URL in the header: %q, want %q", got, s.base+sh.runtime)
	}
	p.wait("#copyRuntimeUrl")
	if href := p.js(`document.querySelector("#openGraphiql").href`); href != s.base+sh.runtime {
		t.Fatalf("Open in GraphiQL goes to %v", href)
	}
	p.waitText("#runtime", "API keys")
	p.shot("wayfinding-project-header")

	// The runtime GraphiQL of an account project: the key first, no 401.
	p.open(sh.runtime+"?query="+url.QueryEscape("{ products { total } }"), "#keyGate")
	if n := p.js(`document.querySelectorAll(".graphiql-container").length`); n != 0.0 {
		t.Fatal("GraphiQL started (and introspected without a key) before the key was given")
	}
	p.waitText("#gateHint", "API keys")
	p.shot("wayfinding-graphiql-key-gate")
	p.set("#gateKey", sh.rtKey)
	p.submit("#gateKey")
	p.wait(".graphiql-execute-button")
	p.waitText(".graphiql-query-editor", "products")
	p.click(".graphiql-execute-button")
	p.waitText(".result-window", `"total"`)
	if strings.Contains(p.text(".result-window"), "API_KEY") {
		t.Fatalf("result: %s", p.text(".result-window"))
	}

	// An empty model links to its next step; a table with no dataset says where to bind it.
	empty := sh.owner.newProject("Empty one")
	p.open("/board/projects/"+empty, "#noTables")
	p.wait(`#noTables a[href="/board/data"]`)
	p.set("#tableName", "Loose")
	p.click("#addTable")
	p.waitText(`section[data-table="Loose"] .notready`, "Dataset (importCode)")
	p.wait(`section[data-table="Loose"] label`)
	if !strings.Contains(p.text(`section[data-table="Loose"]`), "Dataset (importCode)") {
		t.Fatal("the reason names a control the card does not show")
	}

	// A guest project: its runtime URL with the share token, in the header.
	g := newPage(t, s)
	g.open("/", "#guest")
	g.set("#guestName", "Guest way")
	g.submit("#guestName")
	g.wait("#runtimeUrl")
	if got := g.text("#runtimeUrl"); !strings.Contains(got, "/graphql?token=shr_") {
		t.Fatalf("guest runtime URL in the header: %q", got)
	}
	g.waitText("#runtime", "share token")
	// Its empty model points to what a guest can do ("Create an API from
	// this dataset" in the data pool makes account projects), and that works.
	g.waitText("#noTables", "pick a Dataset above and use “Add with all its fields”")
	g.shot("wayfinding-guest-header")
	g.choose("#tableSource", "products")
	g.click("#addTableAll")
	g.waitText(`section[data-table="Product"]`, "✓ ready")
	// Its GraphiQL opens at once with the token (no key asked).
	g.open(strings.TrimPrefix(g.text("#runtimeUrl"), s.base), ".graphiql-execute-button")
	if g.js(`document.querySelector("#keyGate").hidden`) != true {
		t.Fatal("a share-token URL was asked for a key")
	}
	g.shot("wayfinding-graphiql-token")
}
