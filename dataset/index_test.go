package dataset

import (
	"fmt"
	"hash/maphash"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// mixed is one column holding every kind, with ties.
const mixed = `{"v":"b"}
{"v":10}
{"v":null}
{"v":true}
{"v":"10"}
{}
{"v":"9"}
{"v":[1]}
{"v":false}
{"v":-1.5}
{"v":"b"}
{"v":10}
{"v":{"x":1}}`

func TestSorted(t *testing.T) {
	d := mustRead(t, NDJSON, mixed)
	// Null (null, absent) < false < true < numbers < strings < raw, ties in
	// storage order; numbers stored as text sort lexicographically.
	want := rows(2, 5, 8, 3, 9, 1, 11, 4, 6, 0, 10, 7, 12)
	if got := d.Sorted("v"); !reflect.DeepEqual(got, want) {
		t.Errorf("Sorted(v) = %v, want %v", got, want)
	}
	checkSorted(t, d, "v")
}

// checkSorted checks Sorted(path) against Compare and stability.
func checkSorted(tb testing.TB, d *Dataset, path string) {
	tb.Helper()
	order := d.Sorted(path)
	if len(order) != d.Len() {
		tb.Fatalf("Sorted(%q) has %d rows, want %d", path, len(order), d.Len())
	}
	for i := 1; i < len(order); i++ {
		a, b := d.Value(int(order[i-1]), path), d.Value(int(order[i]), path)
		c := Compare(a, b)
		if c > 0 || c == 0 && order[i-1] > order[i] {
			tb.Fatalf("Sorted(%q): row %d (%+v) before row %d (%+v)", path, order[i-1], a, order[i], b)
		}
	}
}

func TestSortedEncodings(t *testing.T) {
	var b strings.Builder
	for i := range 6000 {
		// few: a dictionary; unique: plain offsets; num: int32 then float64.
		fmt.Fprintf(&b, `{"few":"w%d","unique":"u%d","num":%d,"mixed":%s}`+"\n", i%7, (i*7919)%6000, (i*31)%97, mixedValue(i))
	}
	b.WriteString(`{"num":0.5}` + "\n")
	d := mustRead(t, NDJSON, b.String())
	for _, path := range []string{"few", "unique", "num", "mixed"} {
		t.Run(path, func(t *testing.T) { checkSorted(t, d, path) })
	}
	if dict, _ := d.Column("few").dictionary(); !dict {
		t.Errorf("few is not dictionary encoded")
	}
	if dict, _ := d.Column("unique").dictionary(); dict {
		t.Errorf("unique is dictionary encoded")
	}
}

func mixedValue(i int) string {
	switch i % 5 {
	case 0:
		return fmt.Sprint(i % 13)
	case 1:
		return fmt.Sprintf(`"%d"`, i%11)
	case 2:
		return "null"
	case 3:
		return fmt.Sprint(i%2 == 0)
	}
	return fmt.Sprintf("[%d]", i%3)
}

func TestSortedOtherPaths(t *testing.T) {
	d := mustRead(t, NDJSON, `{"p":{"a":2}}
{"q":1}
{"p":{"a":1}}`)
	if got, want := d.Sorted("p"), rows(1, 2, 0); !reflect.DeepEqual(got, want) {
		t.Errorf("Sorted(prefix) = %v, want %v", got, want)
	}
	if got, want := d.Sorted("nope"), rows(0, 1, 2); !reflect.DeepEqual(got, want) {
		t.Errorf("Sorted(unknown) = %v, want %v", got, want)
	}
}

func TestLookup(t *testing.T) {
	d := mustRead(t, NDJSON, mixed+`
{"v":1234567,"p":{"a":1}}
{"v":"","p":{"b":2}}`)
	tests := []struct {
		path, key string
		want      []int32
	}{
		{"v", "10", rows(1, 4, 11)}, // the number 10 and the text "10"
		{"v", "b", rows(0, 10)},
		{"v", "true", rows(3)},
		{"v", "false", rows(8)},
		{"v", "-1.5", rows(9)},
		{"v", "1234567", rows(13)},
		{"v", "[1]", rows(7)},
		{"v", "", rows(2, 5, 14)}, // null, absent and the empty string
		{"v", "11", nil},
		{"p", "", rows(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)},
		{"p", `{"a":1}`, nil},
		{"nope", "", rows(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)},
		{"nope", "x", nil},
	}
	for _, tt := range tests {
		t.Run(tt.path+"="+tt.key, func(t *testing.T) {
			got := d.Lookup(tt.path, tt.key)
			if len(got) != 0 || len(tt.want) != 0 {
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("Lookup(%q, %q) = %v, want %v", tt.path, tt.key, got, tt.want)
				}
			}
		})
	}
}

// TestLookupCollisions forces every row into one hash group, so that
// lookups must filter by the key itself.
func TestLookupCollisions(t *testing.T) {
	d := mustRead(t, NDJSON, "{\"k\":\"a\"}\n{\"k\":\"b\"}\n{\"k\":\"a\"}\n{\"k\":\"c\"}")
	l := &lazyLookup{seed: maphash.MakeSeed()}
	l.build(d, "k")
	h := uint32(maphash.String(l.seed, "a"))
	for i := range l.hashes {
		l.hashes[i], l.rows[i] = h, int32(i)
	}
	if got := l.find(d, "k", "a"); !reflect.DeepEqual(got, rows(0, 2)) {
		t.Errorf("find(a) = %v, want [0 2]", got)
	}
	if got := l.find(d, "k", "z"); len(got) != 0 {
		t.Errorf("find(z) = %v, want none", got)
	}
}

func TestIndexConcurrent(t *testing.T) {
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, `{"id":%d,"cat":"c%d","price":%d.5}`+"\n", i, i%10, (i*37)%1000)
	}
	d := mustRead(t, NDJSON, b.String())
	paths := []string{"id", "cat", "price", "nope"}
	var wg sync.WaitGroup
	results := make([][][]int32, 16)
	for g := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, p := range paths {
				results[g] = append(results[g], d.Sorted(p), d.Lookup(p, "c3"), d.Lookup(p, "42"))
			}
			_ = d.MemoryBytes()
		}()
	}
	wg.Wait()
	for g := range results {
		for i := range results[g] {
			if !slices.Equal(results[g][i], results[0][i]) {
				t.Fatalf("goroutine %d result %d differs", g, i)
			}
		}
	}
	if got := len(d.Lookup("cat", "c3")); got != 500 {
		t.Errorf("Lookup(cat, c3) found %d rows, want 500", got)
	}
	checkSorted(t, d, "price")
}
