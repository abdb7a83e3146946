package dataset

import (
	"cmp"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"sync"
)

// lazyRows is a row order built once on first use.
type lazyRows struct {
	once sync.Once
	rows []int32
}

// lazyLookup is a hash index built once on first use: rows grouped by the
// 32-bit hash of their key, ascending within a group; or, for a column of
// integers in a narrow span, the rows grouped by value (denseKeys).
type lazyLookup struct {
	once   sync.Once
	seed   maphash.Seed
	hashes []uint32
	rows   []int32
	dense  *denseKeys
}

// Sorted returns every row ordered by Compare of its value at path,
// ascending, ties in storage order. The order is built on first use per
// path and shared: callers must not modify it. A path that no row has gives
// storage order.
func (d *Dataset) Sorted(path string) []int32 {
	c, o := d.byPath[path], d.objects[path]
	if c == nil && o == nil {
		return d.allRows()
	}
	d.mu.Lock()
	l := d.sorted[path]
	if l == nil {
		l = &lazyRows{}
		d.sorted[path] = l
	}
	d.mu.Unlock()
	l.once.Do(func() {
		if o == nil {
			l.rows = sortColumn(c)
		} else {
			l.rows = d.sortValues(path)
		}
		d.indexes.Add(4 * int64(len(l.rows)))
	})
	return l.rows
}

// allRows returns 0..n-1, built once.
func (d *Dataset) allRows() []int32 {
	d.all.once.Do(func() {
		d.all.rows = make([]int32, d.n)
		for i := range d.all.rows {
			d.all.rows[i] = int32(i)
		}
		d.indexes.Add(4 * int64(d.n))
	})
	return d.all.rows
}

// tagRank orders tags as Compare orders kinds, false before true.
var tagRank = [numTags]int{0, 0, 1, 2, 3, 4, 5}

// sortColumn orders a column's rows: a stable counting sort by tag rank,
// then each run of numbers and of texts sorted with the row as tie-break.
func sortColumn(c *Column) []int32 {
	var starts [7]int
	for row := 0; row < c.n; row++ {
		starts[tagRank[c.tagAt(row)]+1]++
	}
	for i := 1; i < len(starts); i++ {
		starts[i] += starts[i-1]
	}
	rows := make([]int32, c.n)
	next := starts
	for row := 0; row < c.n; row++ {
		r := tagRank[c.tagAt(row)]
		rows[next[r]] = int32(row)
		next[r]++
	}
	sortNumbers(c, rows[starts[3]:starts[4]])
	sortTexts(c, rows[starts[4]:starts[5]])
	sortTexts(c, rows[starts[5]:starts[6]])
	return rows
}

// sortTexts orders rows by their text, ties by row.
func sortTexts(c *Column, rows []int32) {
	if len(rows) < 2 {
		return
	}
	if dict, entries := c.dictionary(); dict {
		sortByCode(c, rows, entries)
		return
	}
	sortTextsRadix(c, rows)
}

// sortByCode orders dictionary-encoded rows: the entries are sorted once,
// then the rows are counting-sorted by entry rank, which keeps row order.
func sortByCode(c *Column, rows []int32, entries int) {
	order := make([]int, entries)
	for i := range order {
		order[i] = i
	}
	entry := func(i int) string { return c.text[c.offs[i]:c.offs[i+1]] }
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(entry(a), entry(b)) })
	rank := make([]int, entries)
	for r, e := range order {
		rank[e] = r
	}
	starts := make([]int, entries+1)
	for _, row := range rows {
		starts[rank[c.code(int(row))]+1]++
	}
	for i := 1; i < len(starts); i++ {
		starts[i] += starts[i-1]
	}
	sorted := make([]int32, len(rows))
	for _, row := range rows {
		r := rank[c.code(int(row))]
		sorted[starts[r]] = row
		starts[r]++
	}
	copy(rows, sorted)
}

// sortValues orders rows by their generic Value at path (object prefixes).
func (d *Dataset) sortValues(path string) []int32 {
	values := make([]Value, d.n)
	rows := make([]int32, d.n)
	for i := range rows {
		rows[i] = int32(i)
		values[i] = d.Value(i, path)
	}
	slices.SortFunc(rows, func(a, b int32) int {
		return cmp.Or(Compare(values[a], values[b]), cmp.Compare(a, b))
	})
	return rows
}

