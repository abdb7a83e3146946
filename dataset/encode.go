package dataset

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
)

// The binary form: magic, version, then the header and the columns in their
// stored representation, then a CRC-32C of everything before it. All
// integers are little endian; lengths are uvarints.
//
//	header: importCode name variantField (strings), rows, columns
//	column: path, slots,
//	        presence (0 every row | 1 bitmap: words, uint64 words |
//	        2 list: int32 rows),
//	        tags (a tag byte, or 0xFF and a byte per slot),
//	        numbers (0 none | 1 int32 per slot | 2 float64 per slot),
//	        texts (0 none | 1 plain | 2 dictionary with uint8 codes |
//	        3 dictionary with uint16 codes): offsets count, uint32 offsets,
//	        arena, then the codes of a dictionary.
const (
	encodingMagic   = "MGQLDSET"
	encodingVersion = 1
	manyTags        = 0xFF
	chunkBytes      = 1 << 16
)

// Presence, number and text modes of an encoded column.
const (
	presenceAll = iota
	presenceBitmap
	presenceList
)

const (
	numNone = iota
	numInt32
	numFloat64
)

const (
	textNone = iota
	textPlain
	textDict8
	textDict16
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// encoder writes the binary form; the first error sticks.
type encoder struct {
	w   *bufio.Writer
	crc hash.Hash32
	buf []byte
	err error
}

// Encode writes d in a compact, versioned binary form that Decode reads
// back exactly. Lazily built indexes are not written.
func (d *Dataset) Encode(w io.Writer) error {
	crc := crc32.New(castagnoli)
	e := &encoder{w: bufio.NewWriterSize(io.MultiWriter(w, crc), chunkBytes), crc: crc}
	e.bytes([]byte(encodingMagic))
	e.bytes([]byte{encodingVersion})
	e.string(d.code)
	e.string(d.name)
	e.string(d.variantField)
	e.uvarint(uint64(d.n))
	e.uvarint(uint64(len(d.cols)))
	for _, c := range d.cols {
		e.column(c)
	}
	if e.err == nil {
		e.err = e.w.Flush()
	}
	if e.err == nil {
		_, e.err = w.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32()))
	}
	if e.err != nil {
		return fmt.Errorf("dataset: encoding %s: %w", d.code, e.err)
	}
	return nil
}

func (e *encoder) bytes(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

func (e *encoder) uvarint(v uint64) {
	e.bytes(binary.AppendUvarint(e.buf[:0], v))
}

func (e *encoder) string(s string) {
	e.uvarint(uint64(len(s)))
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

func (e *encoder) column(c *Column) {
	e.string(c.path)
	e.uvarint(uint64(c.slots))
	e.presence(c.present)
	if c.tags == nil {
		e.bytes([]byte{c.tag})
	} else {
		e.bytes([]byte{manyTags})
		e.bytes(c.tags)
	}
	switch {
	case c.ints != nil:
		e.bytes([]byte{numInt32})
		writeArray(e, c.ints, 4, func(b []byte, v int32) []byte { return binary.LittleEndian.AppendUint32(b, uint32(v)) })
	case c.nums != nil:
		e.bytes([]byte{numFloat64})
		writeArray(e, c.nums, 8, func(b []byte, v float64) []byte { return binary.LittleEndian.AppendUint64(b, math.Float64bits(v)) })
	default:
		e.bytes([]byte{numNone})
	}
	e.texts(c)
}

func (e *encoder) presence(p *presence) {
	switch {
	case p == nil:
		e.bytes([]byte{presenceAll})
	case p.bits != nil:
		e.bytes([]byte{presenceBitmap})
		e.uvarint(uint64(len(p.bits)))
		writeArray(e, p.bits, 8, binary.LittleEndian.AppendUint64)
	default:
		e.bytes([]byte{presenceList})
		writeArray(e, p.rows, 4, func(b []byte, v int32) []byte { return binary.LittleEndian.AppendUint32(b, uint32(v)) })
	}
}

func (e *encoder) texts(c *Column) {
	mode := textPlain
	switch {
	case c.offs == nil && c.width == 0:
		e.bytes([]byte{textNone})
		return
	case c.codes8 != nil:
		mode = textDict8
	case c.codes16 != nil:
		mode = textDict16
	}
	e.bytes([]byte{byte(mode)})
	if c.width > 0 { // the stored form keeps offsets: write them
		e.uvarint(uint64(c.slots + 1))
		writeOffsets(e, c.slots+1, c.width)
	} else {
		e.uvarint(uint64(len(c.offs)))
		writeArray(e, c.offs, 4, binary.LittleEndian.AppendUint32)
	}
	e.string(c.text)
	switch mode {
	case textDict8:
		e.bytes(c.codes8)
	case textDict16:
		writeArray(e, c.codes16, 2, binary.LittleEndian.AppendUint16)
	}
}

// writeOffsets writes the n offsets 0, w, 2w, … of fixed-width texts in
// little-endian chunks, as writeArray would write them.
func writeOffsets(e *encoder, n, w int) {
	for i := 0; i < n && e.err == nil; {
		k := min(n-i, chunkBytes/4)
		e.buf = e.buf[:0]
		for j := i; j < i+k; j++ {
			e.buf = binary.LittleEndian.AppendUint32(e.buf, uint32(j*w))
		}
		e.bytes(e.buf)
		i += k
	}
}

// writeArray writes s in little-endian chunks.
func writeArray[T any](e *encoder, s []T, size int, put func([]byte, T) []byte) {
	for len(s) > 0 && e.err == nil {
		k := min(len(s), chunkBytes/size)
		e.buf = e.buf[:0]
		for _, v := range s[:k] {
			e.buf = put(e.buf, v)
		}
		e.bytes(e.buf)
		s = s[k:]
	}
}
