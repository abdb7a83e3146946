package dataset

// Cell tags: the stored type of one cell, finer than Kind so that booleans
// need no storage of their own and an absent path differs from null.
const (
	tagAbsent uint8 = iota // the document lacks the path (reads as Null)
	tagNull
	tagFalse
	tagTrue
	tagNumber
	tagString
	tagRaw
	numTags
)

// tagKind maps a tag to the Kind users see.
var tagKind = [numTags]Kind{Null, Null, Bool, Bool, Number, String, Raw}

// Column holds the values of one leaf path for every row of a dataset. It is
// immutable and safe for concurrent use.
//
// Only rows that have the path store anything: their values fill slots, and
// a presence maps rows to slots (nil when every row has a value). Storage,
// per slot: a tag byte (or one tag for the whole column when every slot has
// the same one); a number when the column holds any (int32 while all its
// numbers are small integers, float64 otherwise); a span of one shared text
// arena for strings and raw JSON, addressed either directly through
// slots+1 offsets (none when every text has one width: slot i is at
// i·width) or, for columns with few distinct texts, through a dictionary
// code of one or two bytes.
type Column struct {
	path    string
	n       int       // rows
	slots   int       // values
	present *presence // nil: slot i is row i
	tag     uint8     // the tag of every slot when tags is nil
	tags    []uint8   // per slot, or nil
	ints    []int32   // per slot numbers, when all fit in int32
	nums    []float64
	text    string   // arena of every string and raw text
	offs    []uint32 // plain: slots+1 offsets; dictionary: entries+1 offsets
	width   int      // plain texts all of this many bytes (codes, dates, UUIDs): no offs
	codes8  []uint8  // dictionary codes per slot (entry 0 is empty)
	codes16 []uint16
}

// Path returns the leaf dot path the column stores.
func (c *Column) Path() string {
	if c == nil {
		return ""
	}
	return c.path
}

// Len returns the number of rows.
func (c *Column) Len() int {
	if c == nil {
		return 0
	}
	return c.n
}

// Value returns the value of row. A nil Column, an absent value or a row out
// of range give Null. It does not allocate: a String or Raw value's Str
// shares the column's immutable arena.
func (c *Column) Value(row int) Value {
	if c == nil || uint(row) >= uint(c.n) {
		return Value{}
	}
	s := c.slot(row)
	if s < 0 {
		return Value{}
	}
	switch t := c.slotTag(s); t {
	case tagFalse, tagTrue:
		return Value{Kind: Bool, Bool: t == tagTrue}
	case tagNumber:
		return Value{Kind: Number, Num: c.slotNum(s)}
	case tagString, tagRaw:
		return Value{Kind: tagKind[t], Str: c.slotText(s)}
	}
	return Value{}
}

// Kind returns the kind of row's value, Null for a nil Column, an absent
// value or a row out of range.
func (c *Column) Kind(row int) Kind {
	if c == nil || uint(row) >= uint(c.n) {
		return Null
	}
	return tagKind[c.tagAt(row)]
}

// has reports whether row has the path at all (null counts).
func (c *Column) has(row int) bool {
	return c.tagAt(row) != tagAbsent
}

// slot returns the slot of row, or -1 when the row lacks the path. row must
// be in range.
func (c *Column) slot(row int) int {
	if c.present == nil {
		return row
	}
	return c.present.slot(row)
}

// tagAt, num, textAt and code read row's value; row must be in range and,
// but for tagAt, have a value of their kind.
func (c *Column) tagAt(row int) uint8 {
	if s := c.slot(row); s >= 0 {
		return c.slotTag(s)
	}
	return tagAbsent
}

func (c *Column) num(row int) float64 { return c.slotNum(c.slot(row)) }

func (c *Column) textAt(row int) string { return c.slotText(c.slot(row)) }

func (c *Column) code(row int) int {
	s := c.slot(row)
	if c.codes8 != nil {
		return int(c.codes8[s])
	}
	return int(c.codes16[s])
}

func (c *Column) slotTag(s int) uint8 {
	if c.tags == nil {
		return c.tag
	}
	return c.tags[s]
}

func (c *Column) slotNum(s int) float64 {
	if c.ints != nil {
		return float64(c.ints[s])
	}
	return c.nums[s]
}

// slotText returns the slot's span of the arena ("" for slots without text).
func (c *Column) slotText(s int) string {
	if c.width > 0 {
		return c.text[s*c.width : (s+1)*c.width]
	}
	i := s
	switch {
	case c.codes8 != nil:
		i = int(c.codes8[s])
	case c.codes16 != nil:
		i = int(c.codes16[s])
	}
	return c.text[c.offs[i]:c.offs[i+1]]
}

// dictionary reports whether texts are dictionary encoded, and the number
// of entries (entry 0, the empty text of rows without text, included).
func (c *Column) dictionary() (bool, int) {
	if c.codes8 == nil && c.codes16 == nil {
		return false, 0
	}
	return true, len(c.offs) - 1
}

// fixWidth drops the offsets of plain texts that all have one width (a
// column of codes, dates or UUIDs): 4 bytes a row. Every slot then holds
// a text, since a slot without one has an empty span.
func (c *Column) fixWidth() {
	if len(c.offs) < 2 || c.codes8 != nil || c.codes16 != nil || c.offs[0] != 0 {
		return
	}
	w := c.offs[1]
	if w == 0 {
		return
	}
	for i := 2; i < len(c.offs); i++ {
		if c.offs[i]-c.offs[i-1] != w {
			return
		}
	}
	c.width, c.offs = int(w), nil
}

// codedTexts returns the dictionary's entries when every row holds a
// dictionary-coded string, else 0.
func (c *Column) codedTexts() int {
	dict, entries := c.dictionary()
	if !dict || c.present != nil || c.tags != nil || c.tag != tagString {
		return 0
	}
	return entries
}

// memoryBytes approximates the bytes the column holds.
func (c *Column) memoryBytes() int64 {
	return int64(cap(c.tags)) + 4*int64(cap(c.ints)) + 8*int64(cap(c.nums)) +
		int64(len(c.text)) + 4*int64(cap(c.offs)) + int64(cap(c.codes8)) +
		2*int64(cap(c.codes16)) + int64(len(c.path)) + 160 + c.present.memoryBytes()
}
