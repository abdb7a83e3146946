package dataset

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

// naiveSorted is the reference order: every row stably sorted by Compare
// of its value.
func naiveSorted(c *Column) []int32 {
	rows := make([]int32, c.Len())
	for i := range rows {
		rows[i] = int32(i)
	}
	slices.SortStableFunc(rows, func(a, b int32) int { return Compare(c.Value(int(a)), c.Value(int(b))) })
	return rows
}

// randomSortDataset generates n rows whose "v" mixes every kind with many
// ties: integers and floats (negative, -0, tiny, huge), numbers stored as
// text, texts sharing long prefixes, differing only in length or in zero
// bytes, unicode, booleans, null, arrays, objects, absent. distinct bounds
// the distinct texts (few: dictionary encoded).
func randomSortDataset(tb testing.TB, n, distinct int, seed uint64) *Dataset {
	rnd := rand.New(rand.NewPCG(seed, 11))
	prefixes := []string{"", "Product ", "Product 1", "a", "é", "日本語のテキスト", "same long prefix of thirty-two!!", "x\x00"}
	var b strings.Builder
	for i := 0; i < n; i++ {
		doc := map[string]any{"i": i, "w": "w" + strconv.Itoa(rnd.IntN(distinct%40+1))} // coded texts only
		switch rnd.IntN(12) {
		case 0, 1:
			doc["v"] = rnd.IntN(n/20+3) - n/40
		case 2:
			doc["v"] = []float64{0, math.Copysign(0, -1), 1e-300, -1e-300, 1e300, -1e300, 0.5, -0.5, 2.25, 3}[rnd.IntN(10)] * float64(1+rnd.IntN(3))
		case 3:
			doc["v"] = rnd.Float64()*2000 - 1000
		case 4:
			doc["v"] = prefixes[rnd.IntN(len(prefixes))] + strings.Repeat("\x00", rnd.IntN(4)) // equal but for trailing zero bytes
		case 5, 6, 7:
			k := rnd.IntN(distinct)
			doc["v"] = prefixes[k%len(prefixes)] + strings.Repeat("\x00", k%3) + strconv.Itoa(k/len(prefixes))
		case 8:
			doc["v"] = strconv.Itoa(rnd.IntN(1000)) // a number stored as text
		case 9:
			doc["v"] = rnd.IntN(2) == 0
		case 10:
			doc["v"] = []any{rnd.IntN(3), "a"}
		case 11:
			if rnd.IntN(2) == 0 {
				doc["v"] = nil
			}
		}
		writeDoc(tb, &b, doc)
	}
	return mustRead(tb, NDJSON, b.String())
}

// TestSortedMatchesNaive checks the radix sorts behind Sorted and Order
// against a stable comparison sort of the values on random columns: mixed
// kinds, ties, -0, shared prefixes, zero bytes, unicode, dictionary and
// plain texts, integer and float storage; and the ranks of a column of
// dictionary-coded texts, which come from the codes.
func TestSortedMatchesNaive(t *testing.T) {
	for _, tc := range []struct {
		name        string
		n, distinct int
	}{
		{"tiny", 5, 3}, {"small groups", 200, 150}, {"dictionary", 3000, 40},
		{"plain texts", 5000, 4000}, {"large", 60000, 50000},
	} {
		for seed := uint64(1); seed <= 3; seed++ {
			d := randomSortDataset(t, tc.n, tc.distinct, seed)
			for _, path := range []string{"v", "w"} {
				c := d.Column(path)
				got, want := d.Sorted(path), naiveSorted(c)
				if i := firstDiff(got, want); i >= 0 {
					t.Fatalf("%s seed %d %s: position %d: row %d (%v), want row %d (%v)", tc.name, seed, path, i,
						got[i], c.Value(int(got[i])), want[i], c.Value(int(want[i])))
				}
				checkOrderRanks(t, d.Order(path), c)
			}
			if tc.n > 1 && d.Order("w").codeRank == nil {
				t.Fatalf("%s: a column of coded texts keeps a rank per row", tc.name)
			}
		}
	}
}

