package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/mockgql/mockgql/dataset"
)

// indexStep is one timed step of indexBuild, the bytes it added to the
// dataset and the bytes it allocated (kept or temporary).
type indexStep struct {
	Name  string
	Time  time.Duration
	Bytes int64
	Alloc uint64
}

// allocated returns the bytes the process has allocated so far.
func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// indexBuild is `benchmark index <rows> <out>`: run pinned like the server
// (core 0, GOMAXPROCS=1), it reads the large dataset in-process, then
// builds each index the mix uses one after the other, and writes to out
// each step's time and the bytes it added to the dataset's memory.
func indexBuild(rowsArg, out string) error {
	n, err := strconv.Atoi(rowsArg)
	if err != nil {
		return err
	}
	data := rows(n)
	if path := os.Getenv("MGQ_INDEX_CPUPROFILE"); path != "" {
		stop, err := cpuProfile(path)
		if err != nil {
			return err
		}
		defer stop()
	}
	var steps []indexStep
	a0, t0 := allocated(), time.Now()
	d, err := dataset.Read(bytes.NewReader(data), dataset.Options{ImportCode: "large", Format: dataset.JSON})
	if err != nil {
		return err
	}
	steps = append(steps, indexStep{"read (columns)", time.Since(t0), d.MemoryBytes(), allocated() - a0})
	for _, st := range []struct {
		name  string
		build func()
	}{
		{"order of price", func() { d.Order("price") }},
		{"order of name", func() { d.Order("name") }},
		{"order of category", func() { d.Order("category") }},
		{"n-grams of name", func() { d.Grams("name") }},
		{"id lookup", func() { d.Lookup("id", "1") }},
	} {
		before, a0 := d.MemoryBytes(), allocated()
		t0 := time.Now()
		st.build()
		steps = append(steps, indexStep{st.name, time.Since(t0), d.MemoryBytes() - before, allocated() - a0})
	}
	if path := os.Getenv("MGQ_INDEX_MEMPROFILE"); path != "" { // what each step allocates
		if err := writeAllocs(path); err != nil {
			return err
		}
	}
	b, err := json.Marshal(steps)
	if err != nil {
		return err
	}
	return os.WriteFile(out, b, 0o600)
}

// cpuProfile starts a CPU profile into path (MGQ_INDEX_CPUPROFILE, to
// find where an import or a build spends its time) and returns its stop.
func cpuProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// writeAllocs writes the allocation profile to path.
func writeAllocs(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return pprof.Lookup("allocs").WriteTo(f, 0)
}

// indexNote runs indexBuild pinned and notes its figures: what importing
// and indexing the large dataset costs on the server's core, per index.
func indexNote(self, dir string, n int, rep *report) error {
	out := filepath.Join(dir, "indexes.json")
	cmd := pinned(self, "index", strconv.Itoa(n), out)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("index build: %w", err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return err
	}
	var steps []indexStep
	if err := json.Unmarshal(b, &steps); err != nil {
		return err
	}
	var parts []string
	var total time.Duration
	for _, s := range steps {
		total += s.Time
		parts = append(parts, fmt.Sprintf("%s %v (%.1f MB kept, %.0f MB allocated)", s.Name, s.Time.Round(time.Millisecond),
			float64(s.Bytes)/1e6, float64(s.Alloc)/1e6))
	}
	rep.note("in-engine on the server's core, %d rows: %s; read + every index %v", n, strings.Join(parts, ", "), total.Round(time.Millisecond))
	return nil
}
