package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mockgql/mockgql/persistence"
)

// trio is a three-process cluster on loopback, each node with its own data
// folder, HTTP port and memberlist port; every node joins the other two.
type trio struct {
	t     *testing.T
	data  [3]string
	http  [3]int
	ml    [3]int
	procs [3]*proc
	extra string // more flags for every node
}

// clusterJWTSecret is shared by the nodes, as in any real cluster, so a
// login on one node is valid on the others.
const clusterJWTSecret = "trio-secret-0123456789abcdef0123456789"

func startTrio(t *testing.T, extra ...string) *trio {
	tr := &trio{t: t, extra: strings.Join(extra, " ")}
	for i := range 3 {
		tr.data[i], tr.http[i], tr.ml[i] = t.TempDir(), freePort(t), freePort(t)
	}
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() { defer wg.Done(); tr.start(i) }()
	}
	wg.Wait()
	tr.waitMembers(3)
	return tr
}

// start runs node i (again).
func (tr *trio) start(i int) {
	var join []string
	for j := range 3 {
		if j != i {
			join = append(join, fmt.Sprintf("127.0.0.1:%d", tr.ml[j]))
		}
	}
	tr.procs[i] = startProc(tr.t, tr.data[i], tr.http[i], fmt.Sprintf("--node n%d --cluster-bind 127.0.0.1:%d --join %s --sweep-every 1h --pool-curators "+poolCurator+" --jwt-secret %s %s",
		i+1, tr.ml[i], strings.Join(join, ","), clusterJWTSecret, tr.extra))
}

