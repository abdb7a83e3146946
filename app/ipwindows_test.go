package app_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/model"
)

// TestAPIWindows: each per-IP window counts its own requests per client IP
// and UTC minute, refuses past its limit with a Retry-After within the
// minute, and a window set to 0 or an unknown IP counts nothing.
func TestAPIWindows(t *testing.T) {
	nd := startNode(t, "", nil, func(e *actors.Env) {
		e.Config.IPLimitManagement, e.Config.IPLimitPublic, e.Config.IPLimitCreate = 3, 2, 0
	})
	ctx := context.Background()
	check := func(window, ip string) error { return nd.svc.Edge.CheckWindow(ctx, window, ip) }
	for _, tc := range []struct {
		window string
		limit  int
	}{{"management", 3}, {"public", 2}} {
		for i := range tc.limit {
			if err := check(tc.window, "203.0.113.9"); err != nil {
				t.Fatalf("%s request %d: %v", tc.window, i, err)
			}
		}
		err := check(tc.window, "203.0.113.9")
		wantCode(t, err, model.CodeTooManyRequests)
		if me := model.AsError(err); me.RetryAfter < 1 || me.RetryAfter > 60 {
			t.Fatalf("%s: Retry-After %d", tc.window, me.RetryAfter)
		}
		if err := check(tc.window, "198.51.100.9"); err != nil {
			t.Fatalf("%s, another IP: %v", tc.window, err)
		}
	}
	for i := range 10 { // off, and no IP
		if err := check("create", "203.0.113.9"); err != nil {
			t.Fatalf("a window set to 0 refused request %d: %v", i, err)
		}
		if err := check("management", ""); err != nil {
			t.Fatalf("an unknown IP was counted: %v", err)
		}
	}
	nd.clock.Add(time.Minute)
	if err := check("management", "203.0.113.9"); err != nil {
		t.Fatalf("the next minute: %v", err)
	}
}

// TestLoginBackoff: after LoginAttempts consecutive failed logins to one
// e-mail address, from any IP, the address waits a minute, doubled by each
// further failure up to an hour, whatever the password; a success resets
// the count, and an hour without attempts forgets it. Time moves on the
// injected clock.
func TestLoginBackoff(t *testing.T) {
	const right, wrong = "correct horse", "wrong password"
	type step struct {
		after    time.Duration // the clock moves this much first
		email    string        // "" is ann@example.com
		password string
		code     model.Code // "" for a login
		retry    int        // Retry-After of a TOO_MANY_REQUESTS
	}
	fails := func(n int) []step {
		v := make([]step, n)
		for i := range v {
			v[i] = step{password: wrong, code: model.CodeUnauthenticated}
		}
		return v
	}
	cat := func(parts ...[]step) []step {
		var v []step
		for _, p := range parts {
			v = append(v, p...)
		}
		return v
	}
	for _, tt := range []struct {
		name  string
		steps []step
	}{
		{"a success before the limit resets the count", cat(fails(2), []step{{password: right}}, fails(2),
			[]step{{password: right}})},
		{"the limit locks even the right password, for a minute", cat(fails(3), []step{
			{password: right, code: model.CodeTooManyRequests, retry: 60},
			{after: 59 * time.Second, password: right, code: model.CodeTooManyRequests, retry: 1},
			{after: time.Second, password: right},
			{password: right}, // reset: no wait
		})},
		{"each further failure doubles the wait", cat(fails(3), []step{
			{after: time.Minute, password: wrong, code: model.CodeUnauthenticated},
			{password: right, code: model.CodeTooManyRequests, retry: 120},
			{after: 2 * time.Minute, password: wrong, code: model.CodeUnauthenticated},
			{after: 3*time.Minute + 59*time.Second, password: wrong, code: model.CodeTooManyRequests, retry: 1},
			{after: time.Second, password: wrong, code: model.CodeUnauthenticated},
			{password: wrong, code: model.CodeTooManyRequests, retry: 8 * 60},
			{after: 8 * time.Minute, password: right},
			{password: wrong, code: model.CodeUnauthenticated}, // counting from zero again
		})},
		{"the wait stops at an hour", cat(fails(3), []step{
			{after: time.Minute, password: wrong, code: model.CodeUnauthenticated},
			{after: 2 * time.Minute, password: wrong, code: model.CodeUnauthenticated},
			{after: 4 * time.Minute, password: wrong, code: model.CodeUnauthenticated},
			{after: 8 * time.Minute, password: wrong, code: model.CodeUnauthenticated},
			{after: 16 * time.Minute, password: wrong, code: model.CodeUnauthenticated},
			{after: 32 * time.Minute, password: wrong, code: model.CodeUnauthenticated},
			{password: wrong, code: model.CodeTooManyRequests, retry: 3600},
			{after: time.Hour, password: wrong, code: model.CodeUnauthenticated},
			{password: wrong, code: model.CodeTooManyRequests, retry: 3600},
		})},
		{"an hour without attempts after the wait forgets the count", cat(fails(3), []step{
			{after: time.Hour + 59*time.Second, password: wrong, code: model.CodeUnauthenticated}, // still counted: a 4th
			{password: right, code: model.CodeTooManyRequests, retry: 120},
			{after: 2*time.Minute + time.Hour, password: wrong, code: model.CodeUnauthenticated}, // forgotten: a 1st
			{password: wrong, code: model.CodeUnauthenticated},
			{password: wrong, code: model.CodeUnauthenticated},
			{password: wrong, code: model.CodeTooManyRequests, retry: 60},
		})},
		{"addresses wait apart, the normalised one together", cat(fails(3), []step{
			{email: "bob@example.com", password: right},
			{email: "bob@example.com", password: wrong, code: model.CodeUnauthenticated},
			{email: "nobody@example.com", password: wrong, code: model.CodeUnauthenticated},
			{email: "Ann@Example.com", password: right, code: model.CodeTooManyRequests, retry: 60},
		})},
	} {
		t.Run(tt.name, func(t *testing.T) {
			nd := startNode(t, "", nil, func(e *actors.Env) { e.Config.LoginAttempts = 3 })
			signUp(t, nd.svc, "ann@example.com")
			signUp(t, nd.svc, "bob@example.com")
			for i, s := range tt.steps {
				nd.clock.Add(s.after)
				if s.email == "" {
					s.email = "ann@example.com"
				}
				_, _, err := nd.svc.Management.Login(context.Background(), s.email, s.password, "")
				var me *model.Error
				if model.ErrorCode(err) != s.code || s.retry > 0 && (!errors.As(err, &me) || me.RetryAfter != s.retry) {
					t.Fatalf("step %d (%+v): %v", i, s, err)
				}
			}
		})
	}
}

