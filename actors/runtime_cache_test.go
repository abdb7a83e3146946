package actors

import (
	"testing"
	"time"

	"github.com/mockgql/mockgql/model"
)

// Leases shrink as the limit nears and never grant past it, however the
// blocks fall; given-back units of the current window can be leased again.
func TestMeterLease(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	m := newMeter(perDay, 100, meterState{})
	var total int64
	var sizes []int64
	for {
		n, start, end, retry := m.lease(now, leaseWant)
		if n == 0 {
			if retry < 1 || !end.Equal(start.AddDate(0, 0, 1)) {
				t.Fatalf("refusal: retry %d, window %s..%s", retry, start, end)
			}
			break
		}
		total += n
		sizes = append(sizes, n)
	}
	if total != 100 || sizes[0] != 12 || sizes[len(sizes)-1] != 1 {
		t.Fatalf("leased %d in blocks %v; want 100, the first 12 (an eighth), the last 1", total, sizes)
	}
	m.giveBack(now.AddDate(0, 0, -1), 5) // yesterday's units: ignored
	if n, _, _, _ := m.lease(now, 1); n != 0 {
		t.Fatal("units of an earlier window were taken back")
	}
	m.giveBack(m.p.start(now), 5)
	if c, _, _, _ := m.usage(now); c != 95 {
		t.Fatalf("count after giving back 5: %d", c)
	}
	if n, _, _, _ := m.lease(now, leaseWant); n != 1 { // 5 left: an eighth rounds down to at least one
		t.Fatalf("lease with 5 left: %d", n)
	}
	unlimited := newMeter(perMonth, 0, meterState{})
	if n, _, _, _ := unlimited.lease(now, leaseWant); n != leaseWant {
		t.Fatalf("unlimited lease: %d", n)
	}
}

// A lease is spent only for its grain, within its TTL and window; what is
// left goes back with the next call.
func TestQuotaLease(t *testing.T) {
	now := time.Date(2026, 11, 21, 23, 59, 59, 500e6, time.UTC)
	var l quotaLease
	if l.take(kindAccount, "a", now) {
		t.Fatal("an empty lease gave a unit")
	}
	l.set(kindAccount, "a", leaseGrant{Units: 3, Start: perDay.start(now), End: perDay.end(perDay.start(now))}, now)
	if !l.until.Equal(perDay.end(perDay.start(now))) {
		t.Fatalf("until %s: a lease ends with its window when that comes first", l.until)
	}
	if !l.take(kindAccount, "a", now) || l.take(kindSession, "a", now) || l.take(kindAccount, "b", now) {
		t.Fatal("a lease must serve its own grain only")
	}
	if l.take(kindAccount, "a", now.Add(time.Second)) {
		t.Fatal("a lease was spent in the next window")
	}
	if back := l.leftover(kindAccount, "a"); back.Return != 2 || !back.ReturnStart.Equal(perDay.start(now)) {
		t.Fatalf("leftover %+v", back)
	}
	if back := l.leftover(kindAccount, "other"); back.Return != 0 {
		t.Fatalf("leftover for another grain: %+v", back)
	}
	mid := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	l.set(kindAccount, "a", leaseGrant{Units: 10, Start: perDay.start(mid), End: perDay.end(perDay.start(mid))}, mid)
	if !l.take(kindAccount, "a", mid.Add(leaseTTL-time.Millisecond)) || l.take(kindAccount, "a", mid.Add(leaseTTL)) {
		t.Fatal("a lease must be spent within leaseTTL")
	}
}

// An eviction wins over a fetch that was under way when it happened: the
// fetched record may predate the revocation.
func TestKeyCacheEviction(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	c := newKeyCache()
	k := model.APIKey{ID: "k1", ProjectID: "p1"}
	e := c.begin()
	c.put(e, "h1", k, now)
	if got, ok := c.get("h1", now.Add(keyCacheTTL-time.Second)); !ok || got.ID != "k1" {
		t.Fatal("fresh record not cached")
	}
	if _, ok := c.get("h1", now.Add(keyCacheTTL)); ok {
		t.Fatal("record served past the TTL")
	}
	stale := c.begin() // a fetch starts ...
	c.evict("h1")      // ... the key is revoked meanwhile ...
	c.put(stale, "h1", k, now)
	if _, ok := c.get("h1", now); ok {
		t.Fatal("a fetch from before the eviction was cached")
	}
	c.put(c.begin(), "h1", k, now)
	if _, ok := c.get("h1", now); !ok {
		t.Fatal("a fetch after the eviction was not cached")
	}
}
