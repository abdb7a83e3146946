package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json's TestEvent).
type event struct {
	Action     string
	Package    string
	ImportPath string // build-output and build-fail events
	Test       string
	Elapsed    float64 // seconds
	Output     string
}

// line is a line of output and the test or subtest that wrote it.
type line struct{ test, text string }

// result is a finished top-level test.
type result struct {
	Package, Test string
	Elapsed       time.Duration
	Action        string // pass, fail or skip
}

// report turns a `go test -json` stream into go test's plain output.
// The zero value is not usable; make one with newReport. Not safe for
// concurrent use.
type report struct {
	out         io.Writer
	pending     map[string][]line   // package + "\x00" + top-level test: its (and its subtests') output so far
	failedTests map[string]bool     // package + "\x00" + test or subtest that failed
	pkgOut      map[string][]string // package: what its binary wrote outside any test
	results     []result
	failed      bool // a test, a package or a build failed
	events      int
}

func newReport(out io.Writer) *report {
	return &report{out: out, pending: map[string][]line{}, failedTests: map[string]bool{}, pkgOut: map[string][]string{}}
}

// read consumes the stream; lines that are not JSON events (go test's
// own complaints, a panic in a test binary that -json could not frame)
// are printed as they are and count as a failure.
func (r *report) read(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(r.out, "%s\n", line)
			r.failed = true
			continue
		}
		r.events++
		r.handle(e)
	}
	r.flushAll()
	return sc.Err()
}

// handle prints what go test without -json prints for e: package lines
// (ok, FAIL, build errors) at once, a test's output only when it fails.
func (r *report) handle(e event) {
	switch {
	case e.Action == "build-output":
		fmt.Fprint(r.out, e.Output)
	case e.Action == "build-fail":
		r.failed = true
	case e.Test == "":
		r.packageEvent(e)
	default:
		r.testEvent(e)
	}
}

// packageEvent handles what a test binary writes outside any test: go
// test without -v shows all of it for a failing package, and only the
// summary line ("ok  ", "?   ") for one that passed.
func (r *report) packageEvent(e event) {
	switch e.Action {
	case "output":
		// The binary speaks outside any test: it has ended (FAIL, a
		// timeout's panic), so the tests still running never will.
		r.flushPackage(e.Package)
		r.pkgOut[e.Package] = append(r.pkgOut[e.Package], e.Output)
	case "fail":
		r.failed = true
		r.flushPackage(e.Package)
		for _, l := range r.pkgOut[e.Package] {
			fmt.Fprint(r.out, l)
		}
		delete(r.pkgOut, e.Package)
	case "pass", "skip":
		r.flushPackage(e.Package)
		for _, l := range r.pkgOut[e.Package] {
			if strings.HasPrefix(l, "ok  ") || strings.HasPrefix(l, "?   ") {
				fmt.Fprint(r.out, l)
			}
		}
		delete(r.pkgOut, e.Package)
	}
}

func (r *report) testEvent(e event) {
	top, _, sub := strings.Cut(e.Test, "/")
	key := e.Package + "\x00" + top
	switch e.Action {
	case "output":
		if !strings.HasPrefix(e.Output, "=== ") { // RUN, PAUSE, CONT, NAME: -v only
			r.pending[key] = append(r.pending[key], line{e.Test, e.Output})
		}
	case "fail", "pass", "skip":
		if e.Action == "fail" {
			r.failed = true
			r.failedTests[e.Package+"\x00"+e.Test] = true
		}
		if sub {
			return
		}
		if e.Action == "fail" {
			r.print(e.Package, key, true)
		}
		delete(r.pending, key)
		r.results = append(r.results, result{e.Package, e.Test, time.Duration(e.Elapsed * float64(time.Second)), e.Action})
	}
}

// print writes a top-level test's output: with onlyFailed, as go test
// does without -v, only the lines of the test and subtests that failed.
func (r *report) print(pkg, key string, onlyFailed bool) {
	for _, l := range r.pending[key] {
		if !onlyFailed || r.failedTests[pkg+"\x00"+l.test] {
			fmt.Fprint(r.out, l.text)
		}
	}
}

// flushPackage prints the output of a package's tests that never ended
// (the binary panicked or timed out while they ran).
func (r *report) flushPackage(pkg string) {
	var keys []string
	for k := range r.pending {
		if strings.HasPrefix(k, pkg+"\x00") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		r.print(pkg, k, false)
		delete(r.pending, k)
	}
}

func (r *report) flushAll() {
	pkgs := map[string]bool{}
	for pkg, lines := range r.pkgOut { // the stream ended before the package did
		for _, l := range lines {
			fmt.Fprint(r.out, l)
		}
		delete(r.pkgOut, pkg)
		r.failed = true
	}
	for k := range r.pending {
		pkg, _, _ := strings.Cut(k, "\x00")
		pkgs[pkg] = true
	}
	for pkg := range pkgs {
		r.flushPackage(pkg)
	}
}

// slowest writes the n slowest top-level tests, slowest first.
func (r *report) slowest(w io.Writer, n int) {
	res := append([]result(nil), r.results...)
	sort.SliceStable(res, func(i, j int) bool { return res[i].Elapsed > res[j].Elapsed })
	if len(res) > n {
		res = res[:n]
	}
	fmt.Fprintf(w, "\nslowest %d tests of %d:\n", len(res), len(r.results))
	for _, t := range res {
		fmt.Fprintf(w, "%8.2fs  %-4s  %s  %s\n", t.Elapsed.Seconds(), t.Action, t.Package, t.Test)
	}
}
