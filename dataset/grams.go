package dataset

import (
	"strings"
	"unicode/utf8"

	"github.com/RoaringBitmap/roaring/v2"
)

// Grams is an n-gram index of a column's texts for case-insensitive
// contains (like): for every 3- and 4-byte sequence of a text in lower
// case, the rows (roaring bitmaps: row sets of any density stay small)
// whose text holds it. Texts are lowered byte-wise when ASCII and with
// strings.ToLower otherwise, as the like predicate does.
//
// A needle of 3 or 4 bytes is one posting list, exact when every text is
// ASCII; a longer one is the intersection of its 4-grams, a superset the
// caller verifies. Needles of 1 or 2 bytes are the union of the 3-grams
// that hold them plus the texts shorter than 3 bytes that do, exact too
// when every text is ASCII. An
// index is immutable and safe for concurrent use.
type Grams struct {
	grams3   map[uint32]*roaring.Bitmap // by the 3 bytes, big-endian
	grams4   map[uint32]*roaring.Bitmap // by the 4 bytes, big-endian
	short    *roaring.Bitmap            // rows whose text is shorter than 3 bytes
	texts    *roaring.Bitmap            // rows holding text
	allASCII bool
	bytes    int64
	col      *Column // for the short texts
}

// Grams returns the n-gram index of a leaf column's texts, built on first
// use per path (other paths are not held up), or nil when path is not a
// leaf column or its texts are too long to index (MaxGramText).
func (d *Dataset) Grams(path string) *Grams {
	if d.byPath[path] == nil {
		return nil
	}
	l := lazyEntry(d, &d.grams, path)
	if g := l.ready.Load(); g != nil { // no closure: queries call this often
		return g
	}
	return l.get(d.gramsBuilder(path))
}

// GramsReady is Grams if the index is built; else it starts building it
// in the background (once) and returns nil (see OrderReady).
func (d *Dataset) GramsReady(path string) *Grams {
	if d.byPath[path] == nil {
		return nil
	}
	l := lazyEntry(d, &d.grams, path)
	if g := l.ready.Load(); g != nil {
		return g
	}
	return l.getReady(d.gramsBuilder(path))
}

func (d *Dataset) gramsBuilder(path string) func() *Grams {
	return func() *Grams {
		c := d.byPath[path]
		if textBytes(c) > MaxGramText {
			return nil
		}
		g := buildGrams(c)
		d.indexes.Add(g.bytes)
		return g
	}
}

// MaxGramText bounds the n-gram index: a column whose texts hold more
// bytes gets none (like scans it), since the index holds about two
// postings per byte of text. 32 MB of text: a million texts of 32 bytes;
// the index then takes some tens of MB.
const MaxGramText = 32 << 20

// textBytes returns the bytes of a column's texts (the arena, which
// dictionary columns share between rows, counted per row).
func textBytes(c *Column) int64 {
	var n int64
	for row := 0; row < c.n; row++ {
		if c.tagAt(row) == tagString {
			s := c.slot(row)
			n += int64(len(c.slotText(s)))
		}
	}
	return n
}

func key3(b []byte) uint32 { return uint32(b[0])<<16 | uint32(b[1])<<8 | uint32(b[2]) }

func key4(b []byte) uint32 { return uint32(b[0])<<24 | key3(b[1:]) }

func buildGrams(c *Column) *Grams {
	g := &Grams{short: roaring.New(), texts: roaring.New(), allASCII: true, col: c}
	g3, g4 := newGramPostings(), newGramPostings()
	var buf []byte
	for row := 0; row < c.n; row++ {
		if row%gramChunk == 0 {
			g3.flush()
			g4.flush()
		}
		if c.tagAt(row) != tagString {
			continue
		}
		g.texts.Add(uint32(row))
		var ascii bool
		buf, ascii = appendLower(buf[:0], c.textAt(row))
		g.allASCII = g.allASCII && ascii
		if len(buf) < 3 {
			g.short.Add(uint32(row))
			continue
		}
		for i := 0; i+3 <= len(buf); i++ {
			g3.add(key3(buf[i:]), row)
			if i+4 <= len(buf) {
				g4.add(key4(buf[i:]), row)
			}
		}
	}
	g.grams3, g.grams4 = g3.done(), g4.done()
	for _, m := range []map[uint32]*roaring.Bitmap{g.grams3, g.grams4, {0: g.short, 1: g.texts}} {
		for _, b := range m {
			b.RunOptimize()
			g.bytes += int64(b.GetSizeInBytes()) + 48
		}
	}
	return g
}

// MemoryBytes approximates the bytes the index holds.
func (g *Grams) MemoryBytes() int64 { return g.bytes }

// Like returns the rows whose text may contain needle ignoring case, and
// whether that set is exact (else the caller checks each row). The bitmap
// may be shared: callers must not modify it.
func (g *Grams) Like(needle string) (rows *roaring.Bitmap, exact bool) {
	low, ascii := appendLower(nil, needle)
	exact = ascii && g.allASCII
	switch {
	case len(low) == 0:
		return g.texts, true
	case len(low) == 3:
		return orEmpty(g.grams3[key3(low)]), exact
	case len(low) == 4:
		return orEmpty(g.grams4[key4(low)]), exact
	case len(low) > 4:
		parts := make([]*roaring.Bitmap, 0, len(low)-3)
		for i := 0; i+4 <= len(low); i += 2 {
			b := g.grams4[key4(low[i:])]
			if b == nil {
				return roaring.New(), true
			}
			parts = append(parts, b)
		}
		if last := g.grams4[key4(low[len(low)-4:])]; last != nil {
			parts = append(parts, last)
		} else {
			return roaring.New(), true
		}
		return roaring.FastAnd(parts...), false
	}
	// 1 or 2 bytes: a text of 3 bytes or more holds them in one of its
	// 3-grams, so the union of those is exact for it; the short texts
	// are checked here.
	var parts []*roaring.Bitmap
	for k, b := range g.grams3 {
		if containsKey3(k, low) {
			parts = append(parts, b)
		}
	}
	out := roaring.FastOr(parts...)
	var buf []byte
	for it := g.short.Iterator(); it.HasNext(); {
		r := it.Next()
		if buf, _ = appendLower(buf[:0], g.col.textAt(int(r))); strings.Contains(string(buf), string(low)) {
			out.Add(r)
		}
	}
	return out, exact
}

// containsKey3 reports whether the 3-gram k holds the 1- or 2-byte needle.
func containsKey3(k uint32, needle []byte) bool {
	gram := [3]byte{byte(k >> 16), byte(k >> 8), byte(k)}
	return strings.Contains(string(gram[:]), string(needle))
}

func orEmpty(b *roaring.Bitmap) *roaring.Bitmap {
	if b == nil {
		return roaring.New()
	}
	return b
}

// appendLower appends s in lower case as the like predicate folds it, and
// whether s is ASCII.
func appendLower(buf []byte, s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return append(buf, strings.ToLower(s)...), false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf = append(buf, c)
	}
	return buf, true
}
