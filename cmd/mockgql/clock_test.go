package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The servers of a test see the real time plus an offset of the test's
// own (testClock): a test that must not straddle a minute's edge moves
// its servers' clock past the edge (clearOfWindowEdge) instead of
// sleeping until it. In-process nodes read the offset directly; a node
// process (startProc) follows a file of the test's (followClock) and
// acknowledges each change, so the test goes on only once every live
// process of it has moved.

// testClock is the real time plus an offset that only moves forward.
// Safe for concurrent use.
type testClock struct{ off atomic.Int64 }

// Now implements actors.Clock.
func (c *testClock) Now() time.Time { return time.Now().Add(c.offset()) }

func (c *testClock) offset() time.Duration { return time.Duration(c.off.Load()) }

// clocks holds each top-level test's clock, its file for node processes
// and the processes that follow it.
var clocks struct {
	sync.Mutex
	byTest map[string]*testClock
	gen    map[string]int64 // the last generation written to a test's file
	dir    string           // the files; TestMain removes it
	procs  map[string][]*proc
}

// topTest is the name of t's top-level test: its subtests share its clock.
func topTest(t testing.TB) string {
	name, _, _ := strings.Cut(t.Name(), "/")
	return name
}

// clockOf returns the clock of t's top-level test.
func clockOf(t testing.TB) *testClock {
	clocks.Lock()
	defer clocks.Unlock()
	if clocks.byTest == nil {
		clocks.byTest, clocks.gen, clocks.procs = map[string]*testClock{}, map[string]int64{}, map[string][]*proc{}
	}
	c := clocks.byTest[topTest(t)]
	if c == nil {
		c = &testClock{}
		clocks.byTest[topTest(t)] = c
	}
	return c
}

// testNow is the time the servers of t see.
func testNow(t testing.TB) time.Time { return clockOf(t).Now() }

// clockOffset is how far the servers of t are ahead of the real time.
func clockOffset(t testing.TB) time.Duration { return clockOf(t).offset() }

// clockFile returns the file a node process of t follows, written with
// the clock's current offset.
func clockFile(t testing.TB) string {
	t.Helper()
	c := clockOf(t)
	clocks.Lock()
	defer clocks.Unlock()
	if clocks.dir == "" {
		dir, err := os.MkdirTemp("", "mgq-clocks-")
		if err != nil {
			t.Fatal(err)
		}
		clocks.dir = dir
	}
	name := topTest(t)
	path := filepath.Join(clocks.dir, name)
	writeClock(t, path, clocks.gen[name], c.offset())
	return path
}

// followedBy registers a started node process of t: advance waits for it.
func followedBy(t testing.TB, p *proc) {
	clockOf(t)
	clocks.Lock()
	defer clocks.Unlock()
	clocks.procs[topTest(t)] = append(clocks.procs[topTest(t)], p)
}

// removeClocks deletes the clock files (TestMain, after the tests).
func removeClocks() {
	clocks.Lock()
	defer clocks.Unlock()
	if clocks.dir != "" {
		_ = os.RemoveAll(clocks.dir)
	}
}

