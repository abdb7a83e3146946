package main

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestClusterSandboxFailover: a sandbox's writes are acknowledged writes.
// Workers write in their own sandboxes through the two nodes that do not
// hold the project's grain while that node is SIGKILLed; every write
// acknowledged is then in its sandbox on both survivors and, once the
// dead node is back, on it too, and requests without the header see none
// of them.
func TestClusterSandboxFailover(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	if testing.Short() {
		t.Skip("starts and kills three processes")
	}
	tr := startTrio(t)
	before := tr.projectActivations(t)
	sh := newShop(t, tr.procs[0].server, "sandbox-cluster@example.com", "sbc")
	owner := risen(t, "the project", before, tr.projectActivations(t))

	const workers = 4
	var mu sync.Mutex
	acked := map[string][]string{} // sandbox → names acknowledged
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sb := fmt.Sprintf("kill-%d", w)
			c := newSandboxClient(sh.on(tr.procs[(owner+1+w%2)%3].server), sb)
			c.c.Timeout = 10 * time.Second
			for i := 0; !stop.Load(); i++ {
				name := fmt.Sprintf("%s-%d", sb, i)
				r, err := c.post(`mutation($n:String){ createProduct(input:{name:$n}) { id } }`, map[string]any{"n": name})
				switch {
				case err != nil:
				case r.Status == 200 && r.JSON["errors"] == nil:
					mu.Lock()
					acked[sb] = append(acked[sb], name)
					mu.Unlock()
				case r.Status == 503:
					time.Sleep(50 * time.Millisecond)
				default:
					t.Errorf("sandbox %s: %d %s", sb, r.Status, r.Raw)
					return
				}
			}
		}()
	}
	time.Sleep(700 * time.Millisecond)
	tr.killAndWait(t, owner)
	time.Sleep(1500 * time.Millisecond) // failover under load
	stop.Store(true)
	wg.Wait()
	for w := range workers {
		if len(acked[fmt.Sprintf("kill-%d", w)]) == 0 {
			t.Fatalf("sandbox kill-%d: no write acknowledged", w)
		}
	}

	check := func(node int) {
		t.Helper()
		for sb, names := range acked {
			c := newSandboxClient(sh.on(tr.procs[node].server), sb)
			var have map[string]bool
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Millisecond) {
				got, _, ok := c.productNames(t)
				if ok {
					have = map[string]bool{}
					for _, n := range got {
						have[n] = true
					}
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("node %d: sandbox %s unreadable", node+1, sb)
				}
			}
			for _, n := range names {
				if !have[n] {
					t.Fatalf("node %d: sandbox %s lost the acknowledged write %s (%d acknowledged, %d rows)", node+1, sb, n, len(names), len(have))
				}
			}
			for other, names := range acked {
				if other != sb && have[names[0]] {
					t.Fatalf("node %d: sandbox %s shows %s of sandbox %s", node+1, sb, names[0], other)
				}
			}
		}
		if names, total, ok := newSandboxClient(sh.on(tr.procs[node].server), "").productNames(t); !ok || total != 4 || !equal(names, baseNames) {
			t.Fatalf("node %d without the header: %d %v", node+1, total, names)
		}
	}
	for i := range 3 {
		if i != owner {
			check(i)
		}
	}
	tr.start(owner)
	tr.waitMembers(3)
	for i := range 3 {
		check(i)
	}
	n := 0
	for _, names := range acked {
		n += len(names)
	}
	t.Logf("%d writes in %d sandboxes acknowledged while node %d died; all in their sandboxes on every node", n, workers, owner+1)
}
