package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// scenario is one request measured against mockgql and the bare handler.
type scenario struct {
	name  string
	query string
}

func run(o options) error {
	pinSelf()
	dir, err := os.MkdirTemp("", "mockgql-bench-")
	if err != nil {
		return err
	}
	if !o.keep {
		defer os.RemoveAll(dir)
	}
	bin := o.mockgql
	if bin == "" {
		bin = filepath.Join(dir, "mockgql")
		if err := buildMockgql(".", bin); err != nil {
			return err
		}
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if o.only != "" && o.runs("subscriptions") { // a server of its own; no datasets of the other groups
		report := &report{jsonOut: o.jsonOut}
		err := subscriptionsBench(bin, dir, o, report)
		report.print()
		return err
	}
	if o.only != "" && o.runs("density") { // servers of its own; with -only alone
		report := &report{jsonOut: o.jsonOut}
		err := densityBench(bin, dir, o, report)
		report.print()
		return err
	}
	if o.only == "sandbox" { // a server of its own, with the small dataset only
		report := &report{jsonOut: o.jsonOut}
		err := sandboxBench(bin, dir, o, report)
		report.print()
		return err
	}
	report := &report{jsonOut: o.jsonOut}
	if o.runs("sdl") {
		if err := sdlBench(bin, dir, o, report); err != nil {
			report.print()
			return fmt.Errorf("sdl: %w", err)
		}
		if o.only == "sdl" { // a server of its own: the main server's setup is not needed
			report.print()
			return nil
		}
	}
	if o.runs("schema") {
		if err := schemaBench(bin, self, dir, o, report); err != nil {
			report.print()
			return fmt.Errorf("schema: %w", err)
		}
		if o.only == "schema" { // a server of its own, as sdl
			report.print()
			return nil
		}
	}
	// Every per-IP window off: the groups create sessions and projects
	// from one address far faster than a person would (the limits group
	// measures the windows on servers of its own).
	srv, err := startMockgql(bin, filepath.Join(dir, "main"), "--ip-limit", "0", "--ip-limit-create", "0",
		"--ip-limit-management", "0", "--ip-limit-public", "0")
	if err != nil {
		return err
	}
	defer srv.stop()
	fx, err := setup(srv, o)
	if err != nil {
		return err
	}
	report.note("import %d rows (JSON, %.0f MB): %v", o.rowsLarge, float64(fx.largeBytes)/1e6, fx.importLarge.Round(time.Millisecond))
	report.note("first sorted+filtered query on %d rows (builds the sort index): %v", o.rowsLarge, fx.firstLarge.Round(time.Millisecond))
	for i, sc := range fx.scenarios {
		// The repeated group is the list group's first two scenarios, one
		// repeated query at 10k and at 1M rows (issue 33's request path).
		if !o.runs("list") && !(o.runs("repeated") && i < 2) {
			break
		}
		if err := measure(self, dir, srv, fx, sc, o, report); err != nil {
			return fmt.Errorf("%s: %w", sc.name, err)
		}
	}
	if o.runs("cors") {
		if err := corsBench(srv, fx, o, report); err != nil {
			report.print()
			return fmt.Errorf("cors: %w", err)
		}
	}
	if o.runs("faults") {
		if err := faultsBench(bin, dir, srv, fx, o, report); err != nil {
			return fmt.Errorf("faults: %w", err)
		}
	}
	if o.runs("mix") {
		if err := mixBench(bin, self, dir, srv, fx, o, report); err != nil {
			report.print() // what was measured before
			return fmt.Errorf("mix: %w", err)
		}
	}
	if o.runs("relations") {
		if err := relationsBench(bin, self, dir, o, report); err != nil {
			report.print()
			return fmt.Errorf("relations: %w", err)
		}
	}
	if o.runs("cluster") {
		if err := clusterBench(bin, dir, srv, fx, o, report); err != nil {
			report.print()
			return fmt.Errorf("cluster: %w", err)
		}
	}
	if o.runs("session") {
		if err := sessionFlow(srv, report); err != nil {
			report.print()
			return fmt.Errorf("session flow: %w", err)
		}
	}
	if o.runs("mcp") {
		if err := mcpFlow(srv, report); err != nil {
			report.print()
			return fmt.Errorf("mcp flow: %w", err)
		}
	}
	if o.runs("budget") {
		if err := docBudget(self, dir, srv, fx, o, report); err != nil {
			report.print()
			return fmt.Errorf("budget: %w", err)
		}
		if err := schemaBudget(bin, dir, report); err != nil {
			report.print()
			return fmt.Errorf("budget: %w", err)
		}
	}
	if o.runs("modelsize") {
		if err := modelSize(bin, dir, report); err != nil {
			report.print()
			return fmt.Errorf("modelsize: %w", err)
		}
	}
	if o.runs("limits") {
		if err := limits(bin, self, dir, o, report); err != nil {
			report.print()
			return fmt.Errorf("limits: %w", err)
		}
	}
	if o.runs("sandbox") {
		if err := sandboxBench(bin, dir, o, report); err != nil {
			report.print()
			return fmt.Errorf("sandbox: %w", err)
		}
	}
	if o.runs("subscriptions") {
		if err := subscriptionsBench(bin, dir, o, report); err != nil {
			report.print()
			return fmt.Errorf("subscriptions: %w", err)
		}
	}
	if d, err := time.ParseDuration(os.Getenv("BENCH_HOLD")); err == nil { // time to take profiles by hand
		fmt.Println("holding the server for", d)
		time.Sleep(d)
	}
	report.note("resident memory of mockgql with %d + %d rows: %.0f MB after the import, %.0f MB after the first sorted query, %.0f MB after all scenarios (peak %.0f MB)",
		o.rowsSmall, o.rowsLarge, float64(fx.rssImported)/1e6, float64(fx.rssIndexed)/1e6, float64(srv.rss())/1e6, float64(srv.peak())/1e6)
	report.print()
	return nil
}

// buildMockgql builds the mockgql command of the module in src into bin.
func buildMockgql(src, bin string) error {
	fmt.Println("building mockgql in", src, "...")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/mockgql")
	cmd.Dir = src
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build in %s: %v\n%s", src, err, out)
	}
	return nil
}

