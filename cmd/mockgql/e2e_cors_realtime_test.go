package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestSubscriptionsFromAnotherOrigin: a frontend on another origin, in
// Chromium, receives subscription events: a guest project's with
// EventSource and the share token; an account project's with graphql-sse's
// POST stream and the key from an allowed origin (the same stream from an
// origin not on the list is blocked); and over graphql-transport-ws, whose
// credentials travel in connection_init, from any origin.
func TestSubscriptionsFromAnotherOrigin(t *testing.T) {
	s, demo, _ := guestAndAccount(t)
	sh := subscribeShop(t, s, "corssubs@example.com", "cs")
	front := otherOrigin(t)
	port := front.URL[strings.LastIndex(front.URL, ":")+1:]
	allowed := "http://localhost:" + port
	sh.owner.must(`mutation($p:ID!,$o:[String!]){ updateProject(projectId:$p, allowedOrigins:$o) { id } }`,
		map[string]any{"p": sh.project["id"], "o": []string{allowed}})
	p := newPage(t, s)
	str := func(v string) string { b, _ := json.Marshal(v); return string(b) }
	// until fires fire until the page's log (a global array) holds want.
	until := func(log, want string, fire func()) {
		t.Helper()
		for i := 0; i < 30; i++ {
			fire()
			time.Sleep(300 * time.Millisecond)
			if got := fmt.Sprint(p.js("JSON.stringify(window." + log + ")")); strings.Contains(got, want) {
				return
			}
		}
		t.Fatalf("%s never held %s: %v", log, want, p.js("JSON.stringify(window."+log+")"))
	}
	nav := func(page string) {
		t.Helper()
		if err := chromedp.Do(p.ctx, chromedp.Navigate(page+"/")); err != nil {
			t.Fatal(err)
		}
	}

	// The demo (guest): EventSource with the share token, no header.
	nav(front.URL)
	demoURL := s.base + "/mock/" + demo.Slug + "/graphql?token=" + demo.ShareToken
	p.js(`window.es = []; const es = new EventSource(` + str(demoURL+"&query="+url.QueryEscape(`subscription { productUpdated { id price } }`)) + `);
		es.addEventListener("next", (e) => window.es.push(e.data)); es.onerror = () => window.es.push("error"); true`)
	until("es", `\"productUpdated\":{\"id\":\"2\"`, func() {
		postJSON(t, demoURL, `{"query":"mutation { updateProduct(id: \"2\", input: {price: 12.5}) { id } }"}`)
	})

	// The account project: graphql-sse's POST stream with the key.
	stream := func(log string) string {
		return `window.` + log + ` = []; fetch(` + str(s.base+sh.runtime) + `, {method: "POST", headers: {"Content-Type": "application/json",
			Accept: "text/event-stream", "X-API-Key": ` + str(sh.rtKey) + `}, body: JSON.stringify({query: "subscription { productCreated { id name } }"})})
			.then(async (r) => { window.` + log + `.push("status " + r.status); const rd = r.body.getReader(), dec = new TextDecoder();
				for (;;) { const { value, done } = await rd.read(); if (done) break; window.` + log + `.push(dec.decode(value)); } },
				(e) => window.` + log + `.push("blocked: " + e)); true`
	}
	nav(allowed)
	p.js(stream("sse"))
	until("sse", `productCreated`, func() { sh.query(`mutation { createProduct(input: {name: "from afar"}) { id } }`, nil).data(t) })
	if got := fmt.Sprint(p.js(`window.sse[0]`)); got != "status 200" {
		t.Errorf("the allowed origin's stream: %s", got)
	}
	nav(front.URL) // 127.0.0.1:port is not on the list
	p.js(stream("blocked"))
	until("blocked", "blocked: TypeError", func() {})

	// graphql-transport-ws from the origin not on the list: the key in connection_init.
	ws := strings.Replace(s.base, "http", "ws", 1) + sh.runtime
	p.js(`window.ws = []; const ws = new WebSocket(` + str(ws) + `, "graphql-transport-ws");
		ws.onopen = () => ws.send(JSON.stringify({type: "connection_init", payload: {"X-API-Key": ` + str(sh.rtKey) + `}}));
		ws.onmessage = (e) => { const m = JSON.parse(e.data); window.ws.push(m.type === "next" ? JSON.stringify(m.payload) : m.type);
			if (m.type === "connection_ack") ws.send(JSON.stringify({type: "subscribe", id: "1", payload: {query: "subscription { productCreated { name } }"}})); };
		ws.onclose = (e) => window.ws.push("closed " + e.code); true`)
	until("ws", `websocket at last`, func() { sh.query(`mutation { createProduct(input: {name: "websocket at last"}) { id } }`, nil).data(t) })
}
