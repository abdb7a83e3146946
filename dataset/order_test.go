package dataset

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
)

// orderDataset generates n rows whose "v" is a small number, a text, a
// boolean, null, an object or absent, so that every kind section and many
// ties occur.
func orderDataset(tb testing.TB, n int, seed uint64) *Dataset {
	rnd := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	for i := 0; i < n; i++ {
		doc := map[string]any{"i": i}
		switch rnd.IntN(7) {
		case 0, 1, 2:
			doc["v"] = rnd.IntN(n/10 + 3)
		case 3:
			doc["v"] = "t" + strconv.Itoa(rnd.IntN(50))
		case 4:
			doc["v"] = rnd.IntN(2) == 0
		case 5:
			doc["v"] = nil
		}
		writeDoc(tb, &b, doc)
	}
	return mustRead(tb, NDJSON, b.String())
}

// TestOrderMatchesScan checks every part of an Order against a scan of
// the column: sections, Equal and Search bounds, ranks, and the bitsets
// AddRange sets (short ranges, long ones across prefixes, whole sections).
func TestOrderMatchesScan(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
	}{{"one", 1}, {"small", 300}, {"few prefixes", 1000}, {"prefixes", 40000}} {
		t.Run(tc.name, func(t *testing.T) {
			d := orderDataset(t, tc.n, uint64(tc.n))
			o := d.Order("v")
			c := d.Column("v")
			if d.Order("nope") != nil {
				t.Fatal("Order of an unknown path is not nil")
			}
			checkOrderRanks(t, o, c)
			rnd := rand.New(rand.NewPCG(1, 2))
			probes := []Value{{}, num(0), num(1), num(float64(tc.n / 20)), num(-1), num(1e9), str("t1"), str("t25"), str(""), str("zz"), boolean(true), boolean(false)}
			for _, v := range probes {
				lo, hi := o.Equal(v)
				for pos := 0; pos < o.Len(); pos++ {
					in := pos >= lo && pos < hi
					if eq := Compare(c.Value(int(o.Rows()[pos])), v) == 0; eq != in {
						t.Fatalf("Equal(%v) = [%d,%d): position %d wrong", v, lo, hi, pos)
					}
				}
			}
			for i := 0; i < 200; i++ {
				lo := rnd.IntN(o.Len() + 1)
				hi := lo + rnd.IntN(o.Len()-lo+1)
				if i%10 == 0 {
					lo, hi = 0, o.Len()
				}
				checkAddRange(t, o, lo, hi)
			}
		})
	}
}

func checkOrderRanks(t *testing.T, o *Order, c *Column) {
	t.Helper()
	for pos, r := range o.Rows() {
		start := int(o.Rank(r))
		if start > pos || Compare(c.Value(int(o.Rows()[start])), c.Value(int(r))) != 0 ||
			(start > 0 && Compare(c.Value(int(o.Rows()[start-1])), c.Value(int(r))) == 0) {
			t.Fatalf("rank of row %d at position %d = %d, not its tie group's first position", r, pos, start)
		}
		k := c.Value(int(r)).Kind
		if lo, hi := o.Section(k); pos < lo || pos >= hi {
			t.Fatalf("position %d of kind %v outside its section [%d,%d)", pos, k, lo, hi)
		}
	}
}

func checkAddRange(t *testing.T, o *Order, lo, hi int) {
	t.Helper()
	got := make([]uint64, o.Words())
	o.AddRange(got, lo, hi)
	want := make([]uint64, o.Words())
	for _, r := range o.Rows()[lo:hi] {
		want[r>>6] |= 1 << (uint(r) & 63)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("AddRange(%d, %d): word %d = %x, want %x", lo, hi, i, got[i], want[i])
		}
	}
	if Count(got) != hi-lo {
		t.Fatalf("AddRange(%d, %d) sets %d bits", lo, hi, Count(got))
	}
	and := make([]uint64, o.Words())
	for i := range and {
		and[i] = 0x5555_5555_5555_5555
	}
	o.AndRange(and, lo, hi, nil)
	for i := range and {
		if w := want[i] & 0x5555_5555_5555_5555; and[i] != w {
			t.Fatalf("AndRange(%d, %d): word %d = %x, want %x", lo, hi, i, and[i], w)
		}
	}
	set := make([]uint64, o.Words())
	for i := range set {
		set[i] = 0x5555 // SetRange overwrites whatever was there
	}
	o.SetRange(set, lo, hi)
	for i := range set {
		if set[i] != want[i] {
			t.Fatalf("SetRange(%d, %d): word %d = %x, want %x", lo, hi, i, set[i], want[i])
		}
	}
}

// TestGramsLike checks the n-gram index against a scan: every row whose
// text contains the needle ignoring case is in the index's set, and an
// exact set holds nothing else.
func TestGramsLike(t *testing.T) {
	words := []string{"Alpha", "beta", "GAMMA", "Ærø", "ab", "x", "", "Product 1234", "prod"}
	var b strings.Builder
	for i := 0; i < 500; i++ {
		doc := map[string]any{"s": words[i%len(words)] + " " + words[(i*7)%len(words)]}
		if i%11 == 0 {
			doc["s"] = i // not text: never matches
		}
		line, _ := json.Marshal(doc)
		b.Write(line)
		b.WriteByte('\n')
	}
	d := mustRead(t, NDJSON, b.String())
	c := d.Column("s")
	g := d.Grams("s")
	for _, needle := range []string{"", "a", "AB", "pha", "ALPH", "alpha b", "ærø", "RØ", "1234", "duct 12", "zzz", "t 1"} {
		rows, exact := g.Like(needle)
		for r := 0; r < d.Len(); r++ {
			v := c.Value(r)
			want := v.Kind == String && strings.Contains(strings.ToLower(v.Str), strings.ToLower(needle))
			got := rows.Contains(uint32(r))
			if want && !got || exact && got != want {
				t.Fatalf("Like(%q) (exact %v): row %d %q: in set %v, contains %v", needle, exact, r, v.Str, got, want)
			}
		}
	}
}

// TestIndexesReadyInBackground: the first call for a column's index does
// not wait for it; it is built in the background, once, and then given.
func TestIndexesReadyInBackground(t *testing.T) {
	d := orderDataset(t, 40000, 3)
	if d.OrderReady("v") != nil || d.GramsReady("v") != nil {
		t.Fatal("an index was ready before anything built it")
	}
	deadline := time.Now().Add(30 * time.Second)
	for d.OrderReady("v") == nil || d.GramsReady("v") == nil {
		if time.Now().After(deadline) {
			t.Fatal("the indexes were not built in the background")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if d.OrderReady("v") != d.Order("v") || d.GramsReady("v") != d.Grams("v") {
		t.Fatal("the index was built twice")
	}
	if d.OrderReady("nope") != nil || d.GramsReady("nope") != nil {
		t.Fatal("an unknown path has an index")
	}
}

// TestGramsBounded: a column whose texts exceed MaxGramText gets no
// n-gram index (like then scans), so its memory stays bounded.
func TestGramsBounded(t *testing.T) {
	long := strings.Repeat("x", 1<<19) // under MaxValueBytes
	var b strings.Builder
	for i := 0; i < MaxGramText>>19+2; i++ {
		line, _ := json.Marshal(map[string]any{"s": long + strconv.Itoa(i), "t": "short"})
		b.Write(line)
		b.WriteByte('\n')
	}
	d := mustRead(t, NDJSON, b.String())
	if d.Grams("s") != nil {
		t.Fatal("texts past MaxGramText were indexed")
	}
	if d.Grams("t") == nil {
		t.Fatal("short texts were not indexed")
	}
}
