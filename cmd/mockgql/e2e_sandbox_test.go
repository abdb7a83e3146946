package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// sandboxClient is one test worker's own HTTP client of a shop's runtime,
// in one sandbox ("" none).
type sandboxClient struct {
	sh      *shop
	c       *http.Client
	sandbox string
}

func newSandboxClient(sh *shop, sandbox string) *sandboxClient {
	return &sandboxClient{sh: sh, sandbox: sandbox, c: &http.Client{Transport: &http.Transport{}, Timeout: 30 * time.Second}}
}

// post runs a GraphQL request; it returns the decoded answer.
func (c *sandboxClient) post(query string, vars map[string]any) (response, error) {
	b, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, err := http.NewRequest(http.MethodPost, c.sh.s.base+c.sh.runtime, bytes.NewReader(b))
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-Key", c.sh.fullKey)
	if c.sandbox != "" {
		req.Header.Set("X-Mock-Sandbox", c.sandbox)
	}
	resp, err := c.c.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	r := response{Status: resp.StatusCode, Header: resp.Header, Raw: raw}
	_ = json.Unmarshal(raw, &r.JSON)
	return r, err
}

// must is post that fails the test (safely from any goroutine) on a
// transport error or a GraphQL error.
func (c *sandboxClient) must(t *testing.T, query string, vars map[string]any) (map[string]any, bool) {
	r, err := c.post(query, vars)
	if err != nil || r.Status != 200 || r.JSON["errors"] != nil {
		t.Errorf("sandbox %q: %s: %v %d %s", c.sandbox, query, err, r.Status, r.Raw)
		return nil, false
	}
	d, _ := r.JSON["data"].(map[string]any)
	return d, true
}

// productNames is the sorted names of every product the client sees, and
// their total.
func (c *sandboxClient) productNames(t *testing.T) ([]string, int, bool) {
	d, ok := c.must(t, `{ products(pageSize: 1000) { total items { name } } }`, nil)
	if !ok {
		return nil, 0, false
	}
	var names []string
	for _, it := range get(d, "products", "items").([]any) {
		names = append(names, fmt.Sprint(get(it, "name")))
	}
	sort.Strings(names)
	return names, int(get(d, "products", "total").(float64)), true
}

// baseNames are the shop fixture's products, sorted.
var baseNames = []string{"Chair", "Desk", "Lamp", "desk lamp"}

// sandboxWork is what worker w does in its sandbox: create w+1 rows,
// rename product 2, delete product 1. want is what the sandbox then
// holds, sorted.
func sandboxWork(t *testing.T, c *sandboxClient, w int) (want []string, ok bool) {
	for i := range w + 1 {
		name := fmt.Sprintf("%s-row-%d", c.sandbox, i)
		if _, ok := c.must(t, `mutation($n:String){ createProduct(input:{name:$n}) { id } }`, map[string]any{"n": name}); !ok {
			return nil, false
		}
		want = append(want, name)
	}
	renamed := c.sandbox + "-chair"
	if _, ok := c.must(t, `mutation($n:String){ updateProduct(id:"2", input:{name:$n}) { id } }`, map[string]any{"n": renamed}); !ok {
		return nil, false
	}
	if _, ok := c.must(t, `mutation { deleteProduct(id:"1") { id } }`, nil); !ok {
		return nil, false
	}
	want = append(want, renamed, "Lamp", "desk lamp")
	sort.Strings(want)
	return want, true
}