// waitMembers waits until every running node sees n members.
func (tr *trio) waitMembers(n int) {
	deadline := time.Now().Add(20 * time.Second)
	for _, p := range tr.procs {
		if p == nil {
			continue
		}
		for {
			r, err := p.try("GET", "/readyz", nil)
			if err == nil && r.JSON["members"] == float64(n) {
				break
			}
			if time.Now().After(deadline) {
				tr.t.Fatalf("node at %s does not see %d members: %v %s", p.base, n, err, r.Raw)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// on returns the shop fixture bound to node i.
func (sh *shop) on(s *server) *shop {
	c := *sh
	c.s = s
	return &c
}

func TestClusterReplicationAndFailover(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	if testing.Short() {
		t.Skip("starts and kills three processes")
	}
	// Actor-token issue unbounded: the slot tests ask many times a minute.
	tr := startTrio(t, "--quota-starter 40", "--actor-issue-limit 100000")
	sh := newShop(t, tr.procs[0].server, "cluster@example.com", "cl")
	q := `query($p:Int){ products(page:$p, pageSize: 1000) { total items { name } } }`

	t.Run("write on one node, read on the others", func(t *testing.T) {
		sh.on(tr.procs[1].server).query(`mutation { createProduct(input: {name: "from-b"}) { id } }`, nil).data(t)
		for i := range 3 {
			d := sh.on(tr.procs[i].server).query(q, map[string]any{"p": 1}).data(t)
			if get(d, "products", "total") != 5.0 || !strings.Contains(fmt.Sprint(d), "from-b") {
				t.Fatalf("node %d: %v", i+1, d)
			}
		}
	})

	// Keys are cached on the node of the project's grain; a revocation
	// through any node must still stop the key everywhere before it is
	// acknowledged.
	t.Run("revocation reaches every node at once", func(t *testing.T) {
		body := []byte(`{"query":"{ products { total } }"}`)
		for n := range 3 { // three keys: whatever nodes their grains land on, most are not the project's node
			d := sh.owner.on(tr.procs[n].server).must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"short", scope: RUNTIME) { key { id } value } }`,
				map[string]any{"p": sh.project["id"]})
			key, id := get(d, "createApiKey", "value").(string), get(d, "createApiKey", "key", "id").(string)
			for i := range 3 { // every node has served it, so the project's node has it cached
				tr.procs[i].do("POST", sh.runtime, body, "X-API-Key", key).data(t)
			}
			sh.owner.on(tr.procs[(n+1)%3].server).must(`mutation($k:ID!){ revokeApiKey(keyId:$k) { revoked } }`, map[string]any{"k": id})
			for i := range 3 {
				tr.procs[i].do("POST", sh.runtime, body, "X-API-Key", key).refusal(t, 401, "API_KEY_INVALID")
			}
		}
	})

	for victim := range 3 {
		t.Run(fmt.Sprintf("kill node %d under load", victim+1), func(t *testing.T) {
			acked := tr.loadWhile(t, sh, victim, func() {
				killed := tr.killAndWait(t, victim)
				t.Logf("both survivors noticed node %d's death %v after the kill, under load", victim+1, time.Since(killed).Round(10*time.Millisecond))
				time.Sleep(1500 * time.Millisecond) // failover under load
			})
			tr.start(victim)
			tr.waitMembers(3)
			for i := range 3 {
				have := allNames(t, sh.on(tr.procs[i].server), q)
				var lost []string
				for _, n := range acked {
					if !have[n] {
						lost = append(lost, n)
					}
				}
				if len(lost) > 0 {
					for j := range 3 {
						h := allNames(t, sh.on(tr.procs[j].server), q)
						t.Logf("node %d has %d of the lost, %d rows", j+1, countIn(h, lost), len(h))
					}
					time.Sleep(3 * time.Second)
					again := allNames(t, sh.on(tr.procs[i].server), q)
					t.Fatalf("node %d lost %d acknowledged writes (%d acked), e.g. %v; 3 s later it has %d of them", i+1, len(lost), len(acked), lost[:min(3, len(lost))], countIn(again, lost))
				}
			}
			t.Logf("%d writes acknowledged while node %d died; all present on every node after it rejoined", len(acked), victim+1)
		})
	}

	// Slots are checked while a node dies, not only after: clients take
	// and release slots through all three nodes while one is SIGKILLed.
	// What the clients hold — from a grant's 200 until its release is
	// sent (releases go through a survivor) — never exceeds maxActors; a
	// grant the dying node made without answering only makes the real
	// count higher, so it can only make the node refuse sooner.
	t.Run("actor slots stay strict while a node dies", func(t *testing.T) {
		d := sh.owner.on(tr.procs[0].server).must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"during", scope: RUNTIME, maxActors: 4) { value } }`,
			map[string]any{"p": sh.project["id"]})
		key := get(d, "createApiKey", "value").(string)
		const victim = 1
		survivor := tr.procs[(victim+1)%3]
		var held, most, granted, released, refused, unavailable, dropped atomic.Int32
		var stop atomic.Bool
		var wg sync.WaitGroup
		for w := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				node := tr.procs[w%3]
				for !stop.Load() {
					time.Sleep(20 * time.Millisecond)
					r, err := node.try("POST", "/runtime/actors", nil, "X-API-Key", key)
					switch {
					case err != nil:
						dropped.Add(1)
						if w%3 != victim {
							t.Errorf("node %d, a survivor, dropped the connection: %v", w%3+1, err)
							return
						}
						continue
					case r.Status == 429:
						refused.Add(1)
						continue
					case r.Status == 503:
						unavailable.Add(1)
						continue
					case r.Status != 200:
						t.Errorf("node %d answered %d %s", w%3+1, r.Status, r.Raw)
						return
					}
					granted.Add(1)
					// The highest count, by compare-and-swap: a load then a
					// store could let a lower count overwrite a higher one.
					for h := held.Add(1); ; {
						if m := most.Load(); h <= m || most.CompareAndSwap(m, h) {
							break
						}
					}
					tok, _ := r.JSON["actorToken"].(string)
					time.Sleep(30 * time.Millisecond)
					// The slot stops counting as held when its release is sent:
					// the server frees it at or after that moment, so the clients'
					// count never exceeds what the server holds. Counting it until
					// the release's answer arrived counted a slot the server had
					// already freed and granted to another client (5 "held" with
					// a server holding 4, seen once under load).
					held.Add(-1)
					for !stop.Load() { // retried through a survivor until it says so
						rr, err := survivor.try("DELETE", "/runtime/actors", nil, "X-API-Key", key, "X-Actor-Token", tok)
						if err == nil && rr.Status == 200 {
							released.Add(1)
							break
						}
						time.Sleep(50 * time.Millisecond)
					}
				}
			}()
		}
		time.Sleep(300 * time.Millisecond)
		tr.killAndWait(t, victim)
		time.Sleep(1500 * time.Millisecond) // grants and releases go on through the failover
		stop.Store(true)
		wg.Wait()
		t.Logf("while node %d died: %d granted, %d released, at most %d held at once, %d refused, %d 503, %d dropped connections",
			victim+1, granted.Load(), released.Load(), most.Load(), refused.Load(), unavailable.Load(), dropped.Load())
		if m := most.Load(); m > 4 {
			t.Fatalf("clients held %d actor slots at once while a node died; maxActors is 4", m)
		}
		if granted.Load() <= 4 || released.Load() == 0 {
			t.Fatalf("too little churn to test: %d granted, %d released", granted.Load(), released.Load())
		}
		tr.start(victim)
		tr.waitMembers(3)
	})

	t.Run("two of three down: the survivor refuses writes, nothing is lost", func(t *testing.T) {
		tr.procs[1].kill()
		tr.procs[2].kill()
		tr.procs[1], tr.procs[2] = nil, nil
		time.Sleep(3 * time.Second)
		r := sh.on(tr.procs[0].server).query(`mutation { createProduct(input: {name: "alone"}) { id } }`, nil)
		if r.Status != 503 && r.errCode() != "UNAVAILABLE" {
			t.Fatalf("a lone survivor acknowledged a write: %d %s", r.Status, r.Raw)
		}
		tr.start(1)
		tr.waitMembers(2)
		deadline := time.Now().Add(10 * time.Second)
		for {
			r := sh.on(tr.procs[0].server).query(`mutation { createProduct(input: {name: "back"}) { id } }`, nil)
			if r.Status == 200 && r.JSON["errors"] == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("writes did not resume with two nodes: %d %s", r.Status, r.Raw)
			}
			time.Sleep(200 * time.Millisecond)
		}
		tr.start(2)
		tr.waitMembers(3)
	})

	t.Run("actor slots stay strict across nodes", func(t *testing.T) {
		d := sh.owner.on(tr.procs[0].server).must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"cap", scope: RUNTIME, maxActors: 4) { value } }`,
			map[string]any{"p": sh.project["id"]})
		key := get(d, "createApiKey", "value").(string)
		var granted atomic.Int32
		var wg sync.WaitGroup
		for i := range 60 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := tr.procs[i%3].try("POST", "/runtime/actors", nil, "X-API-Key", key)
				if err == nil && r.Status == 200 {
					granted.Add(1)
				}
			}()
		}
		wg.Wait()
		if g := granted.Load(); g != 4 {
			t.Fatalf("granted %d actor slots across nodes, maxActors is 4", g)
		}
	})

	// The node of the project's grain spends quota it leased from the
	// account's grain: requests through all nodes together still get
	// exactly the plan's quota, and usage reports it.
	t.Run("plan quota is exact across nodes", func(t *testing.T) {
		clearOfWindowEdge(t, 24*time.Hour, time.Minute)
		owner := sh.owner.on(tr.procs[1].server)
		owner.must(`mutation { setPlan(plan: STARTER) { plan } }`, nil)
		time.Sleep(1100 * time.Millisecond) // leases taken under the old plan run out (leaseTTL)
		body := []byte(`{"query":"{ products { total } }"}`)
		var ok, refused atomic.Int32
		var wg sync.WaitGroup
		for i := range 60 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := tr.procs[i%3].try("POST", sh.runtime, body, "X-API-Key", sh.fullKey)
				switch {
				case err != nil:
					t.Errorf("request: %v", err)
				case r.Status == 200:
					ok.Add(1)
				case r.Status == 429 && r.JSON["code"] == "TOO_MANY_REQUESTS":
					refused.Add(1)
				default:
					t.Errorf("unexpected %d %s", r.Status, r.Raw)
				}
			}()
		}
		wg.Wait()
		if ok.Load() != 40 || refused.Load() != 20 {
			t.Fatalf("%d served, %d refused; the STARTER quota is 40", ok.Load(), refused.Load())
		}
		u := owner.must(`{ account { usage { requests quota } } }`, nil)
		if got := fmt.Sprint(get(u, "account", "usage")); got != "map[quota:40 requests:40]" {
			t.Fatalf("usage %s", got)
		}
	})
}

// loadWhile runs writers against the nodes other than victim while during
// runs, and returns the names of the acknowledged writes.
func (tr *trio) loadWhile(t *testing.T, sh *shop, victim int, during func()) []string {
	var mu sync.Mutex
	var acked []string
	var stop atomic.Bool
	var wg sync.WaitGroup
	var n503 atomic.Int32
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			node := tr.procs[(victim+1+w%2)%3]
			for i := 0; !stop.Load(); i++ {
				name := fmt.Sprintf("v%d-w%d-%d", victim, w, i)
				body, _ := json.Marshal(map[string]any{"query": `mutation($n:String){ createProduct(input:{name:$n}) { id } }`, "variables": map[string]any{"n": name}})
				r, err := node.try("POST", sh.runtime, body, "X-API-Key", sh.fullKey)
				switch {
				case err != nil:
				case r.Status == 200 && r.JSON["errors"] == nil:
					mu.Lock()
					acked = append(acked, name)
					mu.Unlock()
				case r.Status == 503:
					n503.Add(1)
					time.Sleep(50 * time.Millisecond)
				default:
					t.Errorf("unexpected answer %d %s", r.Status, r.Raw)
					return
				}
			}
		}()
	}
	time.Sleep(300 * time.Millisecond)
	during()
	time.Sleep(500 * time.Millisecond)
	stop.Store(true)
	wg.Wait()
	t.Logf("%d acknowledged, %d answered 503 while ownership moved", len(acked), n503.Load())
	return acked
}

func countIn(have map[string]bool, list []string) int {
	n := 0
	for _, s := range list {
		if have[s] {
			n++
		}
	}
	return n
}

// allNames pages through every product a node serves.
func allNames(t *testing.T, sh *shop, q string) map[string]bool {
	out := map[string]bool{}
	for page := 1; ; page++ {
		r := sh.query(q, map[string]any{"p": page})
		n := names(t, r)
		for k := range n {
			out[k] = true
		}
		if len(n) < 1000 {
			return out
		}
	}
}

func names(t *testing.T, r response) map[string]bool {
	out := map[string]bool{}
	for _, it := range get(r.data(t), "products", "items").([]any) {
		out[fmt.Sprint(get(it, "name"))] = true
	}
	return out
}

// TestClusterRollingRestart restarts the three nodes one after the other
// with SIGTERM while clients write through the nodes that are up (as a load
// balancer reading /readyz would): every answer is 200 or 503, and every
// acknowledged write is there at the end. Connection errors and 200s with
// errors are counted and checked, not skipped: only the node being
// restarted may drop a connection, and a 200 with errors may only be a
// retryable UNAVAILABLE.
func TestClusterRollingRestart(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	if testing.Short() {
		t.Skip("starts and restarts three processes")
	}
	tr := startTrio(t)
	sh := newShop(t, tr.procs[0].server, "rolling@example.com", "ro")
	var down atomic.Int32
	down.Store(-1)
	var mu sync.Mutex
	var acked []string
	var stop atomic.Bool
	var wg sync.WaitGroup
	counts := map[string]int{}
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				n := (w + i) % 3
				if int(down.Load()) == n {
					continue
				}
				name := fmt.Sprintf("r-w%d-%d", w, i)
				body, _ := json.Marshal(map[string]any{"query": `mutation($n:String){ createProduct(input:{name:$n}) { id } }`, "variables": map[string]any{"n": name}})
				p := tr.procs[n]
				r, err := p.try("POST", sh.runtime, body, "X-API-Key", sh.fullKey)
				mu.Lock()
				switch {
				case err != nil:
					// Only the node being restarted may drop a connection
					// (the call began before it was marked down).
					counts["connection error"]++
					if int(down.Load()) != n {
						t.Errorf("node %d, which is up, dropped the connection: %v", n+1, err)
					}
				case r.Status == 200 && r.JSON["errors"] != nil:
					// A 200 with errors is a failed write: it may only be a
					// retryable refusal while ownership moves.
					counts["200 with errors"]++
					if code := r.errCode(); code != "UNAVAILABLE" {
						t.Errorf("node %d answered 200 with %s: %s", n+1, code, r.Raw)
					}
				case r.Status == 200:
					counts["200"]++
					acked = append(acked, name)
				default:
					counts[fmt.Sprint(r.Status)]++
					if r.Status != 503 {
						t.Errorf("node %d answered %d %s", n+1, r.Status, r.Raw)
					}
				}
				mu.Unlock()
			}
		}()
	}
	// A failed restart ends the test at once (t.Fatalf): stop the writers
	// first, so they do not report the cleanup's killing of the nodes.
	halt := func() { stop.Store(true); wg.Wait() }
	defer halt()
	for i := range 3 {
		down.Store(int32(i))
		time.Sleep(100 * time.Millisecond)
		p := tr.procs[i]
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		if err := p.cmd.Wait(); err != nil {
			t.Fatalf("node %d after SIGTERM: %v", i+1, err)
		}
		tr.start(i) // the writers skip node i until it is marked up again
		tr.waitMembers(3)
		down.Store(-1)
		time.Sleep(500 * time.Millisecond)
	}
	halt()
	q := `query($p:Int){ products(page:$p, pageSize: 1000) { total items { name } } }`
	for i := range 3 {
		have := allNames(t, sh.on(tr.procs[i].server), q)
		for _, n := range acked {
			if !have[n] {
				t.Fatalf("node %d lost acknowledged %s", i+1, n)
			}
		}
	}
	if counts["200"] == 0 || counts["200"] < 10*(counts["connection error"]+counts["200 with errors"]+counts["503"]) {
		t.Errorf("answers: %v; want mostly 200s", counts)
	}
	t.Logf("answers: %v; %d acknowledged writes all present", counts, len(acked))
}

// TestClusterSessionExpiry: a session project expires once, completely,
// although its owner node (the one its grain is active on) dies shortly
// before its expiry: the survivors delete it
// (model, overlay, slug, the session's claim) and the dead node, back,
// holds none of it either.
func TestClusterSessionExpiry(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	if testing.Short() {
		t.Skip("starts and kills three processes")
	}
	tr := startTrio(t, "--session-ttl 6s", "--sweep-every 200ms")
	seedPool(t, tr.procs[0].server)
	before := tr.projectActivations(t)
	a := &assistant{s: tr.procs[0].server}
	sp := buildSessionModel(t, a)
	pid, slug := sp["projectId"].(string), sp["slug"].(string)
	path := strings.TrimPrefix(sp["runtimeUrl"].(string), tr.procs[0].base)
	// The node whose project grain activated is the project's owner: the
	// one to kill (a random node may hold only a replica).
	owner, after := -1, tr.projectActivations(t)
	for i := range 3 {
		if after[i] > before[i] {
			if owner >= 0 {
				t.Fatalf("the project activated on nodes %d and %d", owner+1, i+1)
			}
			owner = i
		}
	}
	if owner < 0 {
		t.Fatalf("no node activated the project (activations %v → %v)", before, after)
	}
	others := []int{(owner + 1) % 3, (owner + 2) % 3}
	body := []byte(`{"query":"mutation { createProduct(input: {name: \"doomed\"}) { id } }"}`)
	tr.procs[owner].do("POST", path, body).data(t)
	tr.procs[owner].kill()
	tr.procs[owner] = nil
	deadline := time.Now().Add(30 * time.Second)
	for _, i := range others {
		for {
			r := tr.procs[i].do("POST", path, []byte(`{"query":"{ products { total } }"}`))
			if r.Status == 404 && r.JSON["code"] == "PROJECT_NOT_FOUND" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("node %d still serves the expired project: %d %s", i+1, r.Status, r.Raw)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	// The session's claim was released: it may start a new project.
	a.s = tr.procs[others[1]].server
	for {
		r := a.gql(`mutation { createSessionProject { projectId } }`, nil)
		if r.Status == 200 && r.JSON["errors"] == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the session is still claimed: %s", r.Raw)
		}
		time.Sleep(200 * time.Millisecond)
	}
	tr.start(owner)
	tr.waitMembers(3)
	time.Sleep(time.Second) // a few sweeps on the node that came back
	for i := range 3 {
		tr.procs[i].kill()
		db, err := persistence.Open(filepath.Join(tr.data[i], "mockgql.db"))
		if err != nil {
			t.Fatal(err)
		}
		var left []string
		for _, kind := range []string{"project", "overlay", "reply", "expiry", "slug"} {
			_ = db.Scan(kind, "", func(id string, _ []byte) error {
				if strings.Contains(id, pid) || id == slug {
					left = append(left, kind+"/"+id)
				}
				return nil
			})
		}
		db.Close()
		if len(left) > 0 {
			t.Errorf("node %d still holds %v", i+1, left)
		}
	}
}

// TestClusterIPRefusalIsRemembered: a node that does not hold a client
// IP's window remembers that the window refused the address, until the
// window ends, and refuses the next requests itself: with the window's
// node frozen (SIGSTOP), it still answers 429 at once rather than waiting
// on a call to it (503).
func TestClusterIPRefusalIsRemembered(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	if testing.Short() {
		t.Skip("starts three processes")
	}
	const limit = 3
	tr := startTrio(t, fmt.Sprintf("--ip-limit %d", limit))
	clearOfWindowEdge(t, time.Minute, 30*time.Second)
	body := []byte(`{"query":"{ __typename }"}`)
	if r, err := tr.procs[0].try("POST", "/mock/nope/graphql", body); err != nil || r.Status != 404 {
		t.Fatalf("first request: %v %d %s", err, r.Status, r.Raw)
	}
	// Every request comes from 127.0.0.1: find the node of its window.
	owner := -1
	for i, p := range tr.procs {
		r, err := p.try("GET", "/metrics", nil)
		if err == nil && strings.Contains(string(r.Raw), `mockgql_grain_activations_total{kind="ip"}`) {
			owner = i
		}
	}
	if owner < 0 {
		t.Fatal("no node holds the IP window")
	}
	x := tr.procs[(owner+1)%3]
	for n := 1; ; n++ {
		r, err := x.try("POST", "/mock/nope/graphql", body)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status == 429 {
			if n != limit { // the first request above counted too
				t.Fatalf("refused at request %d through another node, want %d", n, limit)
			}
			break
		}
		if r.Status != 404 || n > limit {
			t.Fatalf("request %d: %d %s", n, r.Status, r.Raw)
		}
	}
	frozen := tr.procs[owner].cmd.Process
	if err := frozen.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = frozen.Signal(syscall.SIGCONT) })
	for range 3 {
		r, err := x.tryWithin(4*time.Second, "POST", "/mock/nope/graphql", body)
		if err != nil || r.Status != 429 || r.JSON["code"] != "TOO_MANY_REQUESTS" || r.Header.Get("Retry-After") == "" {
			t.Fatalf("with the window's node frozen: %v %d %s", err, r.Status, r.Raw)
		}
	}
}

// projectActivations reads each running node's count of project grain
// activations from /metrics.
func (tr *trio) projectActivations(t *testing.T) [3]float64 {
	t.Helper()
	var out [3]float64
	for i, p := range tr.procs {
		if p == nil {
			continue
		}
		r := p.do("GET", "/metrics", nil)
		for _, line := range strings.Split(string(r.Raw), "\n") {
			if strings.HasPrefix(line, `mockgql_grain_activations_total{kind="project"} `) {
				fmt.Sscan(strings.TrimPrefix(line, `mockgql_grain_activations_total{kind="project"} `), &out[i])
			}
		}
	}
	return out
}

// killAndWait SIGKILLs node victim and waits (bounded) until both
// survivors count two members; it returns when the kill was sent.
func (tr *trio) killAndWait(t *testing.T, victim int) time.Time {
	t.Helper()
	tr.procs[victim].kill()
	killed := time.Now()
	for i := range 3 {
		for i != victim {
			r, err := tr.procs[i].try("GET", "/readyz", nil)
			if err == nil && r.JSON["members"] == 2.0 {
				break
			}
			if time.Since(killed) > 20*time.Second {
				t.Fatalf("node %d still counts %v members", i+1, r.JSON["members"])
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return killed
}
