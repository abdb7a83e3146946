package dataset

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"unsafe"
)

// ErrCorrupt is wrapped by every Decode error about the input itself (as
// opposed to an error of the reader).
var ErrCorrupt = errors.New("dataset: corrupt encoding")

// decoder reads the binary form; the first error sticks. left is the number
// of unread input bytes when the reader tells (bytes.Reader and the like),
// else -1; it bounds allocations so corrupt lengths cannot exhaust memory.
type decoder struct {
	r    *bufio.Reader
	crc  hash.Hash32
	left int64
	buf  []byte
	err  error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
}

// read fills p from the input.
func (d *decoder) read(p []byte) {
	if d.err != nil {
		return
	}
	if _, err := io.ReadFull(d.r, p); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			d.fail("unexpected end of the input")
		} else {
			d.err = err
		}
		return
	}
	d.crc.Write(p)
	if d.left >= 0 {
		d.left -= int64(len(p))
	}
}

func (d *decoder) byte() byte {
	var b [1]byte
	d.read(b[:])
	return b[0]
}

func (d *decoder) uvarint() uint64 {
	var v uint64
	for shift := 0; shift < 64 && d.err == nil; shift += 7 {
		b := d.byte()
		v |= uint64(b&0x7F) << shift
		if b < 0x80 {
			return v
		}
	}
	d.fail("bad varint")
	return 0
}

// length reads a count of items of size bytes each, checked against max
// and the input left.
func (d *decoder) length(size int, max uint64, what string) int {
	n := d.uvarint()
	if d.err == nil && (n > max || d.left >= 0 && n*uint64(size) > uint64(d.left)) {
		d.fail("%s length %d is out of range", what, n)
	}
	if d.err != nil {
		return 0
	}
	return int(n)
}

func (d *decoder) string(max uint64, what string) string {
	return string(d.bytes(d.length(1, max, what)))
}

// bytes reads n bytes, growing the result chunk by chunk when the input's
// size is unknown.
func (d *decoder) bytes(n int) []byte {
	if d.err == nil && d.left >= 0 && int64(n) > d.left {
		d.fail("%d bytes overrun the input", n)
	}
	if d.err != nil {
		return nil
	}
	if d.left >= 0 || n <= chunkBytes {
		b := make([]byte, n)
		d.read(b)
		return b
	}
	var b []byte
	for len(b) < n && d.err == nil {
		k := min(n-len(b), 1<<20)
		b = append(b, make([]byte, k)...)
		d.read(b[len(b)-k:])
	}
	return b
}

// readArray reads n little-endian items of size bytes. When the input's
// size is unknown it grows the result chunk by chunk, so a corrupt n fails
// at the end of the input instead of allocating it all.
func readArray[T any](d *decoder, n, size int, get func([]byte) T) []T {
	if d.err != nil {
		return nil
	}
	if d.left >= 0 && int64(n)*int64(size) > d.left {
		d.fail("array of %d items overruns the input", n)
		return nil
	}
	per := chunkBytes / size
	s := make([]T, 0, n)
	if d.left < 0 {
		s = make([]T, 0, min(n, per))
	}
	for len(s) < n && d.err == nil {
		k := min(n-len(s), per)
		if cap(d.buf) < k*size {
			d.buf = make([]byte, chunkBytes)
		}
		d.buf = d.buf[:k*size]
		d.read(d.buf)
		for i := 0; i < k && d.err == nil; i++ {
			s = append(s, get(d.buf[i*size:]))
		}
	}
	if d.err != nil {
		return nil
	}
	return s
}

// Decode reads a dataset written by Encode. Input that is not such an
// encoding, is truncated or fails its checksum gives an error wrapping
// ErrCorrupt; Decode never panics. Given a reader that reports its
// remaining length (bytes.Reader), allocations are checked against it.
func Decode(r io.Reader) (*Dataset, error) {
	d := &decoder{r: bufio.NewReaderSize(r, chunkBytes), crc: crc32.New(castagnoli), left: -1}
	if l, ok := r.(interface{ Len() int }); ok {
		d.left = int64(l.Len())
	}
	d.header()
	code := d.string(MaxImportCodeLen, "importCode")
	name := d.string(1<<20, "name")
	variantField := d.string(1<<20, "variantField")
	n := d.length(0, MaxRows, "rows")
	ncols := d.length(0, MaxPaths, "columns")
	cols := make([]*Column, 0, min(ncols, 64))
	for i := 0; i < ncols && d.err == nil; i++ {
		cols = append(cols, d.column(n))
	}
	d.trailer()
	if d.err != nil {
		return nil, d.err
	}
	if err := ValidateImportCode(code); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	ds, err := newDataset(code, name, variantField, n, cols)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return ds, nil
}

// header checks the magic and version.
func (d *decoder) header() {
	var b [len(encodingMagic) + 1]byte
	d.read(b[:])
	switch {
	case d.err != nil:
	case string(b[:len(encodingMagic)]) != encodingMagic:
		d.fail("not a dataset encoding")
	case b[len(encodingMagic)] != encodingVersion:
		d.fail("unsupported version %d", b[len(encodingMagic)])
	}
}

