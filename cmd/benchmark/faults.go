package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// faultsBench measures what the request log and the fault step cost a
// runtime request: the first list scenario on the main server, which logs
// every runtime request, against the same request on a second server
// started with --no-request-log, side by side in one run; and, on the
// main server, the same request with X-Mock-Fault: none (the header read
// and the decision) against it without the header.
func faultsBench(bin, dir string, srv *mockgql, fx *fixture, o options, rep *report) error {
	other, err := startMockgql(bin, filepath.Join(dir, "nolog"), "--ip-limit", "0", "--no-request-log")
	if err != nil {
		return err
	}
	defer other.stop()
	ofx, err := setup(other, options{rowsSmall: o.rowsSmall})
	if err != nil {
		return err
	}
	sc := fx.scenarios[0]
	if ofx.scenarios[0].query != sc.query {
		return fmt.Errorf("the servers' first scenarios differ")
	}
	body := []byte(fmt.Sprintf(`{"query":%q}`, sc.query))
	logged := httpRequest(srv.addr, fx.runtimePath, body, "X-API-Key", fx.key)
	unlogged := httpRequest(other.addr, ofx.runtimePath, body, "X-API-Key", ofx.key)
	header := httpRequest(srv.addr, fx.runtimePath, body, "X-API-Key", fx.key, "X-Mock-Fault", "none")
	for _, w := range []struct {
		addr string
		req  []byte
	}{{srv.addr, logged}, {other.addr, unlogged}, {srv.addr, header}} {
		if resp, err := rawOnce(w.addr, w.req); err != nil || strings.Contains(resp, `"errors"`) {
			return fmt.Errorf("warm-up: %v %.200s", err, resp)
		}
		if _, err := load(w.addr, w.req, o.conns, 300*time.Millisecond, 200); err != nil {
			return err
		}
	}
	ml, mu, err := sideBySide(o.duration, loader(srv.addr, logged, o.conns, 200), loader(other.addr, unlogged, o.conns, 200))
	if err != nil {
		return err
	}
	if ml.errors+mu.errors > 0 {
		return fmt.Errorf("%d and %d requests failed", ml.errors, mu.errors)
	}
	rep.addNamed(sc.name+", request log on vs --no-request-log", "no request log", ml, mu)
	mh, mp, err := sideBySide(o.duration, loader(srv.addr, header, o.conns, 200), loader(srv.addr, logged, o.conns, 200))
	if err != nil {
		return err
	}
	if mh.errors > 0 {
		return fmt.Errorf("%d of %d requests with X-Mock-Fault failed", mh.errors, mh.n)
	}
	rep.addNamed(sc.name+", X-Mock-Fault: none vs no header", "no header", mh, mp)
	return nil
}
