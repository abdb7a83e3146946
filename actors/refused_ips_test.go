package actors

import (
	"fmt"
	"testing"
	"time"
)

// TestRefusedIPs: a refusal is remembered until just before its window
// ends (Retry-After is rounded up), never past it, and expired entries
// give way when many addresses are remembered.
func TestRefusedIPs(t *testing.T) {
	var r refusedIPs
	now := time.Date(2026, 11, 22, 12, 0, 20, 500e6, time.UTC) // the window ends at 12:01:00
	r.note("203.0.113.7", now, 40)                             // 39.5 s left, rounded up
	for _, tc := range []struct {
		after time.Duration
		want  int
	}{{0, 39}, {10 * time.Second, 29}, {38*time.Second + 900*time.Millisecond, 1}, {39 * time.Second, 0}, {40 * time.Second, 0}} {
		if got := r.check("203.0.113.7", now.Add(tc.after)); got != tc.want {
			t.Errorf("%v later: wait %d s, want %d", tc.after, got, tc.want)
		}
	}
	if got := r.check("198.51.100.1", now); got != 0 {
		t.Errorf("an address never refused waits %d s", got)
	}
	r.note("198.51.100.1", now, 1) // its window ends within a second: not worth remembering
	if got := r.check("198.51.100.1", now); got != 0 {
		t.Errorf("a refusal in the window's last second was remembered (%d s)", got)
	}
	for i := range 5000 {
		r.note(fmt.Sprintf("10.0.%d.%d", i/256, i%256), now, 30)
	}
	r.note("192.0.2.1", now.Add(time.Minute), 30) // the others' windows have ended: they go
	if len(r.m) > 4097 {
		t.Errorf("%d addresses remembered after their windows ended", len(r.m))
	}
}
