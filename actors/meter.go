package actors

import (
	"sync"
	"time"
)

// period is the window a meter counts in.
type period int

const (
	perMinute period = iota // fixed one-minute windows (per-IP limit, actor-token issue rate)
	perDay                  // UTC days (STARTER quota, guest and session calls)
	perMonth                // UTC calendar months (paid plans)
)

// start is the beginning of the window that contains t.
func (p period) start(t time.Time) time.Time {
	t = t.UTC()
	switch p {
	case perDay:
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	case perMonth:
		return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	}
	return t.Truncate(time.Minute)
}

// end is the beginning of the next window after the one starting at s.
func (p period) end(s time.Time) time.Time {
	switch p {
	case perDay:
		return s.AddDate(0, 0, 1)
	case perMonth:
		return s.AddDate(0, 1, 0)
	}
	return s.Add(time.Minute)
}

// meter counts events in fixed windows against a limit. A grain owns it;
// on the grain's node the local read path takes from it directly, so all
// takes for one identity hit one meter and the count is exact. Safe for
// concurrent use.
type meter struct {
	mu    sync.Mutex
	p     period
	limit int64 // 0 = unlimited
	start time.Time
	count int64
	dirty bool
}

// meterState is a meter's checkpoint.
type meterState struct {
	Start time.Time `json:"start"`
	Count int64     `json:"count"`
}

func newMeter(p period, limit int64, st meterState) *meter {
	return &meter{p: p, limit: limit, start: st.Start, count: st.Count}
}

// roll starts a new window when now has left the current one. mu is held.
func (m *meter) roll(now time.Time) {
	if s := m.p.start(now); !s.Equal(m.start) {
		m.start, m.count, m.dirty = s, 0, true
	}
}

// take counts one event at now, or refuses it with the seconds until the
// window ends (at least 1).
func (m *meter) take(now time.Time) (ok bool, retryAfter int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.roll(now)
	if m.limit > 0 && m.count >= m.limit {
		return false, secondsUntil(now, m.p.end(m.start))
	}
	m.count++
	m.dirty = true
	return true, 0
}

// usage returns the count, limit and end of the current window.
func (m *meter) usage(now time.Time) (count, limit int64, start, end time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.roll(now)
	return m.count, m.limit, m.start, m.p.end(m.start)
}

// setLimit changes the limit (a plan change) and the window kind.
func (m *meter) setLimit(p period, limit int64, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if p != m.p {
		m.p, m.start, m.count = p, time.Time{}, 0
	}
	m.limit = limit
	m.roll(now)
	m.dirty = true
}

// checkpoint returns the state to save and whether it changed since the
// last checkpoint.
func (m *meter) checkpoint() (meterState, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d := m.dirty
	m.dirty = false
	return meterState{Start: m.start, Count: m.count}, d
}

// secondsUntil rounds up, and is at least 1.
func secondsUntil(now, t time.Time) int {
	s := int((t.Sub(now) + time.Second - 1) / time.Second)
	if s < 1 {
		return 1
	}
	return s
}

// lease counts up to want events at once for a node that spends them
// locally: an eighth of what is left (at least one), so that the blocks
// shrink as the limit nears and a few nodes together cannot run far past
// it. n is 0 when the window is full; retryAfter then says until when.
func (m *meter) lease(now time.Time, want int64) (n int64, start, end time.Time, retryAfter int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.roll(now)
	n = want
	if m.limit > 0 {
		left := m.limit - m.count
		if left <= 0 {
			return 0, m.start, m.p.end(m.start), secondsUntil(now, m.p.end(m.start))
		}
		n = min(want, max(1, left/8))
	}
	m.count += n
	m.dirty = true
	return n, m.start, m.p.end(m.start), 0
}

// giveBack uncounts n leased events that were not used, if they belong to
// the current window.
func (m *meter) giveBack(start time.Time, n int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if start.Equal(m.start) && n > 0 {
		m.count = max(0, m.count-n)
		m.dirty = true
	}
}
