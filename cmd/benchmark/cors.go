package main

import (
	"fmt"
	"time"
)

// corsBench measures the runtime's first list query sent from a page on an
// allowed origin (an Origin header: the per-slug CORS policy from the
// server's cache and the response headers) against the same request
// without Origin, side by side on one server. A preflight (OPTIONS) is
// measured against the same baseline.
func corsBench(srv *mockgql, fx *fixture, o options, rep *report) error {
	const origin = "http://localhost:5173"
	d, err := srv.gql(`{ projects { id slug } }`, nil)
	if err != nil {
		return err
	}
	var pid string
	for _, p := range d["projects"].([]any) {
		if m := p.(map[string]any); "/mock/"+m["slug"].(string)+"/graphql" == fx.runtimePath {
			pid = m["id"].(string)
		}
	}
	if _, err := srv.gql(`mutation($p: ID!, $o: [String!]) { updateProject(projectId: $p, allowedOrigins: $o) { id } }`,
		map[string]any{"p": pid, "o": []string{origin}}); err != nil {
		return err
	}
	body := []byte(fmt.Sprintf(`{"query":%q}`, fx.scenarios[0].query))
	plain := httpRequest(srv.addr, fx.runtimePath, body, "X-API-Key", fx.key)
	cors := httpRequest(srv.addr, fx.runtimePath, body, "X-API-Key", fx.key, "Origin", origin)
	if resp, err := rawOnce(srv.addr, cors); err != nil {
		return err
	} else if len(resp) == 0 {
		return fmt.Errorf("empty answer from an allowed origin")
	}
	if _, err := load(srv.addr, cors, o.conns, 300*time.Millisecond, 200); err != nil {
		return err
	}
	mc, mp, err := sideBySide(o.duration, loader(srv.addr, cors, o.conns, 200), loader(srv.addr, plain, o.conns, 200))
	if err != nil {
		return err
	}
	if mc.errors > 0 {
		return fmt.Errorf("%d of %d requests with Origin failed", mc.errors, mc.n)
	}
	rep.addNamed(fx.scenarios[0].name+", from an allowed origin vs no Origin", "no Origin", mc, mp)
	pre := append([]byte(nil), fmt.Sprintf("OPTIONS %s HTTP/1.1\r\nHost: %s\r\nOrigin: %s\r\nAccess-Control-Request-Method: POST\r\n"+
		"Access-Control-Request-Headers: content-type, x-api-key\r\n\r\n", fx.runtimePath, srv.addr, origin)...)
	mo, mp, err := sideBySide(o.duration, loader(srv.addr, pre, o.conns, 204), loader(srv.addr, plain, o.conns, 200))
	if err != nil {
		return err
	}
	if mo.errors > 0 {
		return fmt.Errorf("%d of %d preflights failed", mo.errors, mo.n)
	}
	rep.addNamed("preflight (OPTIONS) vs "+fx.scenarios[0].name, fx.scenarios[0].name, mo, mp)
	return nil
}
