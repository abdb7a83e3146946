package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestKillNineLosesNothing acknowledges writes of every kind, kills the
// process with SIGKILL in the middle of a stream of mutations, restarts it
// on the same data folder and finds every acknowledged write.
func TestKillNineLosesNothing(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	data, port := t.TempDir(), freePort(t)
	p := startProc(t, data, port)
	sh := newShop(t, p.server, "crash@example.com", "c")

	var mu sync.Mutex
	var acked []string
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				name := fmt.Sprintf("w%d-%d", w, i)
				body, _ := json.Marshal(map[string]any{"query": `mutation($n:String){ createProduct(input:{name:$n}) { id } }`, "variables": map[string]any{"n": name}})
				r, err := sh.s.try("POST", sh.runtime, body, "X-API-Key", sh.fullKey)
				if err == nil && r.Status == 200 && r.JSON["errors"] == nil {
					mu.Lock()
					acked = append(acked, name)
					mu.Unlock()
				}
			}
		}(w)
	}
	time.Sleep(700 * time.Millisecond)
	p.kill()
	stop.Store(true)
	wg.Wait()
	if len(acked) == 0 {
		t.Fatal("no mutation was acknowledged before the kill")
	}

	p = startProc(t, data, port)
	sh.s = p.server
	d := sh.query(`{ products(pageSize: 1000) { total items { name } } }`, nil).data(t)
	have := map[string]bool{}
	for _, it := range get(d, "products", "items").([]any) {
		have[fmt.Sprint(get(it, "name"))] = true
	}
	for _, n := range acked {
		if !have[n] {
			t.Fatalf("acknowledged mutation %s lost after kill -9 (%d acked, %d rows)", n, len(acked), len(have))
		}
	}
	// Model, keys, account and datasets survived too.
	u := &user{s: p.server, token: sh.owner.token}
	if got := get(u.must(`{ projects { slug tables { name ready } } }`, nil), "projects", 0, "slug"); got != sh.slug {
		t.Fatalf("project after restart: %v", got)
	}
	if d := u.must(`{ dataSources { importCode recordCount } }`, nil); len(get(d, "dataSources").([]any)) != 2 {
		t.Fatalf("datasets after restart: %v", d)
	}
	t.Logf("%d acknowledged mutations survived kill -9", len(acked))
}

// TestSIGTERMDrains checks that SIGTERM ends the process cleanly and that
// the data is there at the next start.
func TestSIGTERMDrains(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	data, port := t.TempDir(), freePort(t)
	p := startProc(t, data, port)
	sh := newShop(t, p.server, "term@example.com", "t")
	sh.query(`mutation { createProduct(input:{name:"kept"}) { id } }`, nil).data(t)
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no exit within 30s of SIGTERM")
	}
	p = startProc(t, data, port)
	sh.s = p.server
	r := sh.query(`{ products(pageSize: 100) { items { name } } }`, nil)
	if !strings.Contains(string(r.Raw), `"kept"`) {
		t.Fatalf("mutation lost across SIGTERM: %s", r.Raw)
	}
}