// TestSandboxes runs 16 workers in parallel against a real mockgql
// serve process, each with its own HTTP client in its own sandbox: each
// creates, updates and deletes rows and reads totals only its own writes
// explain, while requests without the header see none of it; then the
// management API lists, resets and deletes sandboxes, the request log
// names them, and idle ones are forgotten after --sandbox-ttl.
func TestSandboxes(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	p := startProc(t, t.TempDir(), freePort(t), "--sandbox-ttl 10m")
	sh := newShop(t, p.server, "sandboxes@example.com", "sb")
	plain := newSandboxClient(sh, "")
	const workers = 16

	// The query every worker and the plain client ask, byte for byte: the
	// node's answer cache must key on the sandbox.
	if names, total, ok := plain.productNames(t); !ok || total != 4 || !equal(names, baseNames) {
		t.Fatalf("before: %d %v", total, names)
	}
	t.Run("16 workers, each in its own sandbox", func(t *testing.T) {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := newSandboxClient(sh, fmt.Sprintf("worker-%d", w))
				if names, total, ok := c.productNames(t); !ok || total != 4 || !equal(names, baseNames) {
					t.Errorf("worker %d before its writes: %d %v", w, total, names)
					return
				}
				want, ok := sandboxWork(t, c, w)
				if !ok {
					return
				}
				for range 3 { // again: the second and third answers may come from the answer cache
					names, total, ok := c.productNames(t)
					if !ok {
						return
					}
					if total != len(want) || !equal(names, want) {
						t.Errorf("worker %d: total %d, rows %v; want %d, %v", w, total, names, len(want), want)
						return
					}
				}
			}()
		}
		wg.Wait()
		if names, total, ok := plain.productNames(t); !ok || total != 4 || !equal(names, baseNames) {
			t.Fatalf("without the header: %d %v", total, names)
		}
	})
	if t.Failed() {
		t.FailNow()
	}

	t.Run("a cached answer is never served across sandboxes", func(t *testing.T) {
		q := `{ products(pageSize: 1000) { total } }`
		for range 2 {
			for _, sb := range []string{"", "worker-0", "worker-5", ""} {
				d, _ := newSandboxClient(sh, sb).must(t, q, nil)
				want := 4.0
				switch sb {
				case "worker-0":
					want = 4
				case "worker-5":
					want = 9
				}
				if got := get(d, "products", "total"); got != want {
					t.Fatalf("sandbox %q: total %v, want %v", sb, got, want)
				}
			}
		}
	})

	t.Run("?sandbox= where no header can be set", func(t *testing.T) {
		r := sh.s.do("GET", sh.runtime+"?sandbox=worker-5&query="+url.QueryEscape(`{ products(pageSize: 1000) { total } }`), nil, "X-API-Key", sh.fullKey)
		if got := get(r.data(t), "products", "total"); got != 9.0 {
			t.Fatalf("GET ?sandbox=worker-5: total %v, want 9", got)
		}
	})

	t.Run("the request log names the sandbox", func(t *testing.T) {
		d := sh.owner.must(`query($p:ID){ project(id:$p) { requestLog(limit: 200) { sandbox operationName } } }`, map[string]any{"p": sh.project["id"]})
		seen := map[string]bool{}
		for _, e := range get(d, "project", "requestLog").([]any) {
			if s, ok := get(e, "sandbox").(string); ok {
				seen[s] = true
			} else {
				seen[""] = true
			}
		}
		for _, want := range []string{"", "worker-0", "worker-15"} {
			if !seen[want] {
				t.Fatalf("no log entry of sandbox %q: %v", want, seen)
			}
		}
	})

	t.Run("the management API lists, resets and deletes sandboxes", func(t *testing.T) {
		pid := sh.project["id"]
		list := sandboxList(t, sh)
		if len(list) != workers || list["worker-3"] != 4+2 {
			t.Fatalf("sandboxes: %v", list)
		}
		sh.owner.must(`mutation($p:ID!){ resetMockData(projectId:$p, sandbox:"worker-3") }`, map[string]any{"p": pid})
		if names, _, _ := newSandboxClient(sh, "worker-3").productNames(t); !equal(names, baseNames) {
			t.Fatalf("worker-3 after its reset: %v", names)
		}
		if names, _, _ := newSandboxClient(sh, "worker-4").productNames(t); len(names) != 8 {
			t.Fatalf("worker-4 after worker-3's reset: %v", names)
		}
		sh.owner.must(`mutation($p:ID!){ deleteSandbox(projectId:$p, sandbox:"worker-4") }`, map[string]any{"p": pid})
		if list := sandboxList(t, sh); len(list) != workers-1 || list["worker-3"] != 0 {
			t.Fatalf("after reset and delete: %v", list)
		}
		if names, _, _ := newSandboxClient(sh, "worker-4").productNames(t); !equal(names, baseNames) {
			t.Fatalf("worker-4 after its deletion: %v", names)
		}
		r := sh.owner.gql(`mutation($p:ID!){ deleteSandbox(projectId:$p, sandbox:"worker-4") }`, map[string]any{"p": pid})
		if r.errCode() != "NOT_FOUND" {
			t.Fatalf("deleting a deleted sandbox: %s", r.Raw)
		}
		// The project's own reset leaves the sandboxes.
		sh.query(`mutation { createProduct(input:{name:"plain"}) { id } }`, nil).data(t)
		sh.owner.must(`mutation($p:ID!){ resetMockData(projectId:$p) }`, map[string]any{"p": pid})
		if names, _, _ := newSandboxClient(sh, "worker-5").productNames(t); len(names) != 9 {
			t.Fatalf("worker-5 after the project's reset: %v", names)
		}
	})

	t.Run("a malformed name is BAD_USER_INPUT", func(t *testing.T) {
		for _, name := range []string{"a b", strings.Repeat("x", 65), "ü"} {
			r, err := newSandboxClient(sh, name).post(`{ products { total } }`, nil)
			if err != nil {
				t.Fatal(err)
			}
			r.refusal(t, 400, "BAD_USER_INPUT")
		}
	})

	t.Run("an idle sandbox is forgotten after --sandbox-ttl", func(t *testing.T) {
		c := newSandboxClient(sh, "worker-6")
		if names, _, _ := c.productNames(t); len(names) != 10 {
			t.Fatalf("worker-6: %v", names)
		}
		advance(t, 9*time.Minute)
		c.productNames(t) // a read restarts its idle time
		advance(t, 9*time.Minute)
		list := sandboxList(t, sh)
		if _, ok := list["worker-6"]; !ok || len(list) != 1 {
			t.Fatalf("18 minutes on, only worker-6, read 9 minutes ago, is live: %v", list)
		}
		advance(t, 2*time.Minute)
		deadline := time.Now().Add(10 * time.Second)
		for len(sandboxList(t, sh)) > 0 { // forgotten at the grain's next checkpoint, once a second
			if time.Now().After(deadline) {
				t.Fatalf("idle past the TTL, still listed: %v", sandboxList(t, sh))
			}
			time.Sleep(100 * time.Millisecond)
		}
		if names, _, _ := c.productNames(t); !equal(names, baseNames) {
			t.Fatalf("worker-6 after it expired: %v", names)
		}
	})
}

