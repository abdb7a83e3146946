package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// sandboxBench measures sandboxes (docs/using/testing.md) on a server of
// its own: the first list scenario in a sandbox whose mutations changed
// 1,000 rows of its table, against the same query without a sandbox, side
// by side; and what 1,000 live sandboxes, one changed row each, add to
// the server's memory. The answer cache is off, so that every request
// executes (through the sandbox's overlay, or the project's).
func sandboxBench(bin, dir string, o options, rep *report) error {
	srv, err := startMockgql(bin, filepath.Join(dir, "sandbox"), "--ip-limit", "0", "--answer-cache-mb", "0",
		"--plan-sandboxes", "20,100,1000,1001") // the measured one and the 1,000 of sandboxMemory
	if err != nil {
		return err
	}
	defer srv.stop()
	fx, err := setup(srv, options{rowsSmall: o.rowsSmall})
	if err != nil {
		return err
	}
	if err := changeRows(srv, fx, "bench", 1, 1000); err != nil {
		return err
	}
	sc := fx.scenarios[0]
	body := []byte(fmt.Sprintf(`{"query":%q}`, sc.query))
	in := httpRequest(srv.addr, fx.runtimePath, body, "X-API-Key", fx.key, "X-Mock-Sandbox", "bench")
	out := httpRequest(srv.addr, fx.runtimePath, body, "X-API-Key", fx.key)
	a, err := rawOnce(srv.addr, in)
	if err != nil {
		return err
	}
	b, err := rawOnce(srv.addr, out)
	if err != nil {
		return err
	}
	if a == b || strings.Contains(a, `"errors"`) {
		return fmt.Errorf("the sandbox's answer is the project's or an error: %.200s", a)
	}
	for _, req := range [][]byte{in, out} {
		if _, err := load(srv.addr, req, o.conns, 300*time.Millisecond, 200); err != nil {
			return err
		}
	}
	ms, mp, err := sideBySide(o.duration, loader(srv.addr, in, o.conns, 200), loader(srv.addr, out, o.conns, 200))
	if err != nil {
		return err
	}
	if ms.errors+mp.errors > 0 {
		return fmt.Errorf("%d and %d requests failed", ms.errors, mp.errors)
	}
	rep.addNamed(sc.name+", in a sandbox with 1,000 changed rows vs none (no answer cache)", "no sandbox", ms, mp)
	return sandboxMemory(srv, fx, rep)
}

// sandboxMemory makes 1,000 sandboxes, one changed row and one query
// each, and notes what they add to the server's resident memory.
func sandboxMemory(srv *mockgql, fx *fixture, rep *report) error {
	const n = 1000
	before := srv.rss()
	for i := range n {
		if err := changeRows(srv, fx, fmt.Sprintf("mem-%d", i), i+1, 1); err != nil {
			return err
		}
	}
	written := srv.rss()
	body := []byte(fmt.Sprintf(`{"query":%q}`, fx.scenarios[0].query))
	for i := range n {
		resp, err := rawOnce(srv.addr, httpRequest(srv.addr, fx.runtimePath, body, "X-API-Key", fx.key, "X-Mock-Sandbox", fmt.Sprintf("mem-%d", i)))
		if err != nil || strings.Contains(resp, `"errors"`) {
			return fmt.Errorf("query in sandbox mem-%d: %v %.200s", i, err, resp)
		}
	}
	queried := srv.rss()
	rep.note("%d live sandboxes, one changed row each: +%.1f MB resident after their writes, +%.1f MB after a query in each (%.1f KB a sandbox); %s",
		n, float64(written-before)/1e6, float64(queried-before)/1e6, float64(queried-before)/n/1e3, memBreakdown(srv))
	return nil
}

// changeRows changes rows first..first+count-1 of the Small table in
// sandbox, 100 a mutation.
func changeRows(srv *mockgql, fx *fixture, sandbox string, first, count int) error {
	for lo := first; lo < first+count; lo += 100 {
		var q strings.Builder
		q.WriteString("mutation {")
		for id := lo; id < min(lo+100, first+count); id++ {
			fmt.Fprintf(&q, ` u%d: updateSmall(id: "%d", input: {price: %d.5, name: "changed %d"}) { id }`, id, id, (id*37)%1000, id)
		}
		q.WriteString(" }")
		body := []byte(fmt.Sprintf(`{"query":%q}`, q.String()))
		resp, err := rawOnce(srv.addr, httpRequest(srv.addr, fx.runtimePath, body, "X-API-Key", fx.key, "X-Mock-Sandbox", sandbox))
		if err != nil || strings.Contains(resp, `"errors"`) || !strings.Contains(resp, `"data"`) {
			return fmt.Errorf("changing rows in sandbox %s: %v %.300s", sandbox, err, resp)
		}
	}
	return nil
}