// trailer checks the checksum of everything read.
func (d *decoder) trailer() {
	sum := d.crc.Sum32()
	var b [4]byte
	d.read(b[:])
	if d.err == nil && binary.LittleEndian.Uint32(b[:]) != sum {
		d.fail("checksum mismatch")
	}
}

// column reads and checks one column of n rows.
func (d *decoder) column(n int) *Column {
	c := &Column{n: n, path: d.string(1<<20, "path")}
	c.slots = d.length(0, uint64(n), "slots")
	d.presence(c)
	switch t := d.byte(); {
	case t == manyTags:
		c.tags = d.bytes(c.slots)
	case t < numTags:
		c.tag = t
	default:
		d.fail("column %q: bad tag %d", c.path, t)
	}
	switch mode := d.byte(); mode {
	case numNone:
	case numInt32:
		c.ints = readArray(d, c.slots, 4, func(b []byte) int32 { return int32(binary.LittleEndian.Uint32(b)) })
	case numFloat64:
		c.nums = readArray(d, c.slots, 8, func(b []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b)) })
	default:
		d.fail("column %q: bad number mode %d", c.path, mode)
	}
	d.texts(c)
	if d.err == nil {
		if err := c.check(); err != nil {
			d.fail("column %q: %v", c.path, err)
		}
		c.fixWidth()
	}
	return c
}

// presence reads which rows of c have a value and checks it against the
// column's slots.
func (d *decoder) presence(c *Column) {
	switch mode := d.byte(); mode {
	case presenceAll:
		if c.slots != c.n {
			d.fail("column %q: %d values for %d rows", c.path, c.slots, c.n)
		}
	case presenceBitmap:
		words := d.length(8, uint64(c.n+63)/64, "bitmap")
		b := readArray(d, words, 8, binary.LittleEndian.Uint64)
		c.present = &presence{bits: b, ranks: rankWords(b)}
	case presenceList:
		rows := readArray(d, c.slots, 4, func(b []byte) int32 { return int32(binary.LittleEndian.Uint32(b)) })
		c.present = &presence{rows: rows}
	default:
		d.fail("column %q: bad presence mode %d", c.path, mode)
	}
	if d.err == nil && c.present != nil {
		if err := c.present.check(c.n, c.slots); err != nil {
			d.fail("column %q: %v", c.path, err)
		}
	}
}

// texts reads a column's text arena, offsets and codes.
func (d *decoder) texts(c *Column) {
	mode := d.byte()
	switch mode {
	case textNone:
		return
	case textPlain, textDict8, textDict16:
	default:
		d.fail("column %q: bad text mode %d", c.path, mode)
		return
	}
	c.offs = readArray(d, d.length(4, math.MaxUint32, "offsets"), 4, binary.LittleEndian.Uint32)
	if text := d.bytes(d.length(1, math.MaxUint32, "text")); len(text) > 0 {
		c.text = unsafe.String(&text[0], len(text)) // never written again
	}
	switch mode {
	case textDict8:
		c.codes8 = d.bytes(c.slots)
	case textDict16:
		c.codes16 = readArray(d, c.slots, 2, binary.LittleEndian.Uint16)
	}
}

// check verifies that every row of c can be read without a panic.
func (c *Column) check() error {
	var seen [numTags]bool
	seen[c.tag] = c.tags == nil
	for _, t := range c.tags {
		if t >= numTags {
			return fmt.Errorf("bad tag %d", t)
		}
		seen[t] = true
	}
	if seen[tagNumber] && c.ints == nil && c.nums == nil {
		return errors.New("numbers missing")
	}
	for _, f := range c.nums {
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return errors.New("non-finite number")
		}
	}
	if (seen[tagString] || seen[tagRaw]) && c.offs == nil {
		return errors.New("texts missing")
	}
	return c.checkTexts()
}

// check verifies that p maps n rows to slots values.
func (p *presence) check(n, slots int) error {
	if p.bits != nil {
		if len(p.bits) != (n+63)/64 || n%64 != 0 && p.bits[len(p.bits)-1]>>(n%64) != 0 {
			return errors.New("bitmap does not match the rows")
		}
	} else {
		for i, r := range p.rows {
			if r < 0 || int(r) >= n || i > 0 && r <= p.rows[i-1] {
				return errors.New("row list out of order")
			}
		}
	}
	if p.count() != slots {
		return errors.New("presence does not match the values")
	}
	return nil
}

// checkTexts verifies offsets and dictionary codes.
func (c *Column) checkTexts() error {
	if c.offs == nil {
		return nil
	}
	for i := 1; i < len(c.offs); i++ {
		if c.offs[i] < c.offs[i-1] {
			return errors.New("offsets decrease")
		}
	}
	if len(c.offs) == 0 || c.offs[len(c.offs)-1] > uint32(len(c.text)) {
		return errors.New("offsets overrun the text")
	}
	entries := len(c.offs) - 1
	if c.codes8 == nil && c.codes16 == nil {
		if entries != c.slots {
			return errors.New("wrong number of offsets")
		}
		return nil
	}
	for _, code := range c.codes8 {
		if int(code) >= entries {
			return errors.New("code out of range")
		}
	}
	for _, code := range c.codes16 {
		if int(code) >= entries {
			return errors.New("code out of range")
		}
	}
	return nil
}