// TestLoginBackoffParallel: attempts in flight count against the failures
// left before the lock, so parallel guesses cannot outrun it.
func TestLoginBackoffParallel(t *testing.T) {
	nd := startNode(t, "", nil, func(e *actors.Env) { e.Config.LoginAttempts = 3 })
	signUp(t, nd.svc, "ann@example.com")
	var wg sync.WaitGroup
	var checked atomic.Int32
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := nd.svc.Management.Login(context.Background(), "ann@example.com", "wrong password", "")
			if model.ErrorCode(err) == model.CodeUnauthenticated {
				checked.Add(1)
			} else if model.ErrorCode(err) != model.CodeTooManyRequests {
				t.Errorf("login: %v", err)
			}
		}()
	}
	wg.Wait()
	if n := checked.Load(); n < 1 || n > 3 {
		t.Fatalf("%d of 20 parallel guesses checked, want 1 to 3", n)
	}
}

// TestLoginBackoffPassivation: a login back-off grain outlives IdleAfter
// while it has a count to keep (other grains idle as long stop), and
// passivates, forgetting it, an hour after the wait ends.
func TestLoginBackoffPassivation(t *testing.T) {
	metrics := &grainCounter{activated: map[string]int{}, stopped: map[string]int{}}
	nd := startNode(t, "", nil, func(e *actors.Env) {
		e.Config.LoginAttempts = 2
		e.Config.IdleAfter = 200 * time.Millisecond // ticks every 50 ms; the clock decides
		e.Metrics = metrics
	})
	ctx := context.Background()
	signUp(t, nd.svc, "ann@example.com")
	for range 2 {
		_, _, err := nd.svc.Management.Login(ctx, "ann@example.com", "wrong password", "")
		wantCode(t, err, model.CodeUnauthenticated)
	}
	waitStopped := func(kind string) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if _, stopped := metrics.counts(kind); stopped > 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("no %s grain passivated after 5 s", kind)
			}
		}
	}
	nd.clock.Add(30 * time.Second)
	waitStopped("user") // idle ticks ran on the moved clock
	if _, stopped := metrics.counts("login"); stopped != 0 {
		t.Fatalf("the back-off grain passivated during the wait")
	}
	_, _, err := nd.svc.Management.Login(ctx, "ann@example.com", "correct horse", "")
	var me *model.Error
	if !errors.As(err, &me) || me.Code != model.CodeTooManyRequests || me.RetryAfter != 30 {
		t.Fatalf("during the wait: %v", err)
	}
	nd.clock.Add(30*time.Second + time.Hour)
	waitStopped("login")
	for range 2 { // forgotten: counting from zero
		_, _, err := nd.svc.Management.Login(ctx, "ann@example.com", "wrong password", "")
		wantCode(t, err, model.CodeUnauthenticated)
	}
}