// sandboxList is the shop's sandboxes by name, with their changed rows.
func sandboxList(t *testing.T, sh *shop) map[string]int {
	t.Helper()
	d := sh.owner.must(`query($p:ID!){ sandboxes(projectId:$p) { name changedRows bytes lastUsedAt expiresAt } }`, map[string]any{"p": sh.project["id"]})
	out := map[string]int{}
	for _, s := range get(d, "sandboxes").([]any) {
		out[get(s, "name").(string)] = int(get(s, "changedRows").(float64))
	}
	return out
}

func equal(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00")
}

// TestSandboxBounds: the plan's sandboxes a project and the bytes of one
// sandbox's changes refuse the mutation past them with LIMIT_REACHED and
// write nothing of it.
func TestSandboxBounds(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	p := startProc(t, t.TempDir(), freePort(t), "--plan-sandboxes 5,3,5,5", "--sandbox-bytes 2000")
	sh := newShop(t, p.server, "sandbox-bounds@example.com", "sbb") // PROFESSIONAL: 3 sandboxes
	create := `mutation($n:String){ createProduct(input:{name:$n}) { id } }`

	t.Run("sandboxes a project", func(t *testing.T) {
		for i := range 3 {
			newSandboxClient(sh, fmt.Sprintf("s%d", i)).must(t, create, map[string]any{"n": "x"})
		}
		fourth := newSandboxClient(sh, "s3")
		r, err := fourth.post(create, map[string]any{"n": "x"})
		if err != nil {
			t.Fatal(err)
		}
		r.refusal(t, 429, "LIMIT_REACHED")
		if names, _, _ := fourth.productNames(t); !equal(names, baseNames) { // a query makes none
			t.Fatalf("s3 after its refused mutation: %v", names)
		}
		if list := sandboxList(t, sh); len(list) != 3 {
			t.Fatalf("sandboxes: %v", list)
		}
		sh.owner.must(`mutation($p:ID!){ deleteSandbox(projectId:$p, sandbox:"s0") }`, map[string]any{"p": sh.project["id"]})
		fourth.must(t, create, map[string]any{"n": "x"})
	})

	t.Run("bytes a sandbox", func(t *testing.T) {
		c := newSandboxClient(sh, "s1")
		long := strings.Repeat("n", 300)
		var refused response
		for i := range 20 {
			r, err := c.post(create, map[string]any{"n": fmt.Sprintf("%s-%d", long, i)})
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != 200 {
				refused = r
				break
			}
		}
		refused.refusal(t, 429, "LIMIT_REACHED")
		d := sh.owner.must(`query($p:ID!){ sandboxes(projectId:$p) { name bytes changedRows } }`, map[string]any{"p": sh.project["id"]})
		for _, s := range get(d, "sandboxes").([]any) {
			if get(s, "name") == "s1" && get(s, "bytes").(float64) > 2000 {
				t.Fatalf("s1 holds more than its bound: %v", s)
			}
		}
		names, _, _ := c.productNames(t)
		list := sandboxList(t, sh)
		if len(names) != 4+list["s1"] {
			t.Fatalf("s1 shows %d rows but holds %d changes: the refused mutation was written", len(names), list["s1"])
		}
	})
}

