package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	nethttp "net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// streamEnd is how long a test waits for a stream to end after its
// credential does: the promise is 5 s (app.RecheckEvery and one check);
// the rest is slack for a loaded machine.
const streamEnd = 15 * time.Second

// sseStream is a test-only graphql-sse client of one event stream: the
// "event:" and "data:" lines it receives, closed when the stream ends.
type sseStream struct {
	lines <-chan string
}

// openSSE starts an event stream of query at base+path with the headers
// (name, value pairs) and fails unless it is accepted.
func openSSE(t *testing.T, base, path, query string, headers ...string) *sseStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	req, _ := nethttp.NewRequestWithContext(ctx, "GET", base+path+sep+"query="+url.QueryEscape(query), nil)
	req.Header.Set("Accept", "text/event-stream")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := nethttp.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("event stream refused: %d %s", resp.StatusCode, readAll(resp))
	}
	lines := make(chan string, 1024)
	go func() {
		defer resp.Body.Close()
		defer close(lines)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if l := strings.TrimSpace(sc.Text()); strings.HasPrefix(l, "event:") || strings.HasPrefix(l, "data:") {
				lines <- l
			}
		}
	}()
	return &sseStream{lines: lines}
}

// live fires events until a data line arrives.
func (st *sseStream) live(t *testing.T, fire func()) {
	t.Helper()
	for range 50 {
		fire()
		for wait := time.After(300 * time.Millisecond); ; {
			select {
			case l, ok := <-st.lines:
				if !ok {
					t.Fatal("the event stream ended before its first event")
				}
				if strings.HasPrefix(l, "data: {") {
					return
				}
				continue
			case <-wait:
			}
			break
		}
	}
	t.Fatal("the event stream received no event")
}

// drain drops what the stream received so far.
func (st *sseStream) drain() {
	for {
		select {
		case <-st.lines:
		case <-time.After(300 * time.Millisecond):
			return
		}
	}
}

// ended waits until the stream sends an error naming code, then complete,
// then ends; any other event meanwhile fails the test.
func (st *sseStream) ended(t *testing.T, code string) {
	t.Helper()
	var got []string
	deadline := time.After(streamEnd)
	for {
		select {
		case l, ok := <-st.lines:
			if !ok {
				want := fmt.Sprintf(`event: next|data: {"errors":[{"extensions":{"code":"%s"}`, code)
				if s := strings.Join(got, "|"); !strings.HasPrefix(s, want) || !strings.HasSuffix(s, "|event: complete|data:") || len(got) != 4 {
					t.Fatalf("the event stream ended with %q, want its error naming %s, then complete", s, code)
				}
				return
			}
			got = append(got, l)
		case <-deadline:
			t.Fatalf("the event stream is still open %s after its credential ended; it received %q", streamEnd, got)
		}
	}
}

// wsEnded waits until each operation of ids gets an error naming code and
// the connection closes with 4403; a next meanwhile fails the test.
func wsEnded(t *testing.T, w *wsSub, code string, ids ...string) {
	t.Helper()
	errored := map[string]bool{}
	deadline := time.Now().Add(streamEnd)
	for {
		m, err := w.read(time.Until(deadline))
		switch {
		case err == errTimeout:
			t.Fatalf("the WebSocket is still open %s after its credential ended", streamEnd)
		case err != nil:
			var ce websocket.CloseError
			if !errors.As(err, &ce) || ce.Code != 4403 || !strings.HasPrefix(ce.Reason, "Forbidden: "+code) {
				t.Fatalf("the WebSocket ended with %v, want close 4403 naming %s", err, code)
			}
			for _, id := range ids {
				if !errored[id] {
					t.Fatalf("operation %s got no error before the close", id)
				}
			}
			return
		case m.Type == "error" && strings.Contains(string(m.Payload), `"code":"`+code+`"`):
			errored[m.ID] = true
		default:
			t.Fatalf("after its credential ended the WebSocket received %+v %s", m, m.Payload)
		}
	}
}

