package actors

import (
	"sync"
	"testing"
	"time"
)

// TestWorkersNeverQueue: every task starts at once however many are
// running (a busy pool starts a new worker, it never makes a task wait),
// and the workers stay for the next tasks.
func TestWorkersNeverQueue(t *testing.T) {
	w := newWorkers()
	const n = 100
	var started, done sync.WaitGroup
	release := make(chan struct{})
	started.Add(n)
	done.Add(n)
	for range n {
		w.run(func() {
			started.Done()
			<-release
			done.Done()
		})
	}
	waited := make(chan struct{})
	go func() { started.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		t.Fatal("not every task started while the others were running")
	}
	close(release)
	done.Wait()
	if got := w.n.Load(); got != n {
		t.Fatalf("%d workers after %d concurrent tasks, want %d (they stay for the next ones)", got, n, n)
	}
}
