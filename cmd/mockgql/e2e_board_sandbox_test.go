package main

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestBoardPlaygroundSandbox: the board's playground runs a mutation in the
// sandbox its Sandbox field names (previewQuery's sandbox), in Chromium:
// the sandbox then holds the row and the project's own data does not; a
// subscription run there receives that sandbox's events only.
func TestBoardPlaygroundSandbox(t *testing.T) {
	s := startServer(t)
	sh := subscribeShop(t, s, "board-sandbox@example.com", "bsb")
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

	p.set("#subKey", sh.rtKey)
	p.runInGraphiQLNoWait(`subscription { productUpdated(id: "2") { name } }`)
	p.waitText("#subEventsStatus", "waiting for events")
	rename := `mutation($n:String){ updateProduct(id:"2", input:{name:$n}) { id } }`
	for i := 0; !strings.Contains(p.text("#subEvents"), "in-board-1"); i++ {
		if i == 30 {
			t.Fatalf("no event listed; the page shows:\n%s", p.bodyText())
		}
		newSandboxClient(sh, "").must(t, rename, map[string]any{"n": fmt.Sprintf("plain-%d", i)}) // first: a leak would be listed first
		in.must(t, rename, map[string]any{"n": fmt.Sprintf("in-board-1-%d", i)})
		time.Sleep(300 * time.Millisecond)
	}
	if got := p.text("#subEvents"); strings.Contains(got, "plain-") {
		t.Fatalf("the playground's subscription in board-1 listed an event of the project's own data: %s", got)
	}
}
