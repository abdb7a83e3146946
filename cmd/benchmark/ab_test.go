package main

import (
	"math"
	"testing"
	"time"
)

func TestQuantile(t *testing.T) {
	cases := []struct {
		name   string
		sorted []float64
		p      float64
		want   float64
	}{
		{"empty", nil, 0.5, 0},
		{"one", []float64{2}, 0.25, 2},
		{"odd median", []float64{1, 2, 9}, 0.5, 2},
		{"even median interpolates", []float64{1, 2, 4, 9}, 0.5, 3},
		{"first quartile of five", []float64{1, 2, 3, 4, 5}, 0.25, 2},
		{"third quartile of six", []float64{1, 2, 3, 4, 5, 6}, 0.75, 4.75},
		{"max", []float64{1, 2, 3}, 1, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := quantile(c.sorted, c.p); math.Abs(got-c.want) > 1e-9 {
				t.Fatalf("quantile(%v, %v) = %v, want %v", c.sorted, c.p, got, c.want)
			}
		})
	}
}

// TestABCompare pairs rounds by index and scenarios by name, leaves out
// rows without requests and scenarios missing on one side, and summarises
// the per-round ratios.
func TestABCompare(t *testing.T) {
	olds := [][]rawRow{
		{{Name: "list", RPS: 100, BaseRPS: 200}, {Name: "write", RPS: 50}, {Name: "flow", RPS: 0}, {Name: "gone", RPS: 10}},
		{{Name: "list", RPS: 200, BaseRPS: 400}, {Name: "write", RPS: 40}},
		{{Name: "list", RPS: 100}, {Name: "write", RPS: 50}},
		{{Name: "list", RPS: 100}, {Name: "write", RPS: 50}},
		{{Name: "list", RPS: 100}, {Name: "write", RPS: 50}},
	}
	news := [][]rawRow{
		{{Name: "write", RPS: 100}, {Name: "list", RPS: 110, BaseRPS: 100}, {Name: "flow", RPS: 0}, {Name: "added", RPS: 5}},
		{{Name: "list", RPS: 180, BaseRPS: 360}, {Name: "write", RPS: 60}},
		{{Name: "list", RPS: 105}, {Name: "write", RPS: 50}},
		{{Name: "list", RPS: 120}, {Name: "write", RPS: 75}},
		{{Name: "list", RPS: 100}, {Name: "write", RPS: 25}},
	}
	got := abCompare(olds, news)
	if len(got) != 2 || got[0].name != "list" || got[1].name != "write" {
		t.Fatalf("lines %+v, want list and write in the old run's order", got)
	}
	type want struct{ median, q1, q3, low, high, oldRPS, newRPS float64 }
	wants := map[string]want{
		// ratios 1.1, 0.9, 1.05, 1.2, 1.0 → sorted 0.9 1.0 1.05 1.1 1.2
		"list": {1.05, 1.0, 1.1, 0.9, 1.2, 100, 110},
		// ratios 2, 1.5, 1, 1.5, 0.5 → sorted 0.5 1 1.5 1.5 2
		"write": {1.5, 1, 1.5, 0.5, 2, 50, 60},
	}
	for _, l := range got {
		w := wants[l.name]
		gotV := []float64{l.median, l.q1, l.q3, l.low, l.high, l.oldRPS, l.newRPS}
		wantV := []float64{w.median, w.q1, w.q3, w.low, w.high, w.oldRPS, w.newRPS}
		for i := range gotV {
			if math.Abs(gotV[i]-wantV[i]) > 1e-9 {
				t.Errorf("%s: median, q1, q3, min, max, old, new = %v, want %v", l.name, gotV, wantV)
				break
			}
		}
		// Only list has baselines, in its first two rounds: (110/100)/(100/200)
		// = 2.2, (180/360)/(200/400) = 1.
		if l.name == "list" && (len(l.rel) != 2 || math.Abs(l.relMedian-1.6) > 1e-9 || l.relLo != 1 || math.Abs(l.relHi-2.2) > 1e-9) {
			t.Errorf("list vs its baseline: %v median %v min %v max %v, want [2.2 1] 1.6 1 2.2", l.rel, l.relMedian, l.relLo, l.relHi)
		}
		if l.name == "write" && len(l.rel) != 0 {
			t.Errorf("write has no baseline, got %v", l.rel)
		}
		if l.rounds != 5 {
			t.Errorf("%s: %d rounds, want 5", l.name, l.rounds)
		}
	}
}

// TestRoundJSON reads back what a round writes, a row without
// measurement (0 requests in 0 s, NaN) included.
func TestRoundJSON(t *testing.T) {
	r := &report{}
	r.add("list", 10, result{n: 300, elapsed: 3 * time.Second, lat: []time.Duration{1, 2, 3}}, result{n: 600, elapsed: 3 * time.Second})
	r.addNamed("flow", "none", result{}, result{})
	rows, err := parseRound(r.rawJSON())
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Name != "list" || rows[0].RPS != 100 || rows[0].BaseRPS != 200 || rows[0].P50 != 2 || rows[1].RPS != 0 {
		t.Fatalf("rows %+v", rows)
	}
	if _, err := parseRound([]byte("not json")); err == nil {
		t.Fatal("a broken round parsed")
	}
}
