package dataset

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func TestSparseColumns(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, `{"id":%d`, i)
		if i != 1500 {
			fmt.Fprintf(&b, `,"most":"m%d"`, i%4) // a bitmap
		}
		if i%100 == 7 {
			fmt.Fprintf(&b, `,"rare":%d`, i) // a row list
		}
		if i < 3 {
			b.WriteString(`,"early":true`) // a prefix of the rows
		}
		b.WriteString("}\n")
	}
	d := mustRead(t, NDJSON, b.String())
	tests := []struct {
		path   string
		bitmap bool
		count  int
	}{{"most", true, 2999}, {"rare", false, 30}, {"early", false, 3}}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			p := d.Column(tt.path).present
			if p == nil || (p.bits != nil) != tt.bitmap || p.count() != tt.count {
				t.Fatalf("presence = %+v, want bitmap %t of %d", p, tt.bitmap, tt.count)
			}
			present := 0
			for row := range d.Len() {
				if d.Column(tt.path).has(row) {
					present++
				}
			}
			if present != tt.count {
				t.Errorf("%d rows have %s, want %d", present, tt.path, tt.count)
			}
			checkSorted(t, d, tt.path)
		})
	}
	if d.Column("id").present != nil {
		t.Errorf("id is present in every row but has a presence map")
	}
	checks := []struct {
		row  int
		path string
		want Value
	}{
		{1500, "most", Value{}}, {1501, "most", str("m1")}, {107, "rare", num(107)}, {108, "rare", Value{}},
		{2, "early", boolean(true)}, {3, "early", Value{}}, {2999, "most", str("m3")},
	}
	for _, c := range checks {
		if got := d.Value(c.row, c.path); got != c.want {
			t.Errorf("Value(%d, %q) = %+v, want %+v", c.row, c.path, got, c.want)
		}
	}
	if got, want := string(d.Document(1500)), `{"id":1500}`; got != want {
		t.Errorf("Document(1500) = %s, want %s", got, want)
	}
	if got := d.Lookup("rare", "207"); len(got) != 1 || got[0] != 207 {
		t.Errorf("Lookup(rare, 207) = %v", got)
	}
	back, err := Decode(bytes.NewReader(encode(t, d)))
	if err != nil {
		t.Fatal(err)
	}
	sameDataset(t, d, back)
}

// TestSparseMemory checks that a file of ever new keys, each in few rows,
// costs memory in proportion to its values, not rows × paths.
func TestSparseMemory(t *testing.T) {
	var b strings.Builder
	const rows, keys = 200_000, 1000
	for i := range rows {
		fmt.Fprintf(&b, "{\"k%d\":%d}\n", i%keys, i)
	}
	d := mustRead(t, NDJSON, b.String())
	if got, limit := d.MemoryBytes(), int64(b.Len()); got > limit {
		t.Errorf("MemoryBytes = %d for a %d-byte file of %d values in %d paths", got, b.Len(), rows, keys)
	}
}
