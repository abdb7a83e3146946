package main

import (
	"net/url"
	"testing"
)

// TestBoardPlaygroundSandbox: the board's playground runs a mutation in the
// sandbox its Sandbox field names (previewQuery's sandbox), in Chromium:
// the sandbox then holds the row and the project's own data does not.
func TestBoardPlaygroundSandbox(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "board-sandbox@example.com", "bsb")
	pid := sh.project["id"].(string)
	p := newPage(t, s)
	p.signedIn(sh.owner)
	q := `mutation { createProduct(input: {name: "from the board"}) { name } }`
	p.open("/board/projects/"+pid+"/playground?query="+url.QueryEscape(q), ".graphiql-execute-button")
	p.waitText(".graphiql-query-editor", "createProduct")
	p.set("#pgSandbox", "board-1")
	p.click(".graphiql-execute-button")
	p.waitText(".result-window", "from the board")
	p.shot("playground-sandbox")

	in := newSandboxClient(sh, "board-1")
	if names, total, ok := in.productNames(t); !ok || total != 5 {
		t.Fatalf("sandbox board-1: %d %v", total, names)
	}
	if names, total, ok := newSandboxClient(sh, "").productNames(t); !ok || total != 4 || !equal(names, baseNames) {
		t.Fatalf("the project's own data: %d %v", total, names)
	}
}
