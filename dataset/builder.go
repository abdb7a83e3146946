package dataset

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"unsafe"
)

// Dictionary encoding limits: a column keeps a dictionary while it has at
// most maxDictEntries distinct texts and, past dictProbe of them, while they
// are at most half of its texts (a column of unique names is not worth it).
const (
	maxDictEntries = math.MaxUint16 // codes are uint16; code 0 means no text
	dictProbe      = 4096
)

// errTextTooLarge refuses a column whose texts outgrow uint32 offsets.
var errTextTooLarge = errors.New("the texts of one field exceed 4 GiB")

// colBuilder accumulates one column row by row. Only rows with a value
// take a slot. Arrays other than the tags are created when the first value
// needing them arrives, so a column of numbers stores no text offsets and
// vice versa.
type colBuilder struct {
	path     string
	related  []int // columns whose path is a dot prefix of this one, or the reverse
	last     int   // the last row given a value
	n        int   // slots
	rows     []int32
	tag      uint8 // the tag of every slot while tags is nil
	tags     []uint8
	ints     []int32
	nums     []float64
	text     []byte
	offs     []uint32
	dict     map[string]uint16 // non-nil while dictionary encoding
	codes    []uint16
	textRows int
}

func newColBuilder(path string) *colBuilder {
	return &colBuilder{path: path, last: -1}
}

// add gives row r (after the last row given one) a value. s is copied.
func (c *colBuilder) add(r int, t uint8, num float64, s []byte) error {
	if c.rows == nil && r != c.n { // the first row without a value
		c.rows = make([]int32, c.n, c.n+c.n/4+16)
		for i := range c.rows {
			c.rows[i] = int32(i)
		}
	}
	if c.rows != nil {
		c.rows = push(c.rows, int32(r))
	}
	c.addTag(t)
	c.addNum(t, num)
	if err := c.addText(t, s); err != nil {
		return err
	}
	c.last = r
	c.n++
	return nil
}

func (c *colBuilder) addTag(t uint8) {
	if c.tags == nil {
		if c.n == 0 {
			c.tag = t
		}
		if t == c.tag {
			return
		}
		c.tags = make([]uint8, c.n, c.n+c.n/4+16)
		for i := range c.tags {
			c.tags[i] = c.tag
		}
	}
	c.tags = push(c.tags, t)
}

func (c *colBuilder) addNum(t uint8, num float64) {
	if t != tagNumber {
		switch {
		case c.nums != nil:
			c.nums = push(c.nums, 0)
		case c.ints != nil:
			c.ints = push(c.ints, 0)
		}
		return
	}
	if c.ints == nil && c.nums == nil {
		c.ints = make([]int32, c.n, c.n+c.n/4+16)
	}
	if c.nums == nil {
		if i := int32(num); float64(i) == num && (num != 0 || !math.Signbit(num)) {
			c.ints = push(c.ints, i)
			return
		}
		c.nums = make([]float64, len(c.ints), cap(c.ints))
		for i, v := range c.ints {
			c.nums[i] = float64(v)
		}
		c.ints = nil
	}
	c.nums = push(c.nums, num)
}

func (c *colBuilder) addText(t uint8, s []byte) error {
	isText := t == tagString || t == tagRaw
	if c.dict == nil && c.offs == nil {
		if !isText {
			return nil
		}
		c.dict = map[string]uint16{}
		c.offs = []uint32{0, 0}
		c.codes = make([]uint16, c.n, c.n+c.n/4+16)
	}
	if isText {
		c.textRows++
	}
	if c.dict != nil {
		return c.addCode(isText, s)
	}
	if isText {
		if uint64(len(c.text))+uint64(len(s)) > math.MaxUint32 {
			return errTextTooLarge
		}
		c.text = pushAll(c.text, s...)
	}
	c.offs = push(c.offs, uint32(len(c.text)))
	return nil
}

// addCode appends a dictionary code, switching to plain offsets when the
// dictionary stops paying.
func (c *colBuilder) addCode(isText bool, s []byte) error {
	if !isText {
		c.codes = push(c.codes, 0)
		return nil
	}
	if code, ok := c.dict[string(s)]; ok {
		c.codes = push(c.codes, code)
		return nil
	}
	entries := len(c.dict)
	if entries+1 >= maxDictEntries || entries >= dictProbe && 2*entries > c.textRows {
		c.toPlain()
		c.textRows-- // addText counts this row again
		return c.addText(tagString, s)
	}
	if uint64(len(c.text))+uint64(len(s)) > math.MaxUint32 {
		return errTextTooLarge
	}
	c.text = pushAll(c.text, s...)
	c.offs = push(c.offs, uint32(len(c.text)))
	code := uint16(entries + 1)
	c.dict[string(s)] = code
	c.codes = push(c.codes, code)
	return nil
}

// toPlain rewrites the dictionary-encoded rows as plain offsets.
func (c *colBuilder) toPlain() {
	text := make([]byte, 0, 2*len(c.text)+len(c.codes)*8)
	offs := make([]uint32, 1, cap(c.codes)+1)
	for _, code := range c.codes {
		text = append(text, c.text[c.offs[code]:c.offs[code+1]]...)
		offs = append(offs, uint32(len(text)))
	}
	c.text, c.offs, c.dict, c.codes = text, offs, nil, nil
}

// finish returns the column of n rows in its compact form.
func (c *colBuilder) finish(n int) *Column {
	col := &Column{path: c.path, n: n, slots: c.n, tag: c.tag, tags: trim(c.tags),
		ints: trim(c.ints), nums: trim(c.nums), offs: trim(c.offs)}
	if c.rows == nil && c.n < n { // every row up to the last has a value
		c.rows = make([]int32, c.n)
		for i := range c.rows {
			c.rows[i] = int32(i)
		}
	}
	if c.rows != nil {
		col.present = newPresence(c.rows, n)
	}
	if len(c.text) > 0 {
		text := trim(c.text)
		col.text = unsafe.String(&text[0], len(text)) // never written again
	}
	if c.dict != nil {
		if len(c.offs)-1 <= math.MaxUint8+1 {
			col.codes8 = make([]uint8, len(c.codes))
			for i, code := range c.codes {
				col.codes8[i] = uint8(code)
			}
		} else {
			col.codes16 = trim(c.codes)
		}
	}
	col.fixWidth()
	return col
}

// push appends v to s, doubling the capacity when s is full: append
// grows a large slice by a quarter, which for a column of a million rows
// allocated about four times its final size in discarded arrays (316 MB
// for the bench's 48 MB of columns) and copied as much.
func push[S ~[]E, E any](s S, v E) S {
	if len(s) == cap(s) {
		s = slices.Grow(s, max(len(s), 16))
	}
	return append(s, v)
}

// pushAll is push for several values.
func pushAll[S ~[]E, E any](s S, v ...E) S {
	if len(s)+len(v) > cap(s) {
		s = slices.Grow(s, max(len(s), len(v), 16))
	}
	return append(s, v...)
}

// trim returns s without much spare capacity.
func trim[S ~[]E, E any](s S) S {
	if cap(s)-len(s) <= len(s)/32 {
		return s
	}
	return slices.Clone(s)
}

// fieldError is an input error found while storing a value; the reader adds
// where it happened.
type fieldError struct{ msg string }

func (e *fieldError) Error() string { return e.msg }

func fieldErrorf(format string, args ...any) error {
	return &fieldError{msg: fmt.Sprintf(format, args...)}
}
