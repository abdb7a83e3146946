package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/internal/gqlattack"
)

// docBudget (-only budget) measures what the document budget admits at
// its worst: the hostile documents of gqlattack.Worst at the default
// fragment bound, sent to the runtime, each request a text of its own (a
// comment numbers it) so that every one is parsed and validated rather
// than served from the document cache; next to a bare handler returning
// the same answer. Documents the budget refuses are measured too, with
// the 278 KB chain of issue 20, as refusals.
func docBudget(self, dir string, srv *mockgql, fx *fixture, o options, rep *report) error {
	nested := `searchSmall(minPrice: 0, pageSize: 1){items{id}}`
	docs := gqlattack.Worst(exec.DefaultMaxFragments, "Query", "__typename", nested)
	docs = append(docs, gqlattack.Doc{Name: "chain of 8,000 (issue 20)", Query: gqlattack.Chain(8000, true, "Query", gqlattack.Tail("__typename", 8000))})
	for i, d := range docs {
		const variants = 512 // more than the document cache holds of texts this long
		reqs, bodies := make([][]byte, variants), make([][]byte, variants)
		for v := range reqs {
			bodies[v] = []byte(fmt.Sprintf(`{"query":%q}`, fmt.Sprintf("%s\n#%d", d.Query, v)))
			reqs[v] = httpRequest(srv.addr, fx.runtimePath, bodies[v], "X-API-Key", fx.key)
		}
		answer, err := rawOnce(srv.addr, reqs[0])
		if err != nil {
			return err
		}
		status := 200
		if strings.HasPrefix(answer, "{\"statusCode\":400") {
			status = 400
		}
		bodyFile := filepath.Join(dir, fmt.Sprintf("bare-budget-%d.json", i))
		if err := os.WriteFile(bodyFile, []byte(answer), 0o600); err != nil {
			return err
		}
		bare, err := startBare(self, dir, bodyFile)
		if err != nil {
			return err
		}
		bareReq := httpRequest(bare.addr, "/x", bodies[0])
		ours := func(within time.Duration) (result, error) {
			return onConns(o.conns, within, func(c int, deadline time.Time) (result, error) {
				return cycleWorker(srv.addr, reqs, c*variants/o.conns, deadline, status)
			})
		}
		cpu := srv.cpu()
		m, b, err := sideBySide(o.duration, ours, loader(bare.addr, bareReq, o.conns, 200))
		cpu = srv.cpu() - cpu // the bare handler runs in a process of its own
		bare.stop()
		if err != nil {
			return err
		}
		if m.errors > 0 {
			return fmt.Errorf("%s: %d of %d answers were not %d", d.Name, m.errors, m.n, status)
		}
		verdict := "admitted"
		if status == 400 {
			verdict = "refused"
		}
		name := fmt.Sprintf("budget: %s, %s (%d KB)", d.Name, verdict, len(d.Query)>>10)
		rep.add(name, len(answer), m, b)
		rep.note("%s: %.1f ms of mockgql's CPU a request (with HTTP, JSON and the runtime path; robust to a busy machine, unlike req/s)",
			name, cpu.Seconds()*1000/float64(m.n))
	}
	return nil
}