// TestSandboxSubscriptions: an event of a mutation in one sandbox reaches
// only that sandbox's subscriptions, rendered on the sandbox's data;
// subscriptions without a sandbox get only the project's own events.
// Events of a project are delivered in order, so a leaked event would be
// a subscription's next message before its own.
func TestSandboxSubscriptions(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	p := startProc(t, t.TempDir(), freePort(t))
	sh := subscribeShop(t, p.server, "sandbox-subs@example.com", "sbs")
	q := `subscription { productUpdated(id: "2") { name } }`
	subs := map[string]*wsSub{}
	for _, sb := range []string{"a", "b", ""} {
		payload := map[string]any{"X-API-Key": sh.rtKey}
		if sb != "" {
			payload["X-Mock-Sandbox"] = sb
		}
		subs[sb] = dialSub(t, p.base, sh.runtime, payload).ack()
		subs[sb].subscribe("u", q, nil)
	}
	n := 0
	update := func(sb string) func() {
		return func() {
			n++
			newSandboxClient(sh, sb).must(t, `mutation($n:String){ updateProduct(id:"2", input:{name:$n}) { id } }`, map[string]any{"n": fmt.Sprintf("%s-chair-%d", sb, n)})
		}
	}
	name := func(m wsMsg) string {
		var v struct {
			Data struct {
				ProductUpdated struct{ Name string }
			}
		}
		_ = json.Unmarshal(m.Payload, &v)
		return v.Data.ProductUpdated.Name
	}
	// Each subscription's first event is one of its own, though the
	// others' mutations ran while it started.
	for _, sb := range []string{"a", "b", ""} {
		m := subs[sb].until(t, update(sb), 300*time.Millisecond, 30)
		if got := name(m); !strings.HasPrefix(got, sb+"-chair-") {
			t.Fatalf("subscription in %q: first event %q (%s)", sb, got, m.Payload)
		}
	}
	// All three are running now: one mutation in each, in turn, twice.
	for range 2 {
		for _, sb := range []string{"a", "b", ""} {
			update(sb)()
		}
	}
	for _, sb := range []string{"a", "b", ""} {
		for range 2 {
			got := name(wsMsg{Payload: mustJSON(subs[sb].next("u", 10*time.Second))})
			if !strings.HasPrefix(got, sb+"-chair-") {
				t.Fatalf("subscription in %q received %q", sb, got)
			}
		}
	}
}

// TestSandboxSurvivesKillNine: a sandbox's acknowledged writes are on disk
// before their answer: SIGKILL and a restart on the same data keep them,
// in the sandbox only.
func TestSandboxSurvivesKillNine(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	data, port := t.TempDir(), freePort(t)
	p := startProc(t, data, port)
	sh := newShop(t, p.server, "sandbox-kill@example.com", "sbk")
	want, ok := sandboxWork(t, newSandboxClient(sh, "kept"), 3)
	if !ok {
		t.FailNow()
	}
	p.kill()
	p = startProc(t, data, port)
	sh.s = p.server
	if names, _, _ := newSandboxClient(sh, "kept").productNames(t); !equal(names, want) {
		t.Fatalf("after kill -9: %v, want %v", names, want)
	}
	if names, _, _ := newSandboxClient(sh, "").productNames(t); !equal(names, baseNames) {
		t.Fatalf("without the header after kill -9: %v", names)
	}
	if list := sandboxList(t, sh); list["kept"] != 6 {
		t.Fatalf("sandboxes after kill -9: %v", list)
	}
}
