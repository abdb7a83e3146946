package persistence

import (
	"sync"

	bolt "go.etcd.io/bbolt"
)

// Group commit: transactions of concurrent writers that arrive while a
// commit is under way are run together in the next one, one bbolt commit
// (two fdatasyncs) for all of them. A writer alone is committed at once,
// so it waits no longer than with its own transaction.
//
// Each function runs inside the shared transaction after the ones queued
// before it, seeing their writes, as it would have in transactions of its
// own committed in that order. A function that fails undoes the whole
// transaction; the others then run again without it, and it runs alone to
// get its own answer, so functions must compute everything from the
// transaction (they may run more than once) and keep no state of a run
// that failed.

type groupJob struct {
	fn   func(*bolt.Tx) error
	err  error
	done chan struct{} // closed once committed or failed
	lead chan struct{} // the previous committer hands the next commit to it
}

type grouper struct {
	mu      sync.Mutex
	queue   []*groupJob
	leading bool // a writer is committing, or handing over to the queue's first
	commits int  // bbolt commits made through the group (for tests)
}

// updateGrouped runs fn in a transaction shared with the writers that
// queue while another batch commits; it returns once that transaction is
// durable (nil) or failed. The writer whose job is first in the queue
// commits the next batch and hands the one after to the first writer
// queued meanwhile, so no writer commits for others past its own batch.
func (db *DB) updateGrouped(fn func(*bolt.Tx) error) error {
	j := &groupJob{fn: fn, done: make(chan struct{}), lead: make(chan struct{}, 1)}
	g := &db.group
	g.mu.Lock()
	g.queue = append(g.queue, j)
	if g.leading {
		g.mu.Unlock()
		select {
		case <-j.done:
			return j.err
		case <-j.lead: // first in the queue: commit it
		}
		g.mu.Lock()
	}
	g.leading = true
	batch := g.queue
	g.queue = nil
	g.mu.Unlock()
	db.commitBatch(batch)
	g.mu.Lock()
	if len(g.queue) > 0 {
		g.queue[0].lead <- struct{}{}
	} else {
		g.leading = false
	}
	g.mu.Unlock()
	<-j.done
	return j.err
}

// commitBatch commits the jobs in one transaction; when that fails, each
// job runs in a transaction of its own, so that one job's failure (its
// function's error) is not the others'.
func (db *DB) commitBatch(batch []*groupJob) {
	if len(batch) > 1 {
		err := db.update(func(tx *bolt.Tx) error {
			for _, j := range batch {
				if err := j.fn(tx); err != nil {
					return err
				}
			}
			return nil
		})
		db.group.count()
		if err == nil {
			for _, j := range batch {
				close(j.done)
			}
			return
		}
	}
	for _, j := range batch {
		j.err = db.update(j.fn)
		db.group.count()
		close(j.done)
	}
}

func (g *grouper) count() {
	g.mu.Lock()
	g.commits++
	g.mu.Unlock()
}

// commits is how many bbolt commits the group made (tests).
func (db *DB) commits() int {
	db.group.mu.Lock()
	defer db.group.mu.Unlock()
	return db.group.commits
}
