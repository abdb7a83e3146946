package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	nethttp "net/http"
	"net/url"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/mockgql/mockgql/internal/testdata"
)

// subscribeShop is the shop fixture with the subscriptions option on its
// products list.
func subscribeShop(t *testing.T, s *server, email, prefix string) *shop {
	t.Helper()
	sh := newShop(t, s, email, prefix)
	ops := sh.owner.must(`query($p:ID!){ project(id:$p) { operations { id name } } }`, map[string]any{"p": sh.project["id"]})
	for _, o := range get(ops, "project", "operations").([]any) {
		if o.(map[string]any)["name"] == "products" {
			sh.owner.must(`mutation($o:ID!){ updateOperation(input:{operationId:$o, options:{subscriptions: true}}) { id } }`,
				map[string]any{"o": o.(map[string]any)["id"]})
		}
	}
	return sh
}

// TestSubscriptionClients: graphql-ws's client, graphql-sse's client,
// Apollo Client's GraphQLWsLink and urql's subscriptionExchange each
// receive the event of a mutation made over HTTP, with the row a following
// list query returns; graphql-request and Apollo's HttpLink, which send a
// subscription as a plain POST, show why it is refused
// (testdata/js/subscriptions.mjs).
func TestSubscriptionClients(t *testing.T) {
	dir := filepath.Join("testdata", "js")
	testdata.RequireNodeModule(t, dir, "@apollo/client")
	s := startServer(t)
	sh := subscribeShop(t, s, "subs@example.com", "sub")
	out := testdata.Node(t, dir, nil, "subscriptions.mjs", s.base+sh.runtime, sh.rtKey)
	t.Logf("%s", out)
	for _, c := range []string{"graphql-ws: received", "graphql-sse: received", "apollo: received", "urql: received", "plain-post: refused"} {
		if !strings.Contains(string(out), c) {
			t.Errorf("%s received nothing:\n%s", c, out)
		}
	}
}