// measure runs one scenario against the bare handler, then mockgql.
func measure(self, dir string, srv *mockgql, fx *fixture, sc scenario, o options, rep *report) error {
	body := fmt.Sprintf(`{"query":%q}`, sc.query)
	resp, err := srv.post(fx.runtimePath, body, "X-API-Key", fx.key)
	if err != nil {
		return err
	}
	if strings.Contains(resp, `"errors"`) {
		return fmt.Errorf("query fails: %s", resp)
	}
	bodyFile := filepath.Join(dir, "bare-"+sc.name+".json")
	if err := os.WriteFile(bodyFile, []byte(resp), 0o600); err != nil {
		return err
	}
	bare, err := startBare(self, dir, bodyFile)
	if err != nil {
		return err
	}
	defer bare.stop()
	bareReq := httpRequest(bare.addr, "/mock", []byte(body))
	ourReq := httpRequest(srv.addr, fx.runtimePath, []byte(body), "X-API-Key", fx.key)
	// Warm both, then measure them in alternating slices.
	if _, err := load(bare.addr, bareReq, o.conns, 300*time.Millisecond, 200); err != nil {
		return err
	}
	if _, err := load(srv.addr, ourReq, o.conns, 300*time.Millisecond, 200); err != nil {
		return err
	}
	if pp := os.Getenv("BENCH_PPROF"); pp != "" && (sc.name == fx.scenarios[0].name || os.Getenv("BENCH_PPROF_ALL") != "") {
		go saveProfiles(pp, sc.name)
	}
	ourCPU, bareCPU := srv.cpu(), procCPU(bare.cmd.Process.Pid)
	m, b, err := sideBySide(o.duration, loader(srv.addr, ourReq, o.conns, 200), loader(bare.addr, bareReq, o.conns, 200))
	if err != nil {
		return err
	}
	if m.errors > 0 {
		return fmt.Errorf("%d of %d requests failed", m.errors, m.n)
	}
	rep.add(sc.name, len(resp), m, b)
	// CPU a request: each server is idle while the other is measured, so
	// its CPU over the run is its requests'. Steadier than requests a
	// second on a loaded machine, where the share of the core moves.
	if ours, theirs := perRequest(srv.cpu()-ourCPU, m.n), perRequest(procCPU(bare.cmd.Process.Pid)-bareCPU, b.n); ours > 0 && theirs > 0 {
		rep.note("%s: CPU a request %.1f µs, bare gin %.1f µs: %.2f of the ceiling by CPU", sc.name, ours, theirs, theirs/ours)
	}
	return nil
}

// bareServer is the reference process.
type bareServer struct {
	cmd  *exec.Cmd
	addr string
}

func startBare(self, dir, bodyFile string) (*bareServer, error) {
	return startBareMode(self, "bare", bodyFile)
}

// startBareMode starts the reference in a mode (bare, bare-mix) with its
// data file.
func startBareMode(self, mode, bodyFile string) (*bareServer, error) {
	addrFile := bodyFile + ".addr"
	cmd := pinned(self, mode, addrFile, bodyFile)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	for i := 0; i < 200; i++ {
		if b, err := os.ReadFile(addrFile); err == nil && len(b) > 0 {
			if c, err := net.Dial("tcp", string(b)); err == nil {
				c.Close()
				return &bareServer{cmd: cmd, addr: string(b)}, nil
			}
		}
		time.Sleep(25 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	return nil, fmt.Errorf("bare server did not start")
}

func (b *bareServer) stop() { _ = b.cmd.Process.Kill(); _, _ = b.cmd.Process.Wait() }

// saveProfiles takes a CPU profile and the allocations of the same
// seconds from the server's --debug-addr while a scenario is
// measured (BENCH_PPROF_SECONDS, 2 by default), into BENCH_PPROF_DIR (the temporary folder by default) as
// bench-cpu-<scenario>.pb.gz and bench-allocs-<scenario>.pb.gz, for `go
// tool pprof`.
func saveProfiles(addr, scenario string) {
	dir := os.Getenv("BENCH_PPROF_DIR")
	if dir == "" {
		dir = os.TempDir()
	}
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '-'
	}, scenario)
	secs := os.Getenv("BENCH_PPROF_SECONDS")
	if secs == "" {
		secs = "2"
	}
	profiles := map[string]string{"cpu": addr + "/debug/pprof/profile", "allocs": addr + "/debug/pprof/allocs"}
	if bare := os.Getenv("BENCH_BARE_PPROF"); bare != "" { // the ceiling's, of the same seconds
		profiles["bare-cpu"] = bare + "/debug/pprof/profile"
	}
	for kind, url := range profiles {
		go func() {
			resp, err := http.Get("http://" + url + "?seconds=" + secs)
			if err != nil {
				return
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			if err == nil && resp.StatusCode == http.StatusOK {
				_ = os.WriteFile(filepath.Join(dir, "bench-"+kind+"-"+name+".pb.gz"), b, 0o600)
			}
		}()
	}
}

// perRequest is cpu per request in µs, 0 without requests.
func perRequest(cpu time.Duration, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(cpu.Microseconds()) / float64(n)
}
