package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestBoardSubscriptions: on the board an editor turns Subscriptions on
// for a list operation (a SAFE change) and sees the table's subscription
// fields and a "Send event" form; the playground runs a subscription over
// the runtime's WebSocket with an API key and lists the events that
// arrive, here fired by sendEvent; so does the runtime's own GraphiQL
// page, both with the vendored graphql-ws client.
func TestBoardSubscriptions(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "boardsubs@example.com", "bs")
	pid := sh.project["id"].(string)
	p := newPage(t, s)
	p.signedIn(sh.owner)
	p.open("/board/projects/"+pid+"/design", `fieldset.power-options[data-operation="products"]`)
	p.click(`fieldset.power-options[data-operation="products"] input[data-option="subscriptions"]`)
	p.waitText(`p[data-subscriptions="Product"]`, "productUpdated(id)")
	p.waitText("#announce", "SAFE change")
	p.set(`section[data-operations="Product"] form input[placeholder="1"]`, "2")
	p.click(`button[data-send-event="Product"]`)
	p.waitText(`section[data-operations="Product"] .status`, "Sent productUpdated for row 2")
	p.js(`(document.querySelector('p[data-subscriptions="Product"]').scrollIntoView(), true)`)
	p.shot("design-subscriptions")

	p.open("/board/projects/"+pid+"/playground", ".graphiql-execute-button")
	p.set("#subKey", sh.rtKey)
	p.runInGraphiQLNoWait(`subscription { productUpdated(id: "2") { id name category { title } } }`)
	p.waitText("#subEventsStatus", "waiting for events")
	for i := 0; ; i++ {
		sh.owner.must(`mutation($p:ID!,$t:ID!){ sendEvent(projectId:$p, tableId:$t, kind: UPDATED, id: "2") }`,
			map[string]any{"p": pid, "t": sh.tables["Product"]})
		if strings.Contains(p.text("#subEvents"), `"name":"Chair"`) {
			break
		}
		if i == 30 {
			t.Fatalf("no event listed; the page shows:\n%s", p.bodyText())
		}
		time.Sleep(300 * time.Millisecond)
	}
	p.waitText(".result-window", "Office")
	p.shot("playground-subscription")

	// The runtime's GraphiQL page: the key at the gate, then a subscription
	// over the runtime's WebSocket with the key in connection_init.
	p.open(sh.runtime, "#keyGate")
	p.set("#gateKey", sh.rtKey)
	p.submit("#gateKey")
	p.runInGraphiQLNoWait(`subscription { productUpdated(id: "3") { id name } }`)
	for i := 0; !strings.Contains(p.text(".result-window"), `"productUpdated"`); i++ {
		if i == 30 {
			t.Fatalf("no event in the runtime GraphiQL; it shows:\n%s", p.text(".result-window"))
		}
		sh.owner.must(`mutation($p:ID!,$t:ID!){ sendEvent(projectId:$p, tableId:$t, kind: UPDATED, id: "3") }`,
			map[string]any{"p": pid, "t": sh.tables["Product"]})
		time.Sleep(300 * time.Millisecond)
	}
	if got := p.text(".result-window"); !strings.Contains(got, `"id": "3"`) {
		t.Fatalf("runtime GraphiQL event: %s", got)
	}
	p.shot("graphiql-runtime-subscription")
}

// runInGraphiQLNoWait types query into GraphiQL's editor and runs it.
func (p *page) runInGraphiQLNoWait(query string) {
	p.t.Helper()
	q, _ := json.Marshal(query)
	p.wait(".graphiql-query-editor .CodeMirror")
	p.js(fmt.Sprintf(`(document.querySelector(".graphiql-query-editor .CodeMirror").CodeMirror.setValue(%s), true)`, q))
	p.click(".graphiql-execute-button")
}
