// Command benchmark is `make bench`: it builds mockgql, runs it pinned to
// one core, drives it from another core with a lean HTTP/1.1 load generator,
// and prints each scenario next to a bare gin handler that returns the same
// bytes, measured in the same run. Ratios, not absolute numbers, are the
// point: both sides share the machine's noise.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"time"
)

type options struct {
	rowsSmall, rowsLarge int
	duration             time.Duration
	conns                int
	keep                 bool
	only                 string // run one group: list, repeated, faults, mix, relations, cors, cluster, session, mcp, limits, budget, modelsize, sdl, schema, sandbox, density, subscriptions
	mockgql              string // a built mockgql to measure instead of building ./cmd/mockgql (bench-ab's rounds)
	jsonOut              string // also write the rows' raw numbers to this file as JSON (bench-ab's rounds)
	ab                   string // a commit to compare with, interleaved (make bench-ab)
	rounds               int    // bench-ab's alternating rounds
}

func (o options) runs(group string) bool { return o.only == "" || o.only == group }

func main() {
	if len(os.Args) == 4 && os.Args[1] == "index" {
		if err := indexBuild(os.Args[2], os.Args[3]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) == 4 && (os.Args[1] == "bare" || os.Args[1] == "bare-mix") {
		serve := serveBare
		if os.Args[1] == "bare-mix" {
			serve = serveBareMix
		}
		if err := serve(os.Args[2], os.Args[3]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) == 2 && os.Args[1] == "schema-fixture" { // the schema group's SDL and queries, for graphql's tests
		fmt.Print(schemaFixture())
		return
	}
	var o options
	flag.IntVar(&o.rowsSmall, "small", 10_000, "rows of the small dataset")
	flag.IntVar(&o.rowsLarge, "large", 1_000_000, "rows of the large dataset")
	flag.DurationVar(&o.duration, "duration", 3*time.Second, "load time per measurement")
	flag.IntVar(&o.conns, "conns", 8, "concurrent connections")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary folder")
	flag.StringVar(&o.only, "only", "", "run only one group of scenarios: list, repeated, faults, mix, relations, cors, cluster, session, mcp, limits, budget, modelsize, sdl, schema, sandbox, density or subscriptions")
	flag.StringVar(&o.mockgql, "mockgql", "", "measure this mockgql binary instead of building ./cmd/mockgql")
	flag.StringVar(&o.jsonOut, "json", "", "also write each scenario's raw numbers to this file as JSON")
	flag.StringVar(&o.ab, "ab", "", "compare with this commit: build it and run both interleaved (make bench-ab)")
	flag.IntVar(&o.rounds, "rounds", 6, "with -ab: alternating rounds (at least 5)")
	flag.Parse()
	runner := run
	if o.ab != "" {
		runner = abRun
	}
	if err := runner(o); err != nil {
		fmt.Fprintln(os.Stderr, "benchmark:", err)
		os.Exit(1)
	}
}

// pinSelf puts the load generator on the last core, the servers get core 0.
func pinSelf() {
	runtime.GOMAXPROCS(1)
	if runtime.NumCPU() > 1 {
		_ = exec.Command("taskset", "-a", "-cp", strconv.Itoa(runtime.NumCPU()-1), strconv.Itoa(os.Getpid())).Run()
	}
}

// pinned returns a command that runs on core 0 with one P.
func pinned(name string, args ...string) *exec.Cmd {
	var cmd *exec.Cmd
	if _, err := exec.LookPath("taskset"); err == nil && runtime.NumCPU() > 1 {
		cmd = exec.Command("taskset", append([]string{"-c", "0", name}, args...)...)
	} else {
		cmd = exec.Command(name, args...)
	}
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	return cmd
}
