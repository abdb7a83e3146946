package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
)

// The varied list scenario: what clients really send. Each connection
// cycles through mixCount distinct list queries (number filters gte and
// lte, text eq and like, sort by a number or by text in both directions,
// pages 1-50, total always selected), so the per-query row-list cache
// cannot answer them; its ceiling is a bare gin handler that answers each
// query with its correct bytes, precomputed from mockgql's own answers
// (whose correctness the differential test of graphql checks).

const mixCount = 1000

// mixArgs is one varied query: its page, filters (nil: not set) and sort.
type mixArgs struct {
	page               int
	minPrice, maxPrice *int
	category, q        *string
	sortField          string
	desc               bool
}

// mixArgSets returns n distinct argument sets.
func mixArgSets(n int, seed uint64) []mixArgs {
	rnd := rand.New(rand.NewPCG(seed, 13))
	seen := map[string]bool{}
	var out []mixArgs
	for len(out) < n {
		a := mixArgs{page: 1 + rnd.IntN(50)}
		if rnd.IntN(2) == 0 {
			a.minPrice = ptr(rnd.IntN(1000))
		}
		if rnd.IntN(3) == 0 {
			a.maxPrice = ptr(rnd.IntN(1000))
		}
		if rnd.IntN(3) == 0 {
			a.category = ptr(fmt.Sprintf("cat-%d", rnd.IntN(50)))
		}
		if rnd.IntN(4) == 0 { // 3 or 4 digits of a product number
			a.q = ptr(fmt.Sprint(1000 + rnd.IntN(9000))[:3+rnd.IntN(2)])
		}
		a.sortField = []string{"price", "name"}[rnd.IntN(2)]
		a.desc = rnd.IntN(2) == 0
		if k := a.text("x"); !seen[k] {
			seen[k] = true
			out = append(out, a)
		}
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// text is the query as mockgql's list operation op takes it.
func (a mixArgs) text(op string) string {
	args := fmt.Sprintf("page: %d, pageSize: 20", a.page)
	if a.minPrice != nil {
		args += fmt.Sprintf(", minPrice: %d", *a.minPrice)
	}
	if a.maxPrice != nil {
		args += fmt.Sprintf(", maxPrice: %d", *a.maxPrice)
	}
	if a.category != nil {
		args += fmt.Sprintf(", category: %q", *a.category)
	}
	if a.q != nil {
		args += fmt.Sprintf(", q: %q", *a.q)
	}
	args += fmt.Sprintf(", sortField: %q", a.sortField)
	if a.desc {
		args += ", sortDirection: DESC"
	}
	return fmt.Sprintf("{ %s(%s) { total items { id name price category } } }", op, args)
}

// mixQueries returns n distinct queries of list operation op.
func mixQueries(op string, n int, seed uint64) []string {
	var out []string
	for _, a := range mixArgSets(n, seed) {
		out = append(out, a.text(op))
	}
	return out
}

// mixSet is the varied scenario's requests to one server and the answers
// mockgql gave, by request body.
type mixSet struct {
	bodies  []string
	answers map[string]string
	bytes   int
}

// collectMix sends each query once and keeps the answers; it fails on an
// answer with errors.
func collectMix(srv *mockgql, path, key string, queries []string) (*mixSet, error) {
	set := &mixSet{answers: map[string]string{}}
	for _, q := range queries {
		body := fmt.Sprintf(`{"query":%q}`, q)
		resp, err := srv.post(path, body, "X-API-Key", key)
		for try := 0; err != nil && strings.Contains(err.Error(), "503") && try < 60; try++ {
			// While a column's index builds in the background, its queries
			// scan; on a loaded machine a scan of 1M rows can outlast the
			// time limit.
			time.Sleep(500 * time.Millisecond)
			resp, err = srv.post(path, body, "X-API-Key", key)
		}
		if err != nil {
			return nil, err
		}
		if strings.Contains(resp, `"errors"`) {
			return nil, fmt.Errorf("query fails: %s: %s", q, resp)
		}
		set.bodies = append(set.bodies, body)
		set.answers[body] = resp
		set.bytes += len(resp)
	}
	return set, nil
}

// measureMix measures the varied queries of set against mockgql (path,
// key) and against the bare handler answering each with its bytes.
func measureMix(self, dir, name string, srv *mockgql, path, key string, set *mixSet, o options, rep *report) error {
	file := filepath.Join(dir, "mix-"+strings.NewReplacer(" ", "_", ",", "").Replace(name)+".json")
	b, err := json.Marshal(set.answers)
	if err != nil {
		return err
	}
	if err := os.WriteFile(file, b, 0o600); err != nil {
		return err
	}
	bare, err := startBareMode(self, "bare-mix", file)
	if err != nil {
		return err
	}
	defer bare.stop()
	ours := requests(srv.addr, path, set.bodies, "X-API-Key", key)
	theirs := requests(bare.addr, "/mock", set.bodies)
	m, c, err := sideBySide(o.duration, mixLoader(srv.addr, ours, o.conns), mixLoader(bare.addr, theirs, o.conns))
	if err != nil {
		return err
	}
	if m.errors > 0 || c.errors > 0 {
		return fmt.Errorf("%s: %d of %d requests failed (bare: %d)", name, m.errors, m.n, c.errors)
	}
	rep.add(name, set.bytes/len(set.bodies), m, c)
	return nil
}

// compareMix measures the same queries against two projects of one
// server side by side: ours (path, key) against base (basePath, baseKey).
func compareMix(name, baseName string, srv *mockgql, path, key, basePath, baseKey string, bodies []string, o options, rep *report) error {
	ours := requests(srv.addr, path, bodies, "X-API-Key", key)
	theirs := requests(srv.addr, basePath, bodies, "X-API-Key", baseKey)
	m, c, err := sideBySide(o.duration, mixLoader(srv.addr, ours, o.conns), mixLoader(srv.addr, theirs, o.conns))
	if err != nil {
		return err
	}
	if m.errors > 0 || c.errors > 0 {
		return fmt.Errorf("%s: %d of %d requests failed (base: %d)", name, m.errors, m.n, c.errors)
	}
	rep.addNamed(name, baseName, m, c)
	return nil
}

func requests(addr, path string, bodies []string, headers ...string) [][]byte {
	out := make([][]byte, len(bodies))
	for i, b := range bodies {
		out[i] = httpRequest(addr, path, []byte(b), headers...)
	}
	return out
}

// mixLoader is loader over many requests: connection i sends reqs in turn
// from offset i·len/conns.
func mixLoader(addr string, reqs [][]byte, conns int) func(time.Duration) (result, error) {
	return func(d time.Duration) (result, error) {
		return onConns(conns, d, func(i int, deadline time.Time) (result, error) {
			return cycleWorker(addr, reqs, i*len(reqs)/conns, deadline, http.StatusOK)
		})
	}
}

// serveBareMix is the varied scenario's ceiling: a bare gin handler that
// answers each request body with mockgql's answer to it, read once at
// start (a map lookup per request).
func serveBareMix(addrFile, mapFile string) error {
	b, err := os.ReadFile(mapFile)
	if err != nil {
		return err
	}
	var answers map[string]string
	if err := json.Unmarshal(b, &answers); err != nil {
		return err
	}
	bodies := make(map[string][]byte, len(answers))
	for k, v := range answers {
		bodies[k] = []byte(v)
	}
	return serveGin(addrFile, func(c *gin.Context) {
		req, _ := io.ReadAll(c.Request.Body)
		if body, ok := bodies[string(req)]; ok {
			c.Data(http.StatusOK, "application/json", body)
			return
		}
		c.Status(http.StatusNotFound)
	})
}

// mixBench runs the varied scenario: at 10k rows with the default query
// cache and with a 1 MB one (a second server), at 1M rows, and at 1M rows
// after 10,000 mutations against a project without them.
func mixBench(bin, self, dir string, srv *mockgql, fx *fixture, o options, rep *report) error {
	small := mixQueries("mixSmall", mixCount, 1)
	set, err := collectMix(srv, fx.runtimePath, fx.key, small)
	if err != nil {
		return err
	}
	if err := measureMix(self, dir, "list mix 10k (1,000 queries, cache 32 MB)", srv, fx.runtimePath, fx.key, set, o, rep); err != nil {
		return err
	}
	if err := mixSmallCache(bin, self, dir, small, o, rep); err != nil {
		return err
	}
	if o.rowsLarge == 0 {
		return nil
	}
	if err := indexNote(self, dir, o.rowsLarge, rep); err != nil {
		return err
	}
	t0 := time.Now()
	large, err := collectMix(srv, fx.runtimePath, fx.key, mixQueries("mixLarge", mixCount, 2))
	if err != nil {
		return err
	}
	first := time.Since(t0)
	rep.note("first pass of the %d varied queries on %d rows, building the indexes of price, name, category and name's n-grams: %v",
		mixCount, o.rowsLarge, first.Round(time.Millisecond))
	rep.note("import of %d rows over HTTP plus that first pass: %v + %v = %v (target ≤ 5 s)", o.rowsLarge,
		fx.importLarge.Round(time.Millisecond), first.Round(time.Millisecond), (fx.importLarge + first).Round(time.Millisecond))
	rep.note("resident memory after it: %.0f MB (%s)", float64(srv.rss())/1e6, memBreakdown(srv))
	saveHeapProfile()
	if err := measureMix(self, dir, "list mix 1M (1,000 queries, cache 32 MB)", srv, fx.runtimePath, fx.key, large, o, rep); err != nil {
		return err
	}
	key, err := project(srv, "Bench mutated", "benchmut", true)
	if err != nil {
		return err
	}
	t0 = time.Now()
	if err := mutate(srv, "/mock/benchmut/graphql", key, 10_000, o.rowsLarge); err != nil {
		return err
	}
	rep.note("10,000 mutations of the 1M-row table (10 a request): %v; resident memory after them: %.0f MB",
		time.Since(t0).Round(time.Millisecond), float64(srv.rss())/1e6)
	if _, err := collectMix(srv, "/mock/benchmut/graphql", key, mixQueries("mixLarge", 20, 2)); err != nil {
		return err
	}
	if err := compareMix("list mix 1M after 10,000 mutations", "no mutations", srv, "/mock/benchmut/graphql", key,
		fx.runtimePath, fx.key, large.bodies, o, rep); err != nil {
		return err
	}
	rep.note("resident memory after the mix with mutations: %.0f MB (peak %.0f MB)", float64(srv.rss())/1e6, float64(srv.peak())/1e6)
	if os.Getenv("BENCH_PEERS") == "1" {
		return peerBench(srv, fx, o, rep)
	}
	return nil
}

// mixSmallCache measures the 10k mix on a server whose query cache is
// 1 MB and whose answer cache is off: every query is computed.
func mixSmallCache(bin, self, dir string, queries []string, o options, rep *report) error {
	args := []string{"--ip-limit", "0", "--query-cache-mb", "1", "--answer-cache-mb", "0"}
	pp := os.Getenv("BENCH_PPROF_MIX") // this server's profiles of the 4,096 texts (BENCH_PPROF's go to the first server)
	if pp != "" {
		args = append(args, "--debug-addr", pp)
	}
	srv, err := startMockgql(bin, filepath.Join(dir, "cache1"), args...)
	if err != nil {
		return err
	}
	defer srv.stop()
	fx, err := setup(srv, options{rowsSmall: o.rowsSmall})
	if err != nil {
		return err
	}
	set, err := collectMix(srv, fx.runtimePath, fx.key, queries)
	if err != nil {
		return err
	}
	if err := measureMix(self, dir, "list mix 10k (1,000 queries, cache 1 MB)", srv, fx.runtimePath, fx.key, set, o, rep); err != nil {
		return err
	}
	// More texts than the runtime's document cache holds (about 1,000 of
	// these): each is new to it, of one of a few dozen shapes.
	many, err := collectMix(srv, fx.runtimePath, fx.key, mixQueries("mixSmall", mixManyCount, 3))
	if err != nil {
		return err
	}
	name := "list mix 10k (4,096 queries, cache 1 MB)"
	if pp != "" {
		go saveProfiles(pp, name)
	}
	return measureMix(self, dir, name, srv, fx.runtimePath, fx.key, many, o, rep)
}

// mixManyCount is the distinct queries of the scenario whose texts
// overflow the document cache.
const mixManyCount = 4096

// mutate applies n mutations to the Large table of the project at path,
// 10 a request: 40% updates, 40% creates, 20% deletes, of distinct rows.
// A request refused for its time (a loaded machine) is sent again; its
// deletes may then find their rows gone, which is accepted.
func mutate(srv *mockgql, path, key string, n, rows int) error {
	// The first lookup by id builds the dataset's id index; on a loaded
	// machine that may outlast one request's time limit.
	for try := 0; ; try++ {
		_, err := srv.post(path, `{"query":"{ large(id: \"1\") { id } }"}`, "X-API-Key", key)
		if err == nil {
			break
		}
		if try == 20 {
			return err
		}
		time.Sleep(time.Second)
	}
	rnd := rand.New(rand.NewPCG(3, 3))
	ids := rnd.Perm(rows)
	for done := 0; done < n; {
		var b strings.Builder
		b.WriteString("mutation {")
		for i := 0; i < 10 && done < n; i, done = i+1, done+1 {
			id := ids[done] + 1
			price := float64(rnd.IntN(100000)) / 100
			switch x := rnd.IntN(10); {
			case x < 4:
				fmt.Fprintf(&b, ` m%d: updateLarge(id: "%d", input: {price: %g, name: "Changed %d"}) { id }`, i, id, price, id)
			case x < 8:
				fmt.Fprintf(&b, ` m%d: createLarge(input: {name: "New %d", price: %g, category: "cat-%d"}) { id }`, i, done, price, rnd.IntN(50))
			default:
				fmt.Fprintf(&b, ` m%d: deleteLarge(id: "%d") { id }`, i, id)
			}
		}
		b.WriteString(" }")
		body := fmt.Sprintf(`{"query":%q}`, b.String())
		for try := 0; ; try++ {
			t0 := time.Now()
			resp, err := srv.post(path, body, "X-API-Key", key)
			if err != nil && try < 5 && strings.Contains(err.Error(), "503") {
				time.Sleep(time.Second)
				continue
			}
			if err != nil {
				return fmt.Errorf("mutations %d of %d, after %v: %w", done, n, time.Since(t0).Round(time.Millisecond), err)
			}
			if try == 0 && strings.Contains(resp, `"errors"`) {
				return fmt.Errorf("mutations fail: %.300s", resp)
			}
			break
		}
	}
	return nil
}
