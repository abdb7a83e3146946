package actors

import (
	"sync/atomic"
	"time"
)

// workers runs functions on goroutines that outlive them. A runtime
// request handed over by another node runs deep (checks, executor, row
// writers); on a fresh goroutine its stack grows from the initial few KB
// by copying, several times per request, which profiles showed at a tenth
// of the owning node's CPU. A worker keeps its grown stack for the next
// request. There is no bound: when every worker is busy a new one starts,
// and a worker idle for workerIdle exits.
type workers struct {
	tasks chan func()
	n     atomic.Int32
}

// workerIdle is how long an idle worker waits for the next task.
const workerIdle = 10 * time.Second

func newWorkers() *workers { return &workers{tasks: make(chan func())} }

// run runs f on an idle worker, or on a new one.
func (w *workers) run(f func()) {
	select {
	case w.tasks <- f:
	default:
		w.n.Add(1)
		go w.loop(f)
	}
}

func (w *workers) loop(f func()) {
	defer w.n.Add(-1)
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		f()
		idle.Reset(workerIdle)
		select {
		case f = <-w.tasks:
		case <-idle.C:
			return
		}
	}
}
