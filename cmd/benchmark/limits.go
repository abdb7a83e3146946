package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// limits measures what the limits cost: the 10k list query with a key, an
// actor token, the per-IP window and the plan quota all on, next to the
// same query on a node with the IP window off and no actor token; the
// added latency at concurrency 1; and refused (429) requests next to a bare
// handler returning the same refusal.
func limits(bin, self, dir string, o options, rep *report) error {
	small := options{rowsSmall: o.rowsSmall, duration: o.duration, conns: o.conns}
	on, err := startMockgql(bin, filepath.Join(dir, "on"), "--ip-limit", "1000000000", "--quota-team", "1000000000000", "--actor-issue-limit", "1000")
	if err != nil {
		return err
	}
	defer on.stop()
	off, err := startMockgql(bin, filepath.Join(dir, "off"), "--ip-limit", "0")
	if err != nil {
		return err
	}
	defer off.stop()
	fxOn, err := setup(on, small)
	if err != nil {
		return err
	}
	if _, err := on.gql(`mutation { setPlan(plan: TEAM) { plan } }`, nil); err != nil {
		return err
	}
	fxOff, err := setup(off, small)
	if err != nil {
		return err
	}
	grant, err := on.post("/runtime/actors", "", "X-API-Key", fxOn.key)
	if err != nil {
		return err
	}
	token := between(grant, `"actorToken":"`, `"`)
	body := []byte(fmt.Sprintf(`{"query":%q}`, fxOn.scenarios[0].query))
	reqOn := httpRequest(on.addr, fxOn.runtimePath, body, "X-API-Key", fxOn.key, "X-Actor-Token", token)
	reqOff := httpRequest(off.addr, fxOff.runtimePath, body, "X-API-Key", fxOff.key)
	for _, c := range []int{o.conns, 1} {
		if _, err := load(off.addr, reqOff, c, 300*time.Millisecond, 200); err != nil {
			return err
		}
		mOn, mOff, err := sideBySide(o.duration, loader(on.addr, reqOn, c, 200), loader(off.addr, reqOff, c, 200))
		if err != nil {
			return err
		}
		if mOn.errors > 0 {
			return fmt.Errorf("%d requests with limits on failed", mOn.errors)
		}
		rep.addNamed(fmt.Sprintf("list 10k, limits on vs off (c=%d)", c), "off", mOn, mOff)
		if c == 1 {
			rep.note("limits (key + actor token + IP window + quota) add %s at p50, concurrency 1", us(mOn.pct(0.5)-mOff.pct(0.5)))
		}
	}
	if err := budget(bin, dir, o, rep); err != nil {
		return err
	}
	return refusals(bin, self, dir, o, rep)
}

// budget measures what --response-budget-mb costs an answer big enough to
// take from it (over 32 KB) and to be written in pieces (over 64 KB): its
// bytes are taken as it grows and held until the HTTP write is done. The
// same page of 1,000 rows, on a node with the budget and one without.
func budget(bin, dir string, o options, rep *report) error {
	small := options{rowsSmall: o.rowsSmall, duration: o.duration, conns: o.conns}
	var fx [2]*fixture
	var srv [2]*mockgql
	for i, mb := range []string{"256", "0"} {
		m, err := startMockgql(bin, filepath.Join(dir, "budget"+mb), "--ip-limit", "0", "--response-budget-mb", mb)
		if err != nil {
			return err
		}
		defer m.stop()
		if fx[i], err = setup(m, small); err != nil {
			return err
		}
		srv[i] = m
	}
	body := []byte(fmt.Sprintf(`{"query":%q}`, `{ searchSmall(minPrice: 0, pageSize: 1000) { items { id name price category inStock sku } } }`))
	on := httpRequest(srv[0].addr, fx[0].runtimePath, body, "X-API-Key", fx[0].key)
	off := httpRequest(srv[1].addr, fx[1].runtimePath, body, "X-API-Key", fx[1].key)
	answer, err := rawOnce(srv[0].addr, on)
	if err != nil {
		return err
	}
	mOn, mOff, err := sideBySide(o.duration, loader(srv[0].addr, on, o.conns, 200), loader(srv[1].addr, off, o.conns, 200))
	if err != nil {
		return err
	}
	if mOn.errors > 0 || mOff.errors > 0 {
		return fmt.Errorf("page of 1,000: %d errors with the budget, %d without", mOn.errors, mOff.errors)
	}
	rep.addNamed(fmt.Sprintf("page of 1,000 rows (%d KB), response budget on vs off", len(answer)>>10), "off", mOn, mOff)
	return nil
}

// refusals measures 429s from the per-IP window against a bare handler
// returning the same bytes.
func refusals(bin, self, dir string, o options, rep *report) error {
	srv, err := startMockgql(bin, filepath.Join(dir, "refuse"), "--ip-limit", "1")
	if err != nil {
		return err
	}
	defer srv.stop()
	body := []byte(`{"query":"{ __typename }"}`)
	_, _ = srv.post("/mock/nope/graphql", string(body)) // uses the one allowed request
	req := httpRequest(srv.addr, "/mock/nope/graphql", body)
	refused, err := rawOnce(srv.addr, req)
	if err != nil {
		return err
	}
	bodyFile := filepath.Join(dir, "bare-429.json")
	if err := os.WriteFile(bodyFile, []byte(refused), 0o600); err != nil {
		return err
	}
	bare, err := startBare(self, dir, bodyFile)
	if err != nil {
		return err
	}
	defer bare.stop()
	m, b, err := sideBySide(o.duration, loader(srv.addr, req, o.conns, 429), loader(bare.addr, httpRequest(bare.addr, "/x", body), o.conns, 200))
	if err != nil {
		return err
	}
	if m.errors > 0 {
		return fmt.Errorf("%d of %d refusals were not 429", m.errors, m.n)
	}
	rep.add("refused by the IP window (429)", len(refused), m, b)
	return nil
}

func between(s, start, end string) string {
	i := strings.Index(s, start)
	if i < 0 {
		return ""
	}
	s = s[i+len(start):]
	if j := strings.Index(s, end); j >= 0 {
		return s[:j]
	}
	return s
}
