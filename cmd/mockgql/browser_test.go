package main

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// shared is the one headless Chromium of this test process: starting a
// browser takes a second or more, so the board tests share one and each
// gets a tab of its own (browser). TestMain closes it.
var shared struct {
	once  sync.Once
	ctx   context.Context // the browser's first tab; the browser lives as long as it
	close func()
	err   error
}

// startBrowser launches the shared browser once; later calls return
// the first call's outcome.
func startBrowser(exe string) (context.Context, error) {
	shared.once.Do(func() {
		dir, err := os.MkdirTemp("", "mgq-chromium-")
		if err != nil {
			shared.err = err
			return
		}
		opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe),
			chromedp.NoSandbox, chromedp.DisableGPU, chromedp.UserDataDir(dir),
			chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true), chromedp.Flag("disable-quic", true))
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelCtx := chromedp.NewContext(actx)
		shared.ctx, shared.close = ctx, func() { cancelCtx(); cancelAlloc(); _ = os.RemoveAll(dir) }
		// Launches the browser. The first tab stays blank: its context
		// is the browser's life, so it gets no deadline of its own.
		shared.err = chromedp.Do(ctx)
	})
	return shared.ctx, shared.err
}

// closeBrowser ends the shared browser, if one was started.
func closeBrowser() {
	if shared.close != nil {
		shared.close()
	}
}

// browser gives the test a tab of the shared headless Chromium, in a
// browser context of its own (its own cookies, storage and permissions,
// disposed when the test ends), with a limit of two minutes (the longest
// board test, TestBoardModellingFlow, overran one minute on a loaded
// two-core machine; a hung page still fails the test). Without a browser
// the test skips, or fails under MGQ_REQUIRE_TOOLS=1.
func browser(t *testing.T) context.Context {
	root, err := startBrowser(chromium(t))
	if err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	ctx, cancelCtx := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancelCtx() })
	return ctx
}