// TestSubscriptionEvents drives one graphql-transport-ws connection per
// case against a real server: credentials, the payload of each kind of
// event (relations, id, the deleted row as it was), sent events, demo
// streams, faults, and how a start and events count against the quota.
func TestSubscriptionEvents(t *testing.T) {
	// A response bound a row can pass: "an event too large to render".
	s := startServer(t, func(c *serveConfig) { c.Surface.MaxResponseBytes = eventBound })
	sh := subscribeShop(t, s, "subevents@example.com", "se")
	auth := map[string]any{"Authorization": "Bearer " + sh.rtKey}

	t.Run("refused credentials close with 4403", func(t *testing.T) {
		for name, c := range map[string]struct {
			payload map[string]any
			code    string
		}{
			"unknown key":    {map[string]any{"Authorization": "Bearer mgq_nope"}, "API_KEY_INVALID"},
			"management key": {map[string]any{"X-API-Key": sh.mgmtKey}, "API_KEY_SCOPE_INSUFFICIENT"},
			"no credential":  {map[string]any{}, "UNAUTHENTICATED"},
		} {
			payload, code := c.payload, c.code
			w := dialSub(t, s.base, sh.runtime, payload)
			_, err := w.read(10 * time.Second)
			var ce websocket.CloseError
			if !errors.As(err, &ce) || ce.Code != 4403 || !strings.HasPrefix(ce.Reason, "Forbidden: "+code+": ") {
				t.Errorf("%s: %v, want close 4403 naming %s", name, err, code)
			}
		}
	})
	t.Run("updated, with id and relation", func(t *testing.T) {
		w := dialSub(t, s.base, sh.runtime, auth).ack()
		w.subscribe("u", `subscription { productUpdated(id: "2") { id name category { title } } }`, nil)
		n := 0
		m := w.until(t, func() {
			n++
			sh.query(fmt.Sprintf(`mutation { a: updateProduct(id: "1", input: {name: "other %d"}) { id } b: updateProduct(id: "2", input: {name: "Chair %d"}) { id } }`, n, n), nil).data(t)
		}, 300*time.Millisecond, 30)
		if m.Type != "next" || !strings.Contains(string(m.Payload), `"id":"2"`) || !strings.Contains(string(m.Payload), `"title":"Office"`) {
			t.Fatalf("got %+v %s", m, m.Payload)
		}
	})
	t.Run("deleted: the row as it was", func(t *testing.T) {
		w := dialSub(t, s.base, sh.runtime, auth).ack()
		w.subscribe("d", `subscription { productDeleted { id name category { title } } }`, nil)
		var made []string
		m := w.until(t, func() {
			d := sh.query(`mutation { createProduct(input: {name: "Doomed", categoryId: 2}) { id } }`, nil).data(t)
			id := get(d, "createProduct", "id").(string)
			made = append(made, id)
			sh.query(`mutation($id: ID!) { deleteProduct(id: $id) { id } }`, map[string]any{"id": id}).data(t)
		}, 300*time.Millisecond, 30)
		if m.Type != "next" || !strings.Contains(string(m.Payload), `"name":"Doomed","category":{"title":"Lighting"}`) {
			t.Fatalf("got %+v %s", m, m.Payload)
		}
	})
	t.Run("sendEvent publishes without changing data, and events do not count", func(t *testing.T) {
		w := dialSub(t, s.base, sh.runtime, auth).ack()
		w.subscribe("s", `subscription { productUpdated { id name } }`, nil)
		send := func() {
			sh.owner.must(`mutation($p:ID!,$t:ID!){ sendEvent(projectId:$p, tableId:$t, kind: UPDATED, id: "3") }`,
				map[string]any{"p": sh.project["id"], "t": sh.tables["Product"]})
		}
		m := w.until(t, send, 300*time.Millisecond, 30)
		if m.Type != "next" || !strings.Contains(string(m.Payload), `{"productUpdated":{"id":"3","name":"Lamp"}}`) {
			t.Fatalf("got %+v %s", m, m.Payload)
		}
		usage := func() any {
			return get(sh.owner.must(`{ account { usage { requests } } }`, nil), "account", "usage", "requests")
		}
		before := usage()
		for range 3 {
			send()
			w.next("s", 10*time.Second)
		}
		if after := usage(); after != before {
			t.Errorf("three events moved the usage from %v to %v", before, after)
		}
		w.subscribe("s2", `subscription { productDeleted { id } }`, nil) // a start counts as one request
		for i := 0; usage() != before.(float64)+1; i++ {
			if i == 50 {
				t.Fatalf("a subscription's start moved the usage from %v to %v, want +1", before, usage())
			}
			time.Sleep(100 * time.Millisecond)
		}
		r := sh.owner.gql(`mutation($p:ID!,$t:ID!){ sendEvent(projectId:$p, tableId:$t, kind: UPDATED, id: "nope") }`,
			map[string]any{"p": sh.project["id"], "t": sh.tables["Product"]})
		if r.errCode() != "NOT_FOUND" {
			t.Errorf("sendEvent of a missing row: %s", r.Raw)
		}
	})
	t.Run("a demo stream publishes until stopped", func(t *testing.T) {
		w := dialSub(t, s.base, sh.runtime, auth).ack()
		w.subscribe("g", `subscription { productCreated { id } }`, nil)
		vars := map[string]any{"p": sh.project["id"], "t": sh.tables["Product"]}
		sh.owner.must(`mutation($p:ID!,$t:ID!){ startEventStream(projectId:$p, tableId:$t, kind: CREATED, everySeconds: 1) }`, vars)
		w.next("g", 10*time.Second)
		w.next("g", 10*time.Second)
		sh.owner.must(`mutation($p:ID!,$t:ID!){ stopEventStream(projectId:$p, tableId:$t, kind: CREATED) }`, vars)
		for i := 0; ; i++ {
			if _, err := w.read(3 * time.Second); err == errTimeout {
				break // quiet: stopped (one event may have been under way)
			} else if err != nil {
				t.Fatal(err)
			}
			if i == 3 {
				t.Fatal("events still come after stopEventStream")
			}
		}
		if r := sh.owner.gql(`mutation($p:ID!,$t:ID!){ startEventStream(projectId:$p, tableId:$t, kind: CREATED, everySeconds: 0) }`, vars); r.errCode() != "BAD_USER_INPUT" {
			t.Errorf("everySeconds 0: %s", r.Raw)
		}
	})
	t.Run("an event too large to render reaches its subscriber as errors, and the next one comes", func(t *testing.T) {
		// A render that fails (here: the row's selection is over
		// --max-response-bytes) is an execution error of that event alone
		// (app's eventError): a next with errors, then the stream goes on.
		// Were the error dropped, the next event would come first.
		w := dialSub(t, s.base, sh.runtime, auth).ack()
		w.subscribe("big", `subscription { productUpdated(id: "1") { name id } }`, nil) // the bound is checked between fields
		rename := func(name string) {
			sh.query(`mutation($n: String!) { updateProduct(id: "1", input: {name: $n}) { id } }`, map[string]any{"n": name}).data(t)
		}
		w.until(t, func() { rename("Desk") }, 300*time.Millisecond, 30) // the subscription runs
		rename(strings.Repeat("x", eventBound+1))
		rename("Desk again")
		m := nextNot(t, w, "big", `"name":"Desk"}`) // until's extra events
		if p := string(m.Payload); !strings.Contains(p, `"code":"PAYLOAD_TOO_LARGE"`) || !strings.Contains(p, "--max-response-bytes") || strings.Contains(p, `"data"`) {
			t.Fatalf("want the event's errors (PAYLOAD_TOO_LARGE), got %.300s", p)
		}
		if p := fmt.Sprint(w.next("big", 10*time.Second)); p != "map[data:map[productUpdated:map[id:1 name:Desk again]]]" {
			t.Fatalf("after the failed event, got %.300s", p)
		}
	})
	t.Run("an injected error ends the subscription with it", func(t *testing.T) {
		sh.owner.must(`mutation($p:ID!){ setFaults(projectId:$p, faults:{errorRate: 1, errorCode: "UNAVAILABLE"}) { id } }`, map[string]any{"p": sh.project["id"]})
		defer sh.owner.must(`mutation($p:ID!){ setFaults(projectId:$p, faults: null) { id } }`, map[string]any{"p": sh.project["id"]})
		w := dialSub(t, s.base, sh.runtime, auth).ack()
		w.subscribe("f", `subscription { productCreated { id } }`, nil)
		if p := w.next("f", 10*time.Second); !strings.Contains(fmt.Sprint(p), "UNAVAILABLE") {
			t.Fatalf("got %v", p)
		}
		if m, err := w.read(10 * time.Second); err != nil || m.Type != "complete" {
			t.Fatalf("want complete, got %+v %v", m, err)
		}
	})
	t.Run("the connection's actor token is released when it closes", func(t *testing.T) {
		tok, _ := sh.actors("POST", sh.rtKey, "").JSON["actorToken"].(string)
		w := dialSub(t, s.base, sh.runtime, map[string]any{"X-API-Key": sh.rtKey, "X-Actor-Token": tok}).ack()
		body := []byte(`{"query":"{ products { total } }"}`)
		s.do("POST", sh.runtime, body, "X-API-Key", sh.rtKey, "X-Actor-Token", tok).data(t)
		w.c.Close(websocket.StatusNormalClosure, "")
		for i := 0; ; i++ {
			r := s.do("POST", sh.runtime, body, "X-API-Key", sh.rtKey, "X-Actor-Token", tok)
			if r.Status == 401 && r.JSON["code"] == "ACTOR_TOKEN_INVALID" {
				break
			}
			if i == 50 {
				t.Fatalf("the token still works after the close: %d %s", r.Status, r.Raw)
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	t.Run("the request log records a subscription's start and end", func(t *testing.T) {
		w := dialSub(t, s.base, sh.runtime, auth).ack()
		w.subscribe("l", `subscription Logged { productUpdated(id: "4") { id } }`, nil)
		w.until(t, func() {
			sh.owner.must(`mutation($p:ID!,$t:ID!){ sendEvent(projectId:$p, tableId:$t, kind: UPDATED, id: "4") }`,
				map[string]any{"p": sh.project["id"], "t": sh.tables["Product"]})
		}, 300*time.Millisecond, 30)
		w.c.Close(websocket.StatusNormalClosure, "")
		for i := 0; ; i++ {
			d := sh.owner.must(`query($p:ID){ project(id:$p) { requestLog(limit: 20) { operationName subscription events } } }`, map[string]any{"p": sh.project["id"]})
			log := fmt.Sprint(get(d, "project", "requestLog"))
			if strings.Contains(log, "map[events:<nil> operationName:Logged subscription:START]") &&
				strings.Contains(log, "operationName:Logged subscription:END]") && !strings.Contains(log, "map[events:0 operationName:Logged subscription:END]") {
				break
			}
			if i == 50 {
				t.Fatalf("request log: %s", log)
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	t.Run("a subscription over a plain POST is refused, with GraphQL errors", func(t *testing.T) {
		r := sh.query(`subscription { productCreated { id } }`, nil)
		r.refusal(t, 400, "Bad Request")
		detail, _ := r.JSON["detail"].(string)
		if !strings.Contains(detail, "WebSocket") || get(r.JSON, "errors", 0, "message") != detail ||
			get(r.JSON, "errors", 0, "extensions", "code") != "Bad Request" || r.JSON["data"] != nil {
			t.Fatalf("want the detail as errors[0] with extensions.code: %s", r.Raw)
		}
	})
}

// eventBound is TestSubscriptionEvents' --max-response-bytes.
const eventBound = 64 << 10

// nextNot returns the first message of w that is not a next of id whose
// payload contains skip; it must be a next of id.
func nextNot(t *testing.T, w *wsSub, id, skip string) wsMsg {
	t.Helper()
	for {
		m, err := w.read(10 * time.Second)
		if err != nil || m.Type != "next" || m.ID != id {
			t.Fatalf("want next %s, got %s %s %.300s %v", id, m.Type, m.ID, m.Payload, err)
		}
		if !strings.Contains(string(m.Payload), skip) {
			return m
		}
	}
}

// TestClusterSubscriptions: a subscription on one node gets the event of
// a mutation made through another; when the node of the project's grain
// is SIGKILLed, its subscriber's connection ends, the client subscribes
// again on a survivor and gets the next mutation's event, and a
// subscriber that was on a survivor all along keeps getting events.
func TestClusterSubscriptions(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	if testing.Short() {
		t.Skip("starts and kills three processes")
	}
	tr := startTrio(t)
	sh := subscribeShop(t, tr.procs[0].server, "subcluster@example.com", "sc")
	auth := map[string]any{"X-API-Key": sh.rtKey}
	sh.query(`{ products { total } }`, nil).data(t) // activates the grain
	owner := -1
	for i, n := range tr.projectActivations(t) {
		if n > 0 {
			owner = i
		}
	}
	if owner < 0 {
		t.Fatal("no node holds the project's grain")
	}
	a, b := (owner+1)%3, (owner+2)%3
	n := 0
	create := func(node int) func() {
		return func() {
			n++
			q := fmt.Sprintf(`mutation { createProduct(input: {name: "c%d"}) { id } }`, n)
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Millisecond) {
				r := sh.on(tr.procs[node].server).query(q, nil)
				if r.Status == 200 && r.errCode() == "" {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("mutation through node %d: %s", node+1, r.Raw)
				}
			}
		}
	}
	const sub = `subscription { productCreated { id name } }`

	onA := dialSub(t, tr.procs[a].base, sh.runtime, auth).ack()
	onA.subscribe("a", sub, nil)
	if m := onA.until(t, create(b), 300*time.Millisecond, 30); m.Type != "next" {
		t.Fatalf("node %d's subscriber, mutation through node %d: %+v", a+1, b+1, m)
	}
	onOwner := dialSub(t, tr.procs[owner].base, sh.runtime, auth).ack()
	onOwner.subscribe("o", sub, nil)
	onOwner.until(t, create(a), 300*time.Millisecond, 30)
	for drained := false; !drained; { // onA saw those events too
		_, err := onA.read(500 * time.Millisecond)
		drained = err == errTimeout
	}

	tr.killAndWait(t, owner)
	for {
		_, err := onOwner.read(10 * time.Second)
		if err == errTimeout {
			t.Fatal("the killed node's subscriber is still open")
		}
		if err != nil {
			t.Logf("the killed node's subscriber ended: %v (status %d)", err, websocket.CloseStatus(err))
			break
		}
	}
	again := dialSub(t, tr.procs[b].base, sh.runtime, auth).ack()
	again.subscribe("b", sub, nil)
	if m := again.until(t, create(a), 500*time.Millisecond, 40); m.Type != "next" {
		t.Fatalf("resubscribed on node %d: %+v %s", b+1, m, m.Payload)
	}
	if m, err := onA.read(20 * time.Second); err != nil || m.Type != "next" {
		t.Fatalf("node %d's subscriber after the failover: %+v %v", a+1, m, err)
	}
}

// TestSubscriptionBounds: a burst of events faster than a subscriber
// takes them closes it with 1013 after at most its queue, and a flood of
// subscriptions from one IP is held to --sub-per-ip, the node's heap
// growing by no more than the stated per-connection bound allows.
func TestSubscriptionBounds(t *testing.T) {
	s := startServer(t, func(c *serveConfig) {
		c.Realtime.QueueEvents, c.Realtime.MaxPerIP, c.Realtime.MaxSubscriptions = 4, 40, 8
	})
	sh := subscribeShop(t, s, "subbounds@example.com", "sb")
	auth := map[string]any{"X-API-Key": sh.rtKey}

	t.Run("a slow consumer is closed with 1013", func(t *testing.T) {
		w := dialSub(t, s.base, sh.runtime, auth).ack()
		w.subscribe("s", `subscription { productCreated { id name category { title products { id name } } } }`, nil)
		var b strings.Builder
		b.WriteString("mutation {")
		for i := range 100 {
			fmt.Fprintf(&b, ` c%d: createProduct(input: {name: "burst %d", categoryId: 1}) { id }`, i, i)
		}
		b.WriteString(" }")
		w.until(t, func() { sh.query(`mutation { createProduct(input: {name: "warm"}) { id } }`, nil).data(t) }, 300*time.Millisecond, 30)
		sh.query(b.String(), nil).data(t)
		nexts := 0
		for {
			m, err := w.read(10 * time.Second)
			if err != nil {
				if websocket.CloseStatus(err) != websocket.StatusTryAgainLater {
					t.Fatalf("after %d events: %v, want close 1013", nexts, err)
				}
				break
			}
			if m.Type == "next" {
				nexts++
			}
		}
		if nexts >= 100 {
			t.Fatalf("%d events delivered: the burst did not overflow", nexts)
		}
		t.Logf("closed with 1013 after %d of the burst's events", nexts)
	})
	t.Run("a flood from one IP is held to --sub-per-ip", func(t *testing.T) {
		heap := func() uint64 {
			goruntime.GC()
			var m goruntime.MemStats
			goruntime.ReadMemStats(&m)
			return m.HeapAlloc
		}
		before := heap()
		admitted, refused := 0, 0
		var conns []*wsSub
		for c := range 10 {
			w := dialSub(t, s.base, sh.runtime, auth).ack()
			conns = append(conns, w)
			for i := range 8 {
				w.subscribe(fmt.Sprint(c, "-", i), `subscription { productCreated { id } }`, nil)
			}
		}
		for _, w := range conns {
			for range 8 {
				if m, err := w.read(200 * time.Millisecond); err == errTimeout {
					admitted++ // a running subscription sends nothing until an event
				} else if err == nil && m.Type == "error" && strings.Contains(string(m.Payload), "LIMIT_REACHED") {
					refused++
				} else {
					t.Fatalf("%+v %s %v", m, m.Payload, err)
				}
			}
		}
		grew := int64(heap()) - int64(before)
		t.Logf("80 subscriptions from one IP: %d refused; the heap grew by %d KB", refused, grew/1024)
		if refused != 40 {
			t.Errorf("refused %d of 80, want 40 (--sub-per-ip 40)", refused)
		}
		// Stated bound (docs/reference/bounds.md): a connection's queues are
		// at most 8 × 4 events of 128 bytes here, plus its buffers; 10
		// connections stay far under 16 MB.
		if grew > 16<<20 {
			t.Errorf("the heap grew by %d bytes", grew)
		}
	})
}

// TestSubscriptionSSE: graphql-sse's distinct connections mode from Go: a
// refused request gets the error body (a 400 with GraphQL errors too), a
// subscription's events arrive as "next" events.
func TestSubscriptionSSE(t *testing.T) {
	s := startServer(t)
	sh := subscribeShop(t, s, "subsse@example.com", "ss")
	q := "?query=" + url.QueryEscape(`subscription { productCreated { id name } }`)
	get := func(headers ...string) *nethttp.Response {
		req, _ := nethttp.NewRequest("GET", s.base+sh.runtime+q, nil)
		req.Header.Set("Accept", "text/event-stream")
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		resp, err := nethttp.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	if r := get("X-API-Key", "mgq_nope"); r.StatusCode != 401 || !strings.Contains(readAll(r), `"code":"API_KEY_INVALID"`) {
		t.Fatalf("a bad key: %d", r.StatusCode)
	}
	q = "" // no document: the request itself is refused, before any event
	if r := get("X-API-Key", sh.rtKey); r.StatusCode != 400 {
		t.Fatalf("no query: %d", r.StatusCode)
	} else if body := readAll(r); !strings.Contains(body, `"detail":`) || !strings.Contains(body, `"errors":[{"message":`) ||
		!strings.Contains(body, `"extensions":{"code":`) {
		t.Fatalf("the 400 of an event stream lacks the error body or its GraphQL errors: %s", body)
	}
	q = "?query=" + url.QueryEscape(`subscription { productCreated { id name } }`)
	r := get("X-API-Key", sh.rtKey)
	if r.StatusCode != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("%d %s", r.StatusCode, r.Header.Get("Content-Type"))
	}
	l := firstSSEData(t, r.Body, func(i int) {
		sh.query(fmt.Sprintf(`mutation { createProduct(input: {name: "sse %d"}) { id } }`, i), nil).data(t)
	})
	if !strings.Contains(l, `"productCreated"`) {
		t.Fatalf("event %s", l)
	}
}

// firstSSEData calls fire (with 0, 1, …, up to 30 times, 300 ms apart)
// until the event stream body carries a data line, and returns it.
func firstSSEData(t *testing.T, body io.Reader, fire func(i int)) string {
	t.Helper()
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(body)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	for i := 0; i < 30; i++ {
		fire(i)
		for wait := time.After(300 * time.Millisecond); ; {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatal("the stream ended")
				}
				if strings.HasPrefix(l, "data: {") {
					return l
				}
				continue // the keep-alive comment, event names, blank lines
			case <-wait:
			}
			break
		}
	}
	t.Fatal("no event after 30 tries")
	return ""
}

func readAll(r *nethttp.Response) string {
	b, _ := io.ReadAll(r.Body)
	return string(b)
}

// TestSubscriptionShutdown: a node shutting down ends its event streams
// instead of waiting for them (an SSE stream is a request net/http's
// Shutdown would wait for until its deadline).
func TestSubscriptionShutdown(t *testing.T) {
	s := startServer(t)
	sh := subscribeShop(t, s, "subdown@example.com", "sd")
	req, _ := nethttp.NewRequest("GET", s.base+sh.runtime+"?query="+url.QueryEscape(`subscription { productCreated { id } }`), nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("X-API-Key", sh.rtKey)
	resp, err := nethttp.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("%v %v", err, resp)
	}
	defer resp.Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.run.srv.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown with an open event stream: %v", err)
	}
	if _, err := io.ReadAll(resp.Body); err != nil && !strings.Contains(err.Error(), "EOF") {
		t.Logf("the stream ended: %v", err)
	}
}
