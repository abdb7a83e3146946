package main

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// failRequests makes the page's next n requests whose URL matches pattern
// (the DevTools Fetch domain's wildcards, * and ?) fail as a dropped
// connection does; later ones go through. Call it once a page.
func (p *page) failRequests(pattern string, n int) {
	p.t.Helper()
	paused := chromedp.Events(p.ctx, fetch.RequestPaused)
	err := chromedp.Do(p.ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: pattern}}})
		return err
	}))
	if err != nil {
		p.t.Fatalf("intercept %s: %v", pattern, err)
	}
	go func() {
		for ev, err := range paused {
			if err != nil {
				return // the test ended
			}
			fail := n > 0
			n--
			_ = chromedp.Do(p.ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
				if fail {
					_, err := cdp.Call(ctx, t, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonConnectionReset})
					return err
				}
				_, err := cdp.Call(ctx, t, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
				return err
			}))
		}
	}()
}

// TestBoardLoadFailures: the board never stays "Loading…" for ever. When
// one of its modules does not arrive, or its first request to the API gets
// no answer, the page says what happened and "Try again" shows the page
// once the network is back.
func TestBoardLoadFailures(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "loading@example.com", "ld")
	keys := "/board/projects/" + sh.project["id"].(string) + "/keys"

	p := newPage(t, s)
	p.signedIn(sh.owner)
	p.failRequests("*/board/static/live.js", 1) // imported by app.js and most pages
	p.open(keys, "#loadFailed")
	p.waitText("#loadFailed", "A part of the board's code did not arrive")
	if got := p.js(`document.activeElement.id`); got != "reload" {
		t.Errorf("focus is on %q, not Try again", got)
	}
	p.shot("load-failed")
	p.click("#reload")
	p.wait("#keyName")
	p.waitText("#top nav", "Projects")

	q := newPage(t, s)
	q.signedIn(sh.owner)
	q.failRequests("*/graphql", 1) // the first: who is signed in
	q.open(keys, "#failed")
	q.waitText("#failed", "The server could not be reached")
	q.shot("request-failed")
	q.click("#retry")
	q.wait("#keyName")
	q.waitText("#top nav", "Projects")
}
