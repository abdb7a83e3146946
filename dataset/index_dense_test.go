package dataset

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestLookupDense checks the value-grouped lookup of integer columns
// against each row's Key, for every key the rows have and keys they do not
// (other forms of the same number, out of the span, text), and that a
// column it cannot hold (a fraction, -0, text, a wide span) keeps the hash
// lookup with the same answers.
func TestLookupDense(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name   string
		value  func(i int) string
		dense  bool
		unique bool // each value's row kept, not groups
	}{
		{"ids", func(i int) string { return fmt.Sprint(i + 1) }, true, true},
		{"unique with gaps, negatives and nulls", func(i int) string {
			switch i % 7 {
			case 0:
				return "null"
			case 1:
				return ""
			}
			return fmt.Sprint(500 - 3*i)
		}, true, true},
		{"ids but one repeated", func(i int) string { return fmt.Sprint(max(i, 1)) }, true, false},
		{"foreign keys with nulls", func(i int) string {
			switch rnd.IntN(10) {
			case 0:
				return "null"
			case 1:
				return ""
			}
			return fmt.Sprint(rnd.IntN(50) - 10)
		}, true, false},
		{"a fraction", func(i int) string { return []string{"1", "2.5", "3"}[i%3] }, false, false},
		{"minus zero", func(i int) string { return []string{"1", "-0", "0"}[i%3] }, false, false},
		{"text", func(i int) string { return []string{"1", `"2"`, "3"}[i%3] }, false, false},
		{"wide span", func(i int) string { return fmt.Sprint(i * 100000) }, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			for i := 0; i < 500; i++ {
				if v := tc.value(i); v == "" {
					b.WriteString("{}\n")
				} else {
					fmt.Fprintf(&b, `{"k":%s}`+"\n", v)
				}
			}
			d := mustRead(t, NDJSON, b.String())
			keys := []string{"", "0", "-0", "1", "01", "1.0", "2.5", "2", "-10", "-11", "39", "40", "500", "501", "1e3", "x", "-", "99999999999999"}
			want := map[string][]int32{}
			for r := 0; r < d.Len(); r++ {
				k := d.Value(r, "k").Key()
				want[k] = append(want[k], int32(r))
				keys = append(keys, k)
			}
			for _, k := range keys {
				if got := d.Lookup("k", k); !slices.Equal(got, want[k]) {
					t.Fatalf("Lookup(%q) = %v, want %v", k, got, want[k])
				}
			}
			dk := d.lookups["k"].dense
			if dense := dk != nil; dense != tc.dense {
				t.Fatalf("dense = %v, want %v", dense, tc.dense)
			}
			if unique := dk != nil && dk.one != nil; unique != tc.unique {
				t.Fatalf("unique = %v, want %v", unique, tc.unique)
			}
		})
	}
}
