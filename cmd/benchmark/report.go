package main

import (
	"fmt"
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
	notes []string
	rows  []row
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