// writeClock replaces a clock file at once (rename): "generation offset".
func writeClock(t testing.TB, path string, gen int64, off time.Duration) {
	t.Helper()
	tmp := fmt.Sprintf("%s.tmp", path)
	if err := os.WriteFile(tmp, fmt.Appendf(nil, "%d %d\n", gen, int64(off)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// advance moves t's clock forward by d, and every live node process of
// t with it; it fails the test if one does not follow within 20 seconds.
func advance(t testing.TB, d time.Duration) {
	t.Helper()
	c := clockOf(t)
	clocks.Lock()
	name := topTest(t)
	off := time.Duration(c.off.Add(int64(d)))
	clocks.gen[name]++
	gen, procs := clocks.gen[name], clocks.procs[name]
	dir := clocks.dir
	clocks.Unlock()
	if dir == "" || len(procs) == 0 {
		return
	}
	path := filepath.Join(dir, name)
	writeClock(t, path, gen, off)
	deadline := time.Now().Add(20 * time.Second)
	for _, p := range procs {
		for !followed(path, p, gen) {
			if time.Now().After(deadline) {
				t.Fatalf("node process %d did not take the test clock's move by %s", p.cmd.Process.Pid, d)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// followed tells whether p acknowledged generation gen of the clock
// file, or cannot (it exited, was killed or is stopped).
func followed(path string, p *proc, gen int64) bool {
	pid := p.cmd.Process.Pid
	if b, err := os.ReadFile(fmt.Sprintf("%s.%d", path, pid)); err == nil {
		if got, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && got >= gen {
			return true
		}
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true // gone
	}
	_, after, _ := strings.Cut(string(stat), ") ")
	return after == "" || strings.ContainsAny(after[:1], "ZXTt")
}

// followClock is the clock of a node process: the offset in the file at
// path, read at once and then every 5 ms; each new generation is
// acknowledged in path.<pid>.
func followClock(path string) (*testClock, error) {
	c := &testClock{}
	gen, err := readClock(path, c)
	if err != nil {
		return nil, err
	}
	ack := fmt.Sprintf("%s.%d", path, os.Getpid())
	if err := os.WriteFile(ack, fmt.Appendf(nil, "%d\n", gen), 0o600); err != nil {
		return nil, err
	}
	go func() {
		for {
			time.Sleep(5 * time.Millisecond)
			if g, err := readClock(path, c); err == nil && g != gen {
				gen = g
				_ = os.WriteFile(ack+".tmp", fmt.Appendf(nil, "%d\n", gen), 0o600)
				_ = os.Rename(ack+".tmp", ack)
			}
		}
	}()
	return c, nil
}

// readClock sets c's offset from the file and returns its generation.
func readClock(path string, c *testClock) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	var gen, off int64
	if _, err := fmt.Sscan(string(b), &gen, &off); err != nil {
		return 0, fmt.Errorf("clock file %s: %w", path, err)
	}
	c.off.Store(off)
	return gen, nil
}

// childSettings are the tests' settings of a node process (TestMain's
// child): the test clock of MGQ_TEST_CLOCK and the tests' bcrypt cost.
func childSettings(c *serveConfig) {
	c.bcryptCost = 4
	if path := os.Getenv("MGQ_TEST_CLOCK"); path != "" {
		clock, err := followClock(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "test clock:", err)
			os.Exit(1)
		}
		c.clock = clock
	}
}

// TestWindowEdgeMovesClock: clearOfWindowEdge moves the servers of the
// test, in-process and node processes alike, to the start of the next
// minute window instead of sleeping until it: right after it, an IP
// window full after two requests says to retry in about a minute.
func TestWindowEdgeMovesClock(t *testing.T) {
	tests := []struct {
		name  string
		start func(t *testing.T) *server
	}{
		{"in-process", func(t *testing.T) *server {
			return startServer(t, func(c *serveConfig) { c.IPLimit = 2 })
		}},
		{"node process", func(t *testing.T) *server {
			return startProc(t, t.TempDir(), freePort(t), "--ip-limit 2").server
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.start(t)
			before := clockOffset(t)
			clearOfWindowEdge(t, time.Minute, time.Minute)
			if clockOffset(t) <= before {
				t.Fatalf("the clock did not move: offset %s, before %s", clockOffset(t), before)
			}
			q := []byte(`{"query":"{ __typename }"}`)
			for range 2 {
				s.do(http.MethodPost, "/mock/nope/graphql", q).refusal(t, 404, "PROJECT_NOT_FOUND")
			}
			r := s.do(http.MethodPost, "/mock/nope/graphql", q)
			r.refusal(t, 429, "TOO_MANY_REQUESTS")
			// The window began when the clock moved; a slow machine may
			// take a few seconds over the three requests.
			if ra, _ := strconv.Atoi(r.Header.Get("Retry-After")); ra < 40 || ra > 60 {
				t.Fatalf("Retry-After %q: the server's window did not start at the move", r.Header.Get("Retry-After"))
			}
		})
	}
}