// TestSortedNumbersByStorage checks both number storages (int32 and
// float64) against the reference, with many ties and -0.
func TestSortedNumbersByStorage(t *testing.T) {
	for i, values := range [][]string{
		{"-5", "3", "0", "7", "3", "-2147483648", "2147483647", "-1", "65536", "-65537", "16777216"}, // int32 storage
		{"-5", "3", "0", "-0", "7", "3", "-2147483648", "2147483647"},                                // -0: float storage
		{"-5.5", "3", "0", "-0", "1e308", "-1e308", "5e-324", "-5e-324", "3.0", "0.1"},
	} {
		rnd := rand.New(rand.NewPCG(3, 4))
		var b strings.Builder
		for range 4000 {
			b.WriteString(`{"v":` + values[rnd.IntN(len(values))] + "}\n")
		}
		d := mustRead(t, NDJSON, b.String())
		if ints := d.Column("v").ints != nil; ints != (i == 0) {
			t.Fatalf("values %v: int32 storage %v", values, ints)
		}
		got, want := d.Sorted("v"), naiveSorted(d.Column("v"))
		if i := firstDiff(got, want); i >= 0 {
			t.Fatalf("values %v: position %d: row %d, want %d", values, i, got[i], want[i])
		}
	}
}

func firstDiff(a, b []int32) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return -1
}

// TestGramsMatchNaive checks every posting list of the n-gram index
// against one gathered with a Go map: on random texts with thousands of
// distinct grams (the slot table grows many times) over more rows than one
// gathering chunk, mixed with non-texts, short texts and unicode ("s"); and
// on names whose common grams every row holds, added as ranges ("t").
func TestGramsMatchNaive(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	const alphabet = "abcXYZ0123456789 -é\x00"
	var b strings.Builder
	n := gramChunk + 4000
	for i := range n {
		doc := map[string]any{"t": "Product " + strconv.Itoa(i)}
		if i == 5000 {
			doc["t"] = 1 // a hole in the ranges
		}
		switch rnd.IntN(10) {
		case 0:
			doc["s"] = i
		case 1:
		default:
			var s []rune
			for range rnd.IntN(12) {
				s = append(s, []rune(alphabet)[rnd.IntN(len([]rune(alphabet)))])
			}
			doc["s"] = string(s)
		}
		writeDoc(t, &b, doc)
	}
	d := mustRead(t, NDJSON, b.String())
	for _, path := range []string{"s", "t"} {
		checkGrams(t, d.Column(path), d.Grams(path))
	}
}

// checkGrams compares g's posting lists with ones gathered in a map.
func checkGrams(t *testing.T, c *Column, g *Grams) {
	t.Helper()
	want3, want4 := map[uint32][]uint32{}, map[uint32][]uint32{}
	for row := range c.Len() {
		if c.Kind(row) != String {
			continue
		}
		low, _ := appendLower(nil, c.Value(row).Str)
		for size, want := range map[int]map[uint32][]uint32{3: want3, 4: want4} {
			for i := 0; i+size <= len(low); i++ {
				k := key3(low[i:])
				if size == 4 {
					k = key4(low[i:])
				}
				if l := want[k]; len(l) == 0 || l[len(l)-1] != uint32(row) {
					want[k] = append(l, uint32(row))
				}
			}
		}
	}
	for name, pair := range map[string][2]any{"3-grams": {g.grams3, want3}, "4-grams": {g.grams4, want4}} {
		got, want := pair[0].(map[uint32]*roaring.Bitmap), pair[1].(map[uint32][]uint32)
		if len(got) != len(want) {
			t.Fatalf("%s %s: %d grams, want %d", c.Path(), name, len(got), len(want))
		}
		for k, rows := range want {
			if b := got[k]; b == nil || !slices.Equal(b.ToArray(), rows) {
				t.Fatalf("%s %s: gram %x: rows differ", c.Path(), name, k)
			}
		}
	}
}
