package actors

import (
	"testing"
	"time"
)

func TestMeterWindows(t *testing.T) {
	at := func(s string) time.Time {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	cases := []struct {
		name      string
		p         period
		limit     int64
		first     string // time of the takes that fill the window
		refused   string // a take refused at this time ...
		retry     int    // ... with this Retry-After
		nextStart string // the first take allowed again
	}{
		{"minute", perMinute, 3, "2026-11-21T10:00:05Z", "2026-11-21T10:00:40Z", 20, "2026-11-21T10:01:00Z"},
		{"day resets at 00:00 UTC", perDay, 2, "2026-11-21T08:00:00Z", "2026-11-21T23:59:30Z", 30, "2026-11-22T00:00:00Z"},
		{"month resets on the 1st", perMonth, 2, "2026-02-03T00:00:00Z", "2026-02-28T23:00:00Z", 3600, "2026-03-01T00:00:00Z"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newMeter(c.p, c.limit, meterState{})
			for i := int64(0); i < c.limit; i++ {
				if ok, _ := m.take(at(c.first)); !ok {
					t.Fatalf("take %d refused", i)
				}
			}
			ok, retry := m.take(at(c.refused))
			if ok || retry != c.retry {
				t.Fatalf("over the limit: ok=%v retry=%d, want refused with %d", ok, retry, c.retry)
			}
			if ok, _ := m.take(at(c.nextStart)); !ok {
				t.Fatal("the next window did not start")
			}
			n, limit, _, _ := m.usage(at(c.nextStart))
			if n != 1 || limit != c.limit {
				t.Fatalf("usage %d/%d", n, limit)
			}
		})
	}
}

func TestMeterCheckpointRestores(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	m := newMeter(perDay, 5, meterState{})
	for i := 0; i < 3; i++ {
		m.take(now)
	}
	st, dirty := m.checkpoint()
	if !dirty || st.Count != 3 {
		t.Fatalf("checkpoint %+v dirty=%v", st, dirty)
	}
	if _, dirty := m.checkpoint(); dirty {
		t.Fatal("a second checkpoint without takes is dirty")
	}
	r := newMeter(perDay, 5, st)
	for i := 0; i < 2; i++ {
		if ok, _ := r.take(now.Add(time.Hour)); !ok {
			t.Fatal("restored meter refused early")
		}
	}
	if ok, _ := r.take(now.Add(time.Hour)); ok {
		t.Fatal("restored meter forgot its count")
	}
	// Restored the next day, the old count no longer applies.
	if ok, _ := newMeter(perDay, 5, st).take(now.Add(24 * time.Hour)); !ok {
		t.Fatal("yesterday's count applied today")
	}
}

func TestLeases(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	l := newLeases(15*time.Minute, nil, now)
	for i, h := range []string{"a", "b"} {
		if ok, cur, _ := l.acquire(h, 2, now.Add(time.Duration(i)*time.Minute)); !ok || cur != i+1 {
			t.Fatalf("acquire %s: ok=%v cur=%d", h, ok, cur)
		}
	}
	ok, cur, retry := l.acquire("c", 2, now.Add(5*time.Minute))
	if ok || cur != 2 || retry != 10*60 {
		t.Fatalf("full: ok=%v cur=%d retry=%d (want 600: a frees at 12:15)", ok, cur, retry)
	}
	if err := l.touch("a", now.Add(14*time.Minute)); err != nil {
		t.Fatal(err)
	}
	// a was touched at 12:14, so b (12:01) frees first, at 12:16.
	if ok, _, retry := l.acquire("c", 2, now.Add(15*time.Minute)); ok || retry != 60 {
		t.Fatalf("after touch: ok=%v retry=%d", ok, retry)
	}
	if ok, _, _ := l.acquire("c", 2, now.Add(16*time.Minute)); !ok {
		t.Fatal("idle slot was not freed")
	}
	if err := l.touch("b", now.Add(16*time.Minute)); err == nil {
		t.Fatal("expired token still works")
	}
	if !l.release("c") || l.release("c") || l.live(now.Add(16*time.Minute)) != 1 {
		t.Fatal("release")
	}
	// Restored leases count as used at restore time: never freed early.
	saved, _ := l.list()
	r := newLeases(15*time.Minute, saved, now.Add(20*time.Minute))
	if r.live(now.Add(34*time.Minute)) != 1 || r.live(now.Add(35*time.Minute)) != 0 {
		t.Fatal("restored lease expiry")
	}
}

func TestCheckActorToken(t *testing.T) {
	good := actorTokenPrefix + "kABC_" + "0123456789abcdef0123456789ABCDEF"
	cases := []struct {
		name, token, key string
		ok               bool
	}{
		{"good", good, "kABC", true},
		{"other key", good, "kXYZ", false},
		{"no prefix", "xyz", "kABC", false},
		{"short secret", actorTokenPrefix + "kABC_0123", "kABC", false},
		{"empty", "", "kABC", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := checkActorToken(c.token, c.key); (err == nil) != c.ok {
				t.Fatalf("err=%v", err)
			}
		})
	}
}
