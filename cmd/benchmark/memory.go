package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// What the bench reports of a server's memory beyond its resident size
// (mockgql.rss): where the pages are, and Go's own figures.

// memBreakdown splits the server's resident memory: anonymous (Go's
// heap, stacks, runtime) and file-backed pages (/proc), and Go's figures
// from /metrics: the heap's objects (live and garbage not yet collected),
// its in-use spans, its free pages not yet returned to the OS (the
// scavenger keeps about the next collection's goal), that goal, stacks.
func memBreakdown(srv *mockgql) string {
	text, err := srv.get("/metrics")
	if err != nil {
		return "no /metrics: " + err.Error()
	}
	v := map[string]float64{}
	for _, line := range strings.Split(text, "\n") {
		if name, val, ok := strings.Cut(line, " "); ok && strings.HasPrefix(name, "go_memstats_") {
			f, _ := strconv.ParseFloat(val, 64)
			v[strings.TrimPrefix(name, "go_memstats_")] = f / 1e6
		}
	}
	return fmt.Sprintf("anonymous %.0f MB, file-backed %.0f MB (%s); Go heap: objects %.0f MB, in-use spans %.0f MB, "+
		"free not yet returned %.0f MB, returned %.0f MB, next collection at %.0f MB; stacks %.0f MB; Go total %.0f MB",
		float64(srv.status("RssAnon:"))/1e6, float64(srv.status("RssFile:"))/1e6, fileBacked(srv),
		v["heap_alloc_bytes"], v["heap_inuse_bytes"], v["heap_idle_bytes"]-v["heap_released_bytes"], v["heap_released_bytes"],
		v["next_gc_bytes"], v["stack_inuse_bytes"], v["sys_bytes"])
}

// saveHeapProfile saves the server's heap profile to BENCH_HEAP_PROFILE
// when it and BENCH_PPROF (the server's --debug-addr) are set: where the
// memory after the first pass goes.
func saveHeapProfile() {
	out, pp := os.Getenv("BENCH_HEAP_PROFILE"), os.Getenv("BENCH_PPROF")
	if out == "" || pp == "" {
		return
	}
	resp, err := http.Get("http://" + pp + "/debug/pprof/heap")
	if err != nil {
		fmt.Fprintln(os.Stderr, "heap profile:", err)
		return
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil {
		err = os.WriteFile(out, b, 0o600)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "heap profile:", err)
	}
}

// fileBacked names the files whose mapped pages are resident in the
// server (its binary, bbolt's data files) with their resident MB, from
// /proc/<pid>/smaps.
func fileBacked(srv *mockgql) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps", srv.cmd.Process.Pid))
	if err != nil {
		return err.Error()
	}
	kb := map[string]int64{}
	file := ""
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 6 && strings.Contains(f[0], "-") && strings.HasPrefix(f[5], "/"):
			file = filepath.Base(f[5])
		case len(f) >= 5 && strings.Contains(f[0], "-"):
			file = "" // anonymous or special
		case len(f) == 3 && f[0] == "Rss:" && file != "":
			n, _ := strconv.ParseInt(f[1], 10, 64)
			kb[file] += n
		}
	}
	var parts []string
	for name, n := range kb {
		if n >= 1024 {
			parts = append(parts, fmt.Sprintf("%s %.0f MB", name, float64(n)*1024/1e6))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}
