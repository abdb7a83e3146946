package actors

import (
	"fmt"
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// Bounds of the per-e-mail login back-off (loginGrain).
const (
	// loginFirstWait is the wait after --login-attempts consecutive
	// failures; each further failure doubles it, up to loginMaxWait.
	loginFirstWait = time.Minute
	loginMaxWait   = time.Hour
	// loginForget is how long after its last failure, or the end of its
	// wait if later, an address's count is forgotten.
	loginForget = time.Hour
	// loginPendingFor is how long an admitted attempt that never reported
	// its outcome (a lost call) holds its place in the in-flight count.
	loginPendingFor = time.Minute
)

// loginBackoff is the back-off state of one e-mail address. It is kept in
// memory only: guessing unknown addresses writes nothing to disk, and a
// restart forgets it.
type loginBackoff struct {
	fails    int       // consecutive failed logins
	last     time.Time // of the last failure
	until    time.Time // no attempt is admitted before
	pending  int       // attempts admitted whose outcome is not known yet
	admitted time.Time // of the last admitted attempt
}

// forget drops a count nobody added to for loginForget since they could
// (since the last failure or the end of the wait) and in-flight attempts
// that never reported.
func (b *loginBackoff) forget(now time.Time) {
	if b.fails > 0 && !now.Before(b.forgetAt()) {
		b.fails, b.until = 0, time.Time{}
	}
	if b.pending > 0 && now.Sub(b.admitted) >= loginPendingFor {
		b.pending = 0
	}
}

// forgetAt is when the count is forgotten if nobody fails again.
func (b *loginBackoff) forgetAt() time.Time {
	if b.until.After(b.last) {
		return b.until.Add(loginForget)
	}
	return b.last.Add(loginForget)
}

// admit admits an attempt, or returns the seconds to wait. Attempts in
// flight count against the failures left before the lock (at least one),
// so parallel guesses cannot outrun it.
func (b *loginBackoff) admit(now time.Time, limit int) (ok bool, retry int) {
	b.forget(now)
	if now.Before(b.until) {
		return false, ceilSeconds(b.until.Sub(now))
	}
	if b.pending >= max(1, limit-b.fails) {
		return false, 1
	}
	b.pending++
	b.admitted = now
	return true, 0
}

// report records the outcome of an admitted attempt: failed (a wrong
// password), succeeded (resets the count), or neither (it ended
// otherwise and counts for nothing).
func (b *loginBackoff) report(now time.Time, limit int, failed, succeeded bool) {
	b.forget(now)
	if b.pending > 0 {
		b.pending--
	}
	switch {
	case succeeded:
		b.fails, b.until = 0, time.Time{}
	case failed:
		b.fails++
		b.last = now
		if b.fails >= limit {
			b.until = now.Add(loginWait(b.fails - limit))
		}
	}
}

// loginWait is the wait after n failures beyond the limit: loginFirstWait
// doubled n times, at most loginMaxWait.
func loginWait(n int) time.Duration {
	w := loginFirstWait
	for range n {
		if w *= 2; w >= loginMaxWait {
			return loginMaxWait
		}
	}
	return w
}

func ceilSeconds(d time.Duration) int {
	return int((d + time.Second - 1) / time.Second)
}

// loginGrain is the back-off of one e-mail address (kindLogin). Requests:
// pb.LoginAdmit (429 TOO_MANY_REQUESTS with Retry-After while it must
// wait) and pb.LoginReport. It stays active while it has a count to keep
// (forgetAt), then passivates after IdleAfter more and forgets.
type loginGrain struct{ b loginBackoff }

func (lg *loginGrain) load(*grain) error { return nil }

func (lg *loginGrain) handle(g *grain, c *call) (result, error) {
	res, err := lg.serve(g, c)
	// Keep the grain, and so the count, until forgetAt: idle passivation
	// stops a grain IdleAfter after its lastUsed.
	if lg.b.fails > 0 {
		if keep := lg.b.forgetAt().Add(-g.env.Config.IdleAfter); keep.After(g.lastUsed) {
			g.lastUsed = keep
		}
	}
	return res, err
}

func (lg *loginGrain) serve(g *grain, c *call) (result, error) {
	now, limit := g.env.Clock.Now(), g.env.Config.LoginAttempts
	switch m := c.req.(type) {
	case *pb.LoginAdmit:
		if ok, retry := lg.b.admit(now, limit); !ok {
			return nil, loginWaitError(retry)
		}
		return nil, nil
	case *pb.LoginReport:
		lg.b.report(now, limit, m.Failed, m.Succeeded)
		return nil, nil
	}
	return nil, unknownRequest(g, c)
}

func loginWaitError(retry int) *model.Error {
	return &model.Error{Code: model.CodeTooManyRequests, RetryAfter: retry,
		Message: fmt.Sprintf("too many failed login attempts for this e-mail address; wait %d seconds and retry", retry)}
}