// streams is one WebSocket subscription and one event stream of a
// credential, both receiving events.
type streams struct {
	ws  *wsSub
	sse *sseStream
}

const createdSub = `subscription { productCreated { id name } }`

// openStreams opens both with the WebSocket's init payload and the event
// stream's path and headers, and waits until an event reaches both.
func openStreams(t *testing.T, s *server, path string, payload map[string]any, fire func(), headers ...string) *streams {
	t.Helper()
	return openStreamsOn(t, s, s, path, payload, fire, headers...)
}

// openStreamsOn is openStreams with the WebSocket on node ws and the
// event stream on node sse.
func openStreamsOn(t *testing.T, ws, sse *server, path string, payload map[string]any, fire func(), headers ...string) *streams {
	t.Helper()
	w := dialSub(t, ws.base, path, payload).ack()
	w.subscribe("s", createdSub, nil)
	if m := w.until(t, fire, 300*time.Millisecond, 50); m.Type != "next" {
		t.Fatalf("the WebSocket subscription: %+v %s", m, m.Payload)
	}
	st := openSSE(t, sse.base, path, createdSub, headers...)
	st.live(t, fire)
	for drained := false; !drained; {
		_, err := w.read(300 * time.Millisecond)
		drained = err == errTimeout
	}
	st.drain()
	return &streams{ws: w, sse: st}
}

// ended checks both streams end with code.
func (sts *streams) ended(t *testing.T, code string) {
	t.Helper()
	wsEnded(t, sts.ws, code, "s")
	sts.sse.ended(t, code)
}

