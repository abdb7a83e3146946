package actors

import (
	"fmt"
	"testing"
)

// TestAnswerCacheBounded: the answer cache stays within its bound however
// many answers are put, evicts the ones not used since the clock hand
// passed first, and an answer stored again under its key replaces the old
// one in place (the ring does not grow).
func TestAnswerCacheBounded(t *testing.T) {
	c := newAnswerCache(64 << 10)
	entry := func(i int) *cachedAnswer {
		return &cachedAnswer{project: "p", body: []byte(fmt.Sprintf(`{"query":"{ q%d }"}`, i)), answer: make([]byte, 1000)}
	}
	for i := range 10_000 {
		c.put(entry(i))
		if c.bytes > c.max {
			t.Fatalf("after %d puts: %d bytes, bound %d", i+1, c.bytes, c.max)
		}
	}
	if len(c.m) != len(c.ring) || len(c.m) == 0 || len(c.m) > int(c.max/answerEntryCost) {
		t.Fatalf("%d entries, %d in the ring", len(c.m), len(c.ring))
	}
	// A used entry outlives unused ones.
	kept := c.ring[0]
	kept.used.Store(true)
	for i := 10_000; i < 10_000+len(c.ring)-1; i++ {
		c.put(entry(i))
	}
	if c.m[kept.hash] != kept {
		t.Fatal("a used entry was evicted before unused ones")
	}
	// The same key again: replaced in place.
	n, b := len(c.ring), c.bytes
	for range 100 {
		c.put(entry(10_000))
	}
	if len(c.ring) != n || c.bytes != b {
		t.Fatalf("stored again 100 times: ring %d → %d, bytes %d → %d", n, len(c.ring), b, c.bytes)
	}
	for i, e := range c.ring {
		if e.idx != i || c.m[e.hash] != e {
			t.Fatalf("ring slot %d holds an entry of index %d", i, e.idx)
		}
	}
}
