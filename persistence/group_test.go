package persistence

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TestGroupCommit: replicated writes of many grains that arrive while a
// commit is under way share the next commit: 1 + 1 commits for 1 + 20
// writes, each write judged on its own (one is behind and not applied).
// Each write used to be a commit of its own.
func TestGroupCommit(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	before := db.commits()
	inside, release := make(chan struct{}), make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- db.updateGrouped(func(tx *bolt.Tx) error {
			close(inside)
			<-release // a slow commit, while the others queue
			return put(tx, Put{Kind: "apikey", ID: "first", Value: []byte("1")})
		})
	}()
	<-inside
	const n = 20
	outs := make([]WriteOutcome, n)
	errs := make([]error, n)
	var queued, done sync.WaitGroup
	for i := range n {
		queued.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			v, base := Version{Gen: 1, Seq: 1}, &Version{}
			if i == 7 {
				v, base = Version{Gen: 1, Seq: 2}, &Version{Gen: 1, Seq: 1} // made on a copy this node does not hold
			}
			queued.Done()
			outs[i], _, _, errs[i] = db.ApplyWrite(fmt.Sprintf("apikey/k%d", i), v, base, []Put{{Kind: "apikey", ID: fmt.Sprintf("k%d", i), Value: []byte("v")}})
		}()
	}
	queued.Wait()
	waitQueued(t, db, n, release)
	close(release)
	done.Wait()
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	for i := range n {
		want := WriteApplied
		if i == 7 {
			want = WriteBehind
		}
		if errs[i] != nil || outs[i] != want {
			t.Errorf("write %d: %v %v, want %v", i, outs[i], errs[i], want)
		}
		got, _ := db.Get("apikey", fmt.Sprintf("k%d", i))
		if (i == 7) != (got == nil) {
			t.Errorf("k%d = %q after outcome %v", i, got, outs[i])
		}
	}
	if c := db.commits() - before; c != 2 {
		t.Fatalf("%d commits for 1 + %d writes queued behind it, want 2", c, n)
	}
}

// TestGroupCommitFailureIsOwn: a write whose transaction fails in a shared
// commit fails alone; the others of its batch are committed.
func TestGroupCommitFailureIsOwn(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	inside, release := make(chan struct{}), make(chan struct{})
	go func() {
		_ = db.updateGrouped(func(*bolt.Tx) error { close(inside); <-release; return nil })
	}()
	<-inside
	errs := make([]error, 3)
	var done sync.WaitGroup
	for i := range 3 {
		done.Add(1)
		go func() {
			defer done.Done()
			errs[i] = db.updateGrouped(func(tx *bolt.Tx) error {
				if i == 1 {
					return fmt.Errorf("refused")
				}
				return put(tx, Put{Kind: "apikey", ID: fmt.Sprint(i), Value: []byte("v")})
			})
		}()
	}
	waitQueued(t, db, 3, release)
	close(release)
	done.Wait()
	for i, err := range errs {
		got, _ := db.Get("apikey", fmt.Sprint(i))
		if (i == 1) != (err != nil) || (i == 1) != (got == nil) {
			t.Errorf("write %d: err %v, value %q", i, err, got)
		}
	}
}

// waitQueued waits until n writers wait for the next commit; when they
// do not, it fails after closing release (the commit holding them up).
func waitQueued(t *testing.T, db *DB, n int, release chan struct{}) {
	t.Helper()
	for i := 0; ; i++ {
		db.group.mu.Lock()
		q := len(db.group.queue)
		db.group.mu.Unlock()
		if q == n {
			return
		}
		if i > 10000 {
			close(release)
			t.Fatalf("%d writers queued, want %d", q, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestGroupCommitHandsOver: a writer commits its own batch and hands the
// next one to a writer queued meanwhile, so under a steady stream of
// writes no writer keeps committing for the others. The first writer used
// to commit batches until the queue ran dry.
func TestGroupCommitHandsOver(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	inside, release := make(chan struct{}), make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- db.updateGrouped(func(*bolt.Tx) error { close(inside); <-release; return nil })
	}()
	<-inside
	slow, releaseSlow := make(chan struct{}), make(chan struct{})
	second := make(chan error, 1)
	go func() {
		second <- db.updateGrouped(func(*bolt.Tx) error {
			select {
			case <-slow:
			default:
				close(slow)
			}
			<-releaseSlow // the next batch takes long
			return nil
		})
	}()
	waitQueued(t, db, 1, release)
	close(release)
	<-slow // the second batch is being committed
	select {
	case err := <-first:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		close(releaseSlow)
		t.Fatal("the first writer is still committing the second writer's batch")
	}
	close(releaseSlow)
	if err := <-second; err != nil {
		t.Fatal(err)
	}
}