// TestSubscriptionCredentialEnds: a WebSocket subscription and an event
// stream end (an error naming why; close 4403, or complete) once the
// credential they opened with no longer lets them in: its key revoked,
// deleted or expired, its maker removed with their keys, the project
// deleted, a session project kept (its share token gone).
func TestSubscriptionCredentialEnds(t *testing.T) {
	s := startServer(t)
	sh := subscribeShop(t, s, "subends@example.com", "sx")
	n := 0
	create := func() {
		n++
		sh.query(fmt.Sprintf(`mutation { createProduct(input: {name: "e%d"}) { id } }`, n), nil).data(t)
	}
	newKey := func(expires string) (value, id string) {
		vars := map[string]any{"p": sh.project["id"]}
		if expires != "" {
			vars["e"] = expires
		}
		d := sh.owner.must(`mutation($p:ID!,$e:DateTime){ createApiKey(projectId:$p, name:"s", scope: RUNTIME, expiresAt:$e) { value key { id } } }`, vars)
		return get(d, "createApiKey", "value").(string), get(d, "createApiKey", "key", "id").(string)
	}
	withKey := func(t *testing.T, key string) *streams {
		return openStreams(t, s, sh.runtime, map[string]any{"X-API-Key": key}, create, "X-API-Key", key)
	}

	t.Run("revokeApiKey", func(t *testing.T) {
		key, id := newKey("")
		sts := withKey(t, key)
		sh.owner.must(`mutation($k:ID!){ revokeApiKey(keyId:$k) { revoked } }`, map[string]any{"k": id})
		sts.ended(t, "API_KEY_INVALID")
	})
	t.Run("deleteApiKey", func(t *testing.T) {
		key, id := newKey("")
		sts := withKey(t, key)
		sh.owner.must(`mutation($k:ID!){ deleteApiKey(keyId:$k) }`, map[string]any{"k": id})
		sts.ended(t, "API_KEY_INVALID")
	})
	t.Run("the key expires", func(t *testing.T) {
		key, _ := newKey(testNow(t).Add(time.Hour).UTC().Format(time.RFC3339Nano))
		sts := withKey(t, key)
		advance(t, 2*time.Hour)
		sts.ended(t, "API_KEY_EXPIRED")
	})
	t.Run("removeMember with revokeKeys", func(t *testing.T) {
		admin := join(t, sh.owner, s.signUp("subends-admin@example.com"), "ADMIN")
		d := admin.must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"m", scope: RUNTIME) { value } }`, map[string]any{"p": sh.project["id"]})
		key := get(d, "createApiKey", "value").(string)
		sts := withKey(t, key)
		sh.owner.must(`mutation($u:ID!){ removeMember(userId:$u, revokeKeys: true) }`, map[string]any{"u": memberID(t, sh.owner, admin.email)})
		sts.ended(t, "API_KEY_INVALID")
	})
	t.Run("deleteProject", func(t *testing.T) {
		gone := subscribeShop(t, s, "subgone@example.com", "sg")
		i := 0
		fire := func() {
			i++
			gone.query(fmt.Sprintf(`mutation { createProduct(input: {name: "g%d"}) { id } }`, i), nil).data(t)
		}
		sts := openStreams(t, s, gone.runtime, map[string]any{"X-API-Key": gone.rtKey}, fire, "X-API-Key", gone.rtKey)
		gone.owner.must(`mutation($p:ID!){ deleteProject(projectId:$p) }`, map[string]any{"p": gone.project["id"]})
		sts.ended(t, "PROJECT_NOT_FOUND")
	})
	t.Run("keepSessionProject", func(t *testing.T) {
		seedPool(t, s)
		a := &assistant{s: s}
		sp := buildSessionModel(t, a)
		pid, token := sp["projectId"].(string), sp["shareToken"].(string)
		path := "/mock/" + sp["slug"].(string) + "/graphql"
		enableSubscriptions(t, a, pid, "products")
		i := 0
		fire := func() {
			i++
			s.gql(path+"?token="+token, fmt.Sprintf(`mutation { createProduct(input: {name: "k%d"}) { id } }`, i), nil).data(t)
		}
		sts := openStreams(t, s, path+"?token="+token, nil, fire)
		u := s.signUp("subkeeper@example.com")
		s.gql("/graphql", `mutation($p:ID!){ keepSessionProject(projectId:$p) { id } }`, map[string]any{"p": pid},
			"Authorization", "Bearer "+u.token, "Cookie", a.cookie).data(t)
		sts.ended(t, "UNAUTHENTICATED")
	})
}

// enableSubscriptions turns the subscriptions option on for the
// assistant's session project's operation name.
func enableSubscriptions(t *testing.T, a *assistant, projectID, name string) {
	t.Helper()
	ops := a.must(`{ sessionProject { id operations { id name } } }`, nil)
	if get(ops, "sessionProject", "id") != projectID {
		t.Fatalf("the assistant's session project is %v, not %s", get(ops, "sessionProject", "id"), projectID)
	}
	for _, o := range get(ops, "sessionProject", "operations").([]any) {
		if o.(map[string]any)["name"] == name {
			// The public API has no updateOperation; the management API
			// takes the session cookie for the session's own project.
			a.s.gql("/graphql", `mutation($o:ID!){ updateOperation(input:{operationId:$o, options:{subscriptions: true}}) { id } }`,
				map[string]any{"o": o.(map[string]any)["id"]}, "Cookie", a.cookie).data(t)
			return
		}
	}
	t.Fatalf("no operation %s", name)
}

// TestSubscriptionWindow: each query and subscription start over one
// WebSocket counts against the per-IP runtime window (--ip-limit 60) and
// the quota, as an HTTP request does: past the window an operation gets
// an error with TOO_MANY_REQUESTS and its retry time, and the socket stays
// open.
func TestSubscriptionWindow(t *testing.T) {
	s := startServer(t, func(c *serveConfig) { c.IPLimit = 60 })
	sh := subscribeShop(t, s, "subwindow@example.com", "sw")
	usage := func() float64 {
		return get(sh.owner.must(`{ account { usage { requests } } }`, nil), "account", "usage", "requests").(float64)
	}
	before := usage()
	clearOfWindowEdge(t, time.Minute, 40*time.Second)
	w := dialSub(t, s.base, sh.runtime, map[string]any{"X-API-Key": sh.rtKey}).ack() // the upgrade: 1 of 60
	answered, refused, retry := 0, 0, ""
	for i := range 150 {
		id, q := fmt.Sprint("q", i), `{ products { total } }`
		wait := 10 * time.Second
		if i%10 == 9 {
			q, wait = createdSub, time.Second // a subscription start counts too
		}
		w.subscribe(id, q, nil)
		m, err := w.read(wait) // a refusal comes at once, before anything else the socket sends
		switch {
		case err == errTimeout && q == createdSub: // running: it sends nothing until an event
			answered++
			w.send(wsMsg{Type: "complete", ID: id})
		case err != nil:
			t.Fatalf("operation %d: %v", i, err)
		case m.Type == "next" && m.ID == id && strings.Contains(string(m.Payload), `"total"`):
			answered++
			if m, err := w.read(10 * time.Second); err != nil || m.Type != "complete" {
				t.Fatalf("operation %d: %+v %v, want complete", i, m, err)
			}
		case m.Type == "error" && m.ID == id && strings.Contains(string(m.Payload), `"code":"TOO_MANY_REQUESTS"`):
			refused++
			if retry == "" {
				retry = string(m.Payload)
			}
		default:
			t.Fatalf("operation %d: %+v %s", i, m, m.Payload)
		}
	}
	t.Logf("150 operations over one socket: %d answered, %d refused; the first refusal %s", answered, refused, retry)
	if answered != 59 || refused != 91 {
		t.Errorf("%d answered, %d refused; want 59 and 91 (the window of 60 less the upgrade)", answered, refused)
	}
	if !strings.Contains(retry, `"retryAfter":`) {
		t.Errorf("the refusal has no retry time: %s", retry)
	}
	advance(t, time.Minute) // the next window: the same socket goes on
	w.subscribe("after", `{ products { total } }`, nil)
	if m, err := w.read(10 * time.Second); err != nil || m.Type != "next" || m.ID != "after" {
		t.Fatalf("the socket did not stay open: %+v %s %v", m, m.Payload, err)
	}
	// The quota counts what was answered, each start one request.
	if got := usage() - before; got != float64(answered+1) {
		t.Errorf("the quota counted %v requests, want %d", got, answered+1)
	}
}

// TestClusterSubscriptionEnds: streams held by the two nodes that do not
// hold the project's grain end once their key is revoked through another
// node, and once the project is deleted: the check that ends them runs
// on the node that holds each stream.
func TestClusterSubscriptionEnds(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	if testing.Short() {
		t.Skip("starts three processes")
	}
	tr := startTrio(t)
	sh := subscribeShop(t, tr.procs[0].server, "subendscluster@example.com", "sc")
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
	fire := func() {
		n++
		sh.on(tr.procs[owner].server).query(fmt.Sprintf(`mutation { createProduct(input: {name: "c%d"}) { id } }`, n), nil).data(t)
	}
	d := sh.owner.must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"s", scope: RUNTIME) { value key { id } } }`, map[string]any{"p": sh.project["id"]})
	key, id := get(d, "createApiKey", "value").(string), get(d, "createApiKey", "key", "id").(string)
	sts := openStreamsOn(t, tr.procs[a].server, tr.procs[b].server, sh.runtime, map[string]any{"X-API-Key": key}, fire, "X-API-Key", key)
	sh.owner.on(tr.procs[b].server).must(`mutation($k:ID!){ revokeApiKey(keyId:$k) { revoked } }`, map[string]any{"k": id})
	sts.ended(t, "API_KEY_INVALID")

	sts = openStreamsOn(t, tr.procs[b].server, tr.procs[a].server, sh.runtime, map[string]any{"X-API-Key": sh.rtKey}, fire, "X-API-Key", sh.rtKey)
	sh.owner.on(tr.procs[a].server).must(`mutation($p:ID!){ deleteProject(projectId:$p) }`, map[string]any{"p": sh.project["id"]})
	sts.ended(t, "PROJECT_NOT_FOUND")
}
