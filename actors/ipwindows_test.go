package actors_test

import (
	"context"
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
	check := func(window, ip string) error { return nd.svc.CheckWindow(ctx, window, ip) }
	for _, tc := range []struct {
		window string
		limit  int
	}{{actors.WindowManagement, 3}, {actors.WindowPublic, 2}} {
		for i := range tc.limit {
			if err := check(tc.window, "203.0.113.9"); err != nil {
				t.Fatalf("%s request %d: %v", tc.window, i, err)
			}
		}
		err := check(tc.window, "203.0.113.9")
		wantCode(t, err, model.ErrTooManyRequests)
		if me := model.AsError(err); me.RetryAfter < 1 || me.RetryAfter > 60 {
			t.Fatalf("%s: Retry-After %d", tc.window, me.RetryAfter)
		}
		if err := check(tc.window, "198.51.100.9"); err != nil {
			t.Fatalf("%s, another IP: %v", tc.window, err)
		}
	}
	for i := range 10 { // off, and no IP
		if err := check(actors.WindowCreate, "203.0.113.9"); err != nil {
			t.Fatalf("a window set to 0 refused request %d: %v", i, err)
		}
		if err := check(actors.WindowManagement, ""); err != nil {
			t.Fatalf("an unknown IP was counted: %v", err)
		}
	}
	nd.clock.Add(time.Minute)
	if err := check(actors.WindowManagement, "203.0.113.9"); err != nil {
		t.Fatalf("the next minute: %v", err)
	}
}

// TestLoginAttempts: past LoginAttempts a minute, logins to one e-mail
// address are refused whatever the password, until the minute ends.
func TestLoginAttempts(t *testing.T) {
	nd := startNode(t, "", nil, func(e *actors.Env) { e.Config.LoginAttempts = 2 })
	ctx := context.Background()
	signUp(t, nd.svc, "ann@example.com")
	for range 2 {
		_, _, err := nd.svc.Login(ctx, "ann@example.com", "wrong password", "")
		wantCode(t, err, model.ErrUnauthenticated)
	}
	_, _, err := nd.svc.Login(ctx, "Ann@Example.com", "correct horse", "") // the same address, normalised
	wantCode(t, err, model.ErrTooManyRequests)
	if _, _, err := nd.svc.Login(ctx, "bob@example.com", "any password", ""); model.ErrorCode(err) != model.ErrUnauthenticated {
		t.Fatalf("another address: %v", err)
	}
	nd.clock.Add(time.Minute)
	if _, _, err := nd.svc.Login(ctx, "ann@example.com", "correct horse", ""); err != nil {
		t.Fatalf("the next minute: %v", err)
	}
}
