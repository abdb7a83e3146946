package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The density group (issue 33 item 6), on a server of its own: how many
// live small projects a node holds per GB of resident memory, and how
// long the first query of a project takes after a restart. A small
// project is an SDL-first one (a to-do schema of two types, generated
// rows) with a RUNTIME key, made live by one query. The node's resident
// memory is read before the projects and after the last one's query; the
// server then restarts on the same data and the first query of a sample
// of the projects is timed (the grain loads from bbolt and compiles).
// Targets: ≥ 10,000 projects per GB, first query p99 ≤ 20 ms.

// liveHeap is the server's live Go heap in bytes after a collection (the
// heap profile's gc=1 collects first), 0 when it cannot be read.
func liveHeap(srv *mockgql, debug string) int64 {
	if resp, err := http.Get("http://" + debug + "/debug/pprof/heap?gc=1"); err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	text, err := srv.get("/metrics")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(line, "go_memstats_heap_alloc_bytes "); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return int64(f)
		}
	}
	return 0
}

// freeAddr returns a free local address.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// densityProjects is how many small projects the group makes.
const densityProjects = 500

// densitySDL is a small project's schema.
const densitySDL = `type Todo { id: ID! title: String! done: Boolean! owner: User! }
type User { id: ID! name: String! email: String! todos: [Todo!]! }
type Query { todos(first: Int): [Todo!]! todo(id: ID!): Todo users: [User!]! }
type Mutation { createTodo(title: String!): Todo! }`

// densityQuery is a small project's query.
const densityQuery = `{"query":"{ todos(first: 3) { id title done owner { name } } }"}`

func densityBench(bin, dir string, o options, rep *report) error {
	data := filepath.Join(dir, "density")
	debug, err := freeAddr()
	if err != nil {
		return err
	}
	flags := []string{"--ip-limit", "0", "--ip-limit-create", "0", "--ip-limit-management", "0", "--ip-limit-public", "0"}
	srv, err := startMockgql(bin, data, append(flags, "--debug-addr", debug)...)
	if err != nil {
		return err
	}
	if err := benchAccount(srv); err != nil {
		srv.stop()
		return err
	}
	type project struct{ slug, key string }
	projects := make([]project, densityProjects)
	// One warm-up project, so that the node's one-off costs (the first
	// compile's code paths, pools) are not counted as the projects'.
	make1 := func(i int) (project, error) {
		d, err := srv.gql(`mutation($n:String!,$s:String!){ createProject(name:$n, sdl:$s) { id slug } }`,
			map[string]any{"n": fmt.Sprintf("Todos %d", i), "s": densitySDL})
		if err != nil {
			return project{}, err
		}
		p := d["createProject"].(map[string]any)
		d, err = srv.gql(`mutation($p:ID!){ createApiKey(projectId:$p, name:"bench", scope: RUNTIME) { value } }`, map[string]any{"p": p["id"]})
		if err != nil {
			return project{}, err
		}
		pr := project{slug: p["slug"].(string), key: d["createApiKey"].(map[string]any)["value"].(string)}
		if _, err := srv.post("/mock/"+pr.slug+"/graphql", densityQuery, "X-API-Key", pr.key); err != nil {
			return project{}, err
		}
		return pr, nil
	}
	if _, err := make1(-1); err != nil {
		srv.stop()
		return err
	}
	liveBefore := liveHeap(srv, debug)
	before := srv.rss()
	t0 := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < densityProjects; i += 4 {
				p, err := make1(i)
				if err != nil {
					errs <- err
					return
				}
				projects[i] = p
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		srv.stop()
		return err
	}
	grew := srv.rss() - before
	made := time.Since(t0)
	live := liveHeap(srv, debug) - liveBefore
	if out := os.Getenv("BENCH_HEAP_PROFILE"); out != "" { // where the projects' memory goes
		if resp, err := http.Get("http://" + debug + "/debug/pprof/heap"); err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			_ = os.WriteFile(out, b, 0o600)
		}
	}
	perProject := float64(grew) / densityProjects
	rep.note("density: %d small SDL projects made live in %v: the node grew %.0f MB resident, %.0f KB a project: %.0f projects per GB (target ≥ 10,000); "+
		"live Go heap after a collection %.0f KB a project; %s",
		densityProjects, made.Round(time.Millisecond), float64(grew)/1e6, perProject/1e3, 1e9/perProject, float64(live)/densityProjects/1e3, memBreakdown(srv))
	srv.stop()

	srv, err = startMockgql(bin, data, flags...)
	if err != nil {
		return err
	}
	defer srv.stop()
	var first []time.Duration
	for i := 0; i < densityProjects; i += densityProjects / 200 {
		t := time.Now()
		if _, err := srv.post("/mock/"+projects[i].slug+"/graphql", densityQuery, "X-API-Key", projects[i].key); err != nil {
			return err
		}
		first = append(first, time.Since(t))
	}
	sort.Slice(first, func(a, b int) bool { return first[a] < first[b] })
	q := func(p float64) time.Duration { return first[int(p*float64(len(first)-1))].Round(10 * time.Microsecond) }
	rep.note("density: first query of a project after a restart, %d projects one after another: p50 %v, p99 %v, max %v (target p99 ≤ 20 ms)",
		len(first), q(0.5), q(0.99), first[len(first)-1].Round(10*time.Microsecond))
	return nil
}
