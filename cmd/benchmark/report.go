package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"text/tabwriter"
	"time"
)

type row struct {
	name     string
	bytes    int
	ours     result
	bare     result
	baseName string // what "bare" is in this row; "" for the bare gin handler
}

// report collects notes and rows and prints them as a table.
type report struct {
	notes   []string
	rows    []row
	jsonOut string // when set, print also writes the rows' raw numbers there (bench-ab)
}

func (r *report) note(format string, args ...any) {
	r.notes = append(r.notes, fmt.Sprintf(format, args...))
}

func (r *report) add(name string, bytes int, ours, bare result) {
	r.rows = append(r.rows, row{name: name, bytes: bytes, ours: ours, bare: bare})
}

// addNamed adds a row compared with something other than the bare handler.
func (r *report) addNamed(name, base string, ours, other result) {
	r.rows = append(r.rows, row{name: name, ours: ours, bare: other, baseName: base})
}

func us(d time.Duration) string { return fmt.Sprintf("%.0fµs", float64(d.Nanoseconds())/1000) }

func (r *report) print() {
	fmt.Println()
	for _, n := range r.notes {
		fmt.Println("  " + n)
	}
	fmt.Println()
	w := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "scenario\tbytes\tmockgql req/s\tbaseline req/s\tratio\tp50\tp99\tbaseline p50\tbaseline p99\tbaseline\t")
	for _, x := range r.rows {
		base := x.baseName
		if base == "" {
			base = "bare gin"
		}
		fmt.Fprintf(w, "%s\t%d\t%.0f\t%.0f\t%.2f\t%s\t%s\t%s\t%s\t%s\t\n", x.name, x.bytes, x.ours.rps(), x.bare.rps(),
			x.ours.rps()/x.bare.rps(), us(x.ours.pct(0.5)), us(x.ours.pct(0.99)), us(x.bare.pct(0.5)), us(x.bare.pct(0.99)), base)
	}
	w.Flush()
	// Only when both list scenarios ran (not with -only cluster or limits).
	small, large := r.find("list 10k (filter+sort+page)"), r.find("list 1M (filter+sort+page)")
	if small != nil && large != nil {
		fmt.Printf("\n  1M-row list vs 10k-row list (repeated sortField): %.2f of the 10k throughput\n", large.ours.rps()/small.ours.rps())
	}
	if r.jsonOut != "" {
		if err := os.WriteFile(r.jsonOut, r.rawJSON(), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, "benchmark: -json:", err)
		}
	}
}

// rawRow is one scenario's numbers in a round of bench-ab.
type rawRow struct {
	Name    string  `json:"name"`
	RPS     float64 `json:"rps"`
	BaseRPS float64 `json:"baseRps"`
	P50     int64   `json:"p50Ns"`
	P99     int64   `json:"p99Ns"`
}

func (r *report) rawJSON() []byte {
	raw := make([]rawRow, 0, len(r.rows))
	for _, x := range r.rows {
		raw = append(raw, rawRow{Name: x.name, RPS: finite(x.ours.rps()), BaseRPS: finite(x.bare.rps()),
			P50: int64(x.ours.pct(0.5)), P99: int64(x.ours.pct(0.99))})
	}
	b, _ := json.Marshal(raw)
	return b
}

// finite is f, or 0 when f is NaN or infinite (JSON has neither; a row
// without a measurement has 0 requests in 0 s).
func finite(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

// find returns the row of the scenario named name, or nil.
func (r *report) find(name string) *row {
	for i := range r.rows {
		if r.rows[i].name == name {
			return &r.rows[i]
		}
	}
	return nil
}