// Lookup returns the rows whose value at path has the given Key, in storage
// order. The hash index is built on first use per path; the result is
// shared: callers must not modify it. For an object prefix or a path no row
// has, only the key "" (null) finds rows: those without the path.
func (d *Dataset) Lookup(path, key string) []int32 {
	c, o := d.byPath[path], d.objects[path]
	switch {
	case c == nil && o == nil:
		if key != "" {
			return nil
		}
		return d.allRows()
	case c == nil && key != "":
		return nil
	}
	d.mu.Lock()
	l := d.lookups[path]
	if l == nil {
		l = &lazyLookup{seed: maphash.MakeSeed()}
		d.lookups[path] = l
	}
	d.mu.Unlock()
	l.once.Do(func() {
		if c != nil && o == nil {
			l.dense = buildDense(c)
		}
		if l.dense != nil {
			d.indexes.Add(l.dense.memoryBytes())
			return
		}
		l.build(d, path)
		d.indexes.Add(8 * int64(len(l.rows)))
	})
	if l.dense != nil {
		return l.dense.find(key)
	}
	return l.find(d, path, key)
}

// appendKey appends the Key of row's value at path.
func (d *Dataset) appendKey(buf []byte, row int, path string) []byte {
	if c := d.byPath[path]; c != nil && c.has(row) {
		return c.appendKey(buf, row)
	}
	if d.objects[path] == nil {
		return buf
	}
	return append(buf, d.Value(row, path).Key()...)
}

// appendKey appends the Key of row's value without allocating.
func (c *Column) appendKey(buf []byte, row int) []byte {
	switch c.tagAt(row) {
	case tagFalse:
		return append(buf, "false"...)
	case tagTrue:
		return append(buf, "true"...)
	case tagNumber:
		return appendNumber(buf, c.num(row))
	case tagString, tagRaw:
		return append(buf, c.textAt(row)...)
	}
	return buf
}

func (l *lazyLookup) build(d *Dataset, path string) {
	pairs := make([]uint64, d.n)
	var buf []byte
	for row := range pairs {
		buf = d.appendKey(buf[:0], row, path)
		pairs[row] = uint64(uint32(maphash.Bytes(l.seed, buf)))<<32 | uint64(row)
	}
	slices.Sort(pairs)
	l.hashes = make([]uint32, len(pairs))
	l.rows = make([]int32, len(pairs))
	for i, p := range pairs {
		l.hashes[i], l.rows[i] = uint32(p>>32), int32(uint32(p))
	}
}

// find returns the rows of key: the hash's group, less any collisions.
func (l *lazyLookup) find(d *Dataset, path, key string) []int32 {
	h := uint32(maphash.String(l.seed, key))
	i, _ := slices.BinarySearch(l.hashes, h)
	j := i
	for j < len(l.hashes) && l.hashes[j] == h {
		j++
	}
	group := l.rows[i:j:j]
	if len(group) == 0 {
		return nil
	}
	var m keyMatch
	m.init(key)
	for k, row := range group {
		if !m.is(d, int(row), path) {
			return d.filter(group[k:], group[:k:k], path, &m)
		}
	}
	return group
}

// keyMatch tells whether a row's Key is key, comparing numbers as
// numbers: formatting each row's number to compare texts cost most of a
// relation's lookups.
type keyMatch struct {
	key   string
	num   float64
	isNum bool // key is a number's Key (canonical form)
	buf   [64]byte
}

func (m *keyMatch) init(key string) {
	m.key = key
	if !numberLike(key) { // ParseFloat's error would allocate
		return
	}
	if f, err := strconv.ParseFloat(key, 64); err == nil && string(appendNumber(m.buf[:0], f)) == key {
		m.num, m.isNum = f, true
	}
}

// numberLike reports whether s has only the characters of a number's Key.
func numberLike(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && c != '-' && c != '.' && c != 'e' && c != '+' {
			return false
		}
	}
	return s != ""
}

// is reports whether the Key of row's value at path is m.key.
func (m *keyMatch) is(d *Dataset, row int, path string) bool {
	if c := d.byPath[path]; c != nil && c.has(row) {
		switch c.tagAt(row) {
		case tagNumber:
			v := c.num(row)
			return m.isNum && v == m.num && math.Signbit(v) == math.Signbit(m.num)
		case tagString, tagRaw:
			return c.textAt(row) == m.key
		}
	}
	return string(d.appendKey(m.buf[:0], row, path)) == m.key
}

// filter appends to out the rows of group whose key is m's.
func (d *Dataset) filter(group, out []int32, path string, m *keyMatch) []int32 {
	out = slices.Clone(out)
	for _, row := range group {
		if m.is(d, int(row), path) {
			out = append(out, row)
		}
	}
	return out
}
