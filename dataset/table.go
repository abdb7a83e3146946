package dataset

import (
	"math"
	"strings"

	"github.com/mockgql/mockgql/model"
)

// Import limits: a dataset has at most MaxPaths leaf paths and MaxRows rows;
// a field path (the dot-joined names) has at most MaxPathBytes bytes and one
// value (a text, or an array kept as JSON) at most MaxValueBytes. The last
// two keep a single record from holding a value no client could page
// through: a 20 MB field or a 2 MB name used to be accepted.
const (
	MaxPaths      = 2000
	MaxRows       = math.MaxInt32
	MaxPathBytes  = 256
	MaxValueBytes = 1 << 20
)

// tableBuilder accumulates the rows of an import. Rows are built one at a
// time: lookup and setColumn store the current row's values, endRow
// commits it.
type tableBuilder struct {
	rows  int
	cols  []*colBuilder
	index map[string]int   // leaf path -> column
	under map[string][]int // dot prefix -> columns beneath it
}

func newTableBuilder() *tableBuilder {
	return &tableBuilder{index: map[string]int{}, under: map[string][]int{}}
}

// lookup returns the column of path, adding it if new. hint is a guess
// (records tend to repeat their field order) that saves hashing the path.
func (t *tableBuilder) lookup(path []byte, hint int) (int, error) {
	if uint(hint) < uint(len(t.cols)) && t.cols[hint].path == string(path) {
		return hint, nil
	}
	if i, ok := t.index[string(path)]; ok {
		return i, nil
	}
	return t.column(string(path))
}

// setColumn stores the current row's value in column i.
func (t *tableBuilder) setColumn(i int, tag uint8, num float64, s []byte) error {
	c, r := t.cols[i], t.rows
	if c.last == r {
		return fieldErrorf("duplicate field %q", c.path)
	}
	for _, j := range c.related {
		if t.cols[j].last == r {
			return fieldErrorf("field %q conflicts with field %q: a path cannot hold both a value and an object", c.path, t.cols[j].path)
		}
	}
	if len(s) > MaxValueBytes {
		return fieldErrorf("field %q has a value of %d bytes; the limit is %d", c.path, len(s), MaxValueBytes)
	}
	if err := c.add(r, tag, num, s); err != nil {
		return fieldErrorf("field %q: %v", c.path, err)
	}
	return nil
}

// column adds a column for path and links it with the columns whose path
// is a dot prefix of it or has it as one.
func (t *tableBuilder) column(path string) (int, error) {
	if len(t.cols) >= MaxPaths {
		return 0, fieldErrorf("more than %d distinct field paths", MaxPaths)
	}
	if len(path) > MaxPathBytes {
		return 0, fieldErrorf("a field path of %d bytes (%s); the limit is %d", len(path), model.Clip(path, 64), MaxPathBytes)
	}
	i := len(t.cols)
	c := newColBuilder(path)
	for _, j := range t.under[path] {
		c.related = append(c.related, j)
		t.cols[j].related = append(t.cols[j].related, i)
	}
	for k := strings.IndexByte(path, '.'); k >= 0; k = nextDot(path, k) {
		prefix := path[:k]
		if j, ok := t.index[prefix]; ok {
			c.related = append(c.related, j)
			t.cols[j].related = append(t.cols[j].related, i)
		}
		t.under[prefix] = append(t.under[prefix], i)
	}
	t.cols = append(t.cols, c)
	t.index[path] = i
	return i, nil
}

// nextDot returns the index of the next '.' in path after k, or -1.
func nextDot(path string, k int) int {
	if j := strings.IndexByte(path[k+1:], '.'); j >= 0 {
		return k + 1 + j
	}
	return -1
}

// endRow commits the current row.
func (t *tableBuilder) endRow() error {
	if t.rows++; t.rows > MaxRows {
		return model.Errorf(model.CodePayloadTooLarge, "dataset too large: more than %d rows", MaxRows)
	}
	return nil
}

// build returns the dataset of the committed rows.
func (t *tableBuilder) build(opt Options) (*Dataset, error) {
	if t.rows == 0 {
		return nil, model.Errorf(model.CodeBadUserInput, "dataset is empty: the file has no records")
	}
	cols := make([]*Column, len(t.cols))
	for i, c := range t.cols {
		cols[i] = c.finish(t.rows)
		t.cols[i] = nil // let the builder's garbage go while finishing the rest
	}
	return newDataset(opt.ImportCode, opt.Name, opt.VariantField, t.rows, cols)
}
