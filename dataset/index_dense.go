package dataset

import "math"

// denseKeys is the lookup of a column whose values are all integers within
// a span of at most 4 rows per row (ids, foreign keys), or null or absent:
// the rows grouped by value, so a key's rows are one range found by
// subtraction — no hash, no binary search, no row checked. A relation's
// children (one-to-many) and a parent (many-to-one) cost two reads and
// the rows themselves. A column whose values are unique (ids) keeps only
// each value's row: 4 bytes a value of the span instead of 4 a value plus
// 4 a row.
type denseKeys struct {
	min   int64
	one   []int32 // unique values: per value - min, its row or -1; else nil
	offs  []int32 // per value - min: the start of its rows; one more at the end
	rows  []int32 // grouped by value, storage order within
	nulls []int32 // rows whose key is "" (null or absent)
}

// buildDense groups c's rows by value, or returns nil when c holds a value
// that is not an integer (or is -0), or its span is wider than 4n+1024.
func buildDense(c *Column) *denseKeys {
	lo, span, ok := denseSpan(c)
	if !ok {
		return nil
	}
	if d := buildUnique(c, lo, span); d != nil {
		return d
	}
	d := &denseKeys{min: lo, offs: make([]int32, span+1)}
	for row := 0; row < c.n; row++ {
		if t := c.tagAt(row); t == tagNumber {
			d.offs[int64(c.num(row))-lo+1]++
		}
	}
	for i := 1; i < len(d.offs); i++ {
		d.offs[i] += d.offs[i-1]
	}
	d.rows = make([]int32, d.offs[len(d.offs)-1])
	next := make([]int32, len(d.offs))
	copy(next, d.offs)
	for row := 0; row < c.n; row++ {
		switch c.tagAt(row) {
		case tagNumber:
			k := int64(c.num(row)) - lo
			d.rows[next[k]] = int32(row)
			next[k]++
		default:
			d.nulls = append(d.nulls, int32(row))
		}
	}
	return d
}

// denseSpan returns the least value of c and the span of its values (0
// when it has none), or false when c cannot have a dense lookup.
func denseSpan(c *Column) (lo, span int64, ok bool) {
	hi, seen := int64(0), false
	for row := 0; row < c.n; row++ {
		switch c.tagAt(row) {
		case tagAbsent, tagNull:
			continue
		case tagNumber:
		default:
			return 0, 0, false
		}
		f := c.num(row)
		if f != math.Trunc(f) || math.Abs(f) > 1<<40 || (f == 0 && math.Signbit(f)) {
			return 0, 0, false
		}
		v := int64(f)
		if !seen || v < lo {
			lo = v
		}
		if !seen || v > hi {
			hi = v
		}
		seen = true
		if hi-lo > 4*int64(c.n)+1024 {
			return 0, 0, false
		}
	}
	if !seen {
		return 0, 0, true
	}
	return lo, hi - lo + 1, true
}

// buildUnique is the lookup of a column whose values are unique, or nil
// when a value repeats.
func buildUnique(c *Column, lo, span int64) *denseKeys {
	d := &denseKeys{min: lo, one: make([]int32, span)}
	for i := range d.one {
		d.one[i] = -1
	}
	for row := 0; row < c.n; row++ {
		if c.tagAt(row) != tagNumber {
			d.nulls = append(d.nulls, int32(row))
			continue
		}
		k := int64(c.num(row)) - lo
		if d.one[k] >= 0 {
			return nil
		}
		d.one[k] = int32(row)
	}
	return d
}

// find returns the rows whose Key is key: "" for null or absent, else the
// canonical text of an integer (the only keys the column's values have).
func (d *denseKeys) find(key string) []int32 {
	if key == "" {
		return d.nulls
	}
	v, ok := canonicalInt(key)
	if !ok || v < d.min {
		return nil
	}
	k := v - d.min
	if d.one != nil || len(d.offs) == 0 {
		if k >= int64(len(d.one)) || d.one[k] < 0 {
			return nil
		}
		return d.one[k : k+1 : k+1]
	}
	if k >= int64(len(d.offs)-1) {
		return nil
	}
	return d.rows[d.offs[k]:d.offs[k+1]:d.offs[k+1]]
}

// canonicalInt reads key as an integer written as appendNumber writes
// one (no sign but a leading '-', no leading zero, at most 13 digits).
func canonicalInt(key string) (int64, bool) {
	neg := key[0] == '-'
	s := key
	if neg {
		s = key[1:]
	}
	if s == "" || len(s) > 13 || (s[0] == '0' && (len(s) > 1 || neg)) {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// memoryBytes is what the lookup holds.
func (d *denseKeys) memoryBytes() int64 {
	return 4 * int64(len(d.one)+len(d.offs)+len(d.rows)+len(d.nulls))
}
