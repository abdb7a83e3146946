package dataset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// maxDepth bounds the nesting of objects and arrays, as encoding/json does.
const maxDepth = 10000

// syntaxError is malformed JSON at byte pos of a record.
type syntaxError struct {
	pos int
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

// recordParser flattens one JSON object (a record) into the current row of a
// tableBuilder. It validates the full JSON grammar itself (the readers only
// split the input into records), so it is the only pass over the bytes.
type recordParser struct {
	t    *tableBuilder
	data []byte
	pos  int
	path []byte // the current value's dot path
	// field counts the values stored for the record; hints[field] is the
	// column the previous record stored as that field.
	field int
	hints []int
	start int    // where the value being stored starts
	str   []byte // scratch for unescaped strings
	raw   bytes.Buffer
}

// parse stores the object in data as a new row. Errors are *syntaxError,
// *fieldError or *model.Error.
func (p *recordParser) parse(data []byte) error {
	p.data, p.pos, p.path, p.field = data, 0, p.path[:0], 0
	p.skipSpace()
	if p.pos >= len(data) || data[p.pos] != '{' {
		return p.errorf("the record is %s, not a JSON object", p.describe())
	}
	if err := p.object(0); err != nil {
		return err
	}
	p.skipSpace()
	if p.pos < len(data) {
		return p.errorf("unexpected %s after the object", p.describe())
	}
	return p.t.endRow()
}

// store stores the value at the current path.
func (p *recordParser) store(tag uint8, num float64, s []byte) error {
	if p.field == len(p.hints) {
		p.hints = append(p.hints, -1)
	}
	i, err := p.t.lookup(p.path, p.hints[p.field])
	if err == nil {
		p.hints[p.field] = i
		p.field++
		err = p.t.setColumn(i, tag, num, s)
	}
	if fe, ok := err.(*fieldError); ok {
		return &syntaxError{pos: p.start, msg: fe.msg}
	}
	return err
}

func (p *recordParser) errorf(format string, args ...any) error {
	return &syntaxError{pos: p.pos, msg: fmt.Sprintf(format, args...)}
}

// describe names what is at pos, for messages.
func (p *recordParser) describe() string {
	if p.pos >= len(p.data) {
		return "the end of the input"
	}
	switch c := p.data[p.pos]; {
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	default:
		return fmt.Sprintf("%q", rune(c))
	}
}

func (p *recordParser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// expect consumes c (after white space) or fails.
func (p *recordParser) expect(c byte, what string) error {
	p.skipSpace()
	if p.pos >= len(p.data) || p.data[p.pos] != c {
		return p.errorf("expected %s, found %s", what, p.describe())
	}
	p.pos++
	p.skipSpace()
	return nil
}

// object flattens the object at pos; depth 0 is the record itself. An empty
// nested object is stored as the Raw value {}.
func (p *recordParser) object(depth int) error {
	if depth >= maxDepth {
		return p.errorf("nesting deeper than %d levels", maxDepth)
	}
	start := p.pos
	p.pos++
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		if depth > 0 {
			p.start = start
			return p.store(tagRaw, 0, []byte("{}"))
		}
		return nil
	}
	base := len(p.path)
	for {
		if err := p.member(depth, base); err != nil {
			return err
		}
		p.skipSpace()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			p.pos++
			p.skipSpace()
			continue
		}
		p.path = p.path[:base]
		return p.expect('}', "',' or '}'")
	}
}

// member flattens one "key": value of an object whose path is path[:base].
func (p *recordParser) member(depth, base int) error {
	if p.pos >= len(p.data) || p.data[p.pos] != '"' {
		return p.errorf("expected a string key, found %s", p.describe())
	}
	key, err := p.string()
	if err != nil {
		return err
	}
	p.path = p.path[:base]
	if depth > 0 {
		p.path = append(p.path, '.')
	}
	p.path = append(p.path, key...)
	if err := p.expect(':', "':'"); err != nil {
		return err
	}
	return p.value(depth)
}

// value stores the value at pos under the current path.
func (p *recordParser) value(depth int) error {
	if p.pos >= len(p.data) {
		return p.errorf("unexpected end of the input, expected a value")
	}
	p.start = p.pos
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		s, err := p.string()
		if err != nil {
			return err
		}
		return p.store(tagString, 0, s)
	case c == 't':
		return p.literal("true", tagTrue)
	case c == 'f':
		return p.literal("false", tagFalse)
	case c == 'n':
		return p.literal("null", tagNull)
	case c == '-' || c >= '0' && c <= '9':
		f, err := p.number()
		if err != nil {
			return err
		}
		return p.store(tagNumber, f, nil)
	}
	return p.errorf("expected a value, found %s", p.describe())
}

func (p *recordParser) literal(word string, tag uint8) error {
	if !p.hasPrefix(word) {
		return p.errorf("invalid literal, expected %s", word)
	}
	p.pos += len(word)
	return p.store(tag, 0, nil)
}

// hasPrefix reports whether the input at pos starts with word.
func (p *recordParser) hasPrefix(word string) bool {
	return len(p.data)-p.pos >= len(word) && string(p.data[p.pos:p.pos+len(word)]) == word
}

// array validates the array at pos and stores its compact text as Raw.
func (p *recordParser) array(depth int) error {
	start := p.pos
	if err := p.skipArray(depth); err != nil {
		return err
	}
	p.raw.Reset()
	if err := json.Compact(&p.raw, p.data[start:p.pos]); err != nil {
		return &syntaxError{pos: start, msg: err.Error()} // unreachable: validated
	}
	raw := p.raw.Bytes()
	if !utf8.Valid(raw) {
		raw = bytes.ToValidUTF8(raw, []byte("\uFFFD"))
	}
	return p.store(tagRaw, 0, raw)
}

// skipArray validates the array at pos.
func (p *recordParser) skipArray(depth int) error {
	if depth >= maxDepth {
		return p.errorf("nesting deeper than %d levels", maxDepth)
	}
	p.pos++
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return nil
	}
	for {
		if err := p.skipValue(depth); err != nil {
			return err
		}
		p.skipSpace()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			p.pos++
			p.skipSpace()
			continue
		}
		return p.expect(']', "',' or ']'")
	}
}

// skipObject validates the object at pos.
func (p *recordParser) skipObject(depth int) error {
	if depth >= maxDepth {
		return p.errorf("nesting deeper than %d levels", maxDepth)
	}
	p.pos++
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return nil
	}
	for {
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return p.errorf("expected a string key, found %s", p.describe())
		}
		if _, err := p.string(); err != nil {
			return err
		}
		if err := p.expect(':', "':'"); err != nil {
			return err
		}
		if err := p.skipValue(depth); err != nil {
			return err
		}
		p.skipSpace()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			p.pos++
			p.skipSpace()
			continue
		}
		return p.expect('}', "',' or '}'")
	}
}

// skipValue validates the value at pos.
func (p *recordParser) skipValue(depth int) error {
	if p.pos >= len(p.data) {
		return p.errorf("unexpected end of the input, expected a value")
	}
	var err error
	switch c := p.data[p.pos]; {
	case c == '{':
		err = p.skipObject(depth + 1)
	case c == '[':
		err = p.skipArray(depth + 1)
	case c == '"':
		_, err = p.string()
	case c == 't', c == 'f', c == 'n':
		err = p.skipLiteral()
	case c == '-' || c >= '0' && c <= '9':
		_, err = p.number()
	default:
		err = p.errorf("expected a value, found %s", p.describe())
	}
	return err
}

func (p *recordParser) skipLiteral() error {
	for _, w := range [...]string{"true", "false", "null"} {
		if p.hasPrefix(w) {
			p.pos += len(w)
			return nil
		}
	}
	return p.errorf("invalid literal, expected true, false or null")
}

// number parses the JSON number at pos. Numbers beyond float64 range are
// refused rather than stored as infinities, which JSON cannot print.
func (p *recordParser) number() (float64, error) {
	start := p.pos
	n := jsonNumberLen(p.data[p.pos:])
	if n <= 0 {
		p.pos -= n
		return 0, p.errorf("invalid number")
	}
	p.pos += n
	b := p.data[start:p.pos]
	if f, ok := smallInt(b); ok {
		return f, nil
	}
	f, err := strconv.ParseFloat(unsafe.String(&b[0], len(b)), 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, &syntaxError{pos: start, msg: "invalid number " + string(b)}
	}
	if math.IsInf(f, 0) {
		return 0, &syntaxError{pos: start, msg: fmt.Sprintf("number %.40s is out of range", b)}
	}
	return f, nil
}

// jsonNumberLen returns the length of the JSON number that b starts with,
// or minus the offset of the first bad byte when b does not start with one.
func jsonNumberLen(b []byte) int {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = skipDigits(b, i+1)
	default:
		return -i
	}
	if i < len(b) && b[i] == '.' {
		j := skipDigits(b, i+1)
		if j == i+1 {
			return -j
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := skipDigits(b, i)
		if j == i {
			return -j
		}
		i = j
	}
	return i
}

func skipDigits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// smallInt parses an optionally negative integer of at most 15 digits, the
// common case, exactly and without strconv.
func smallInt(b []byte) (float64, bool) {
	neg := b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		if n == 0 {
			return math.Copysign(0, -1), true
		}
		n = -n
	}
	return float64(n), true
}

// string parses the JSON string at pos and returns its text: a slice of the
// input when it needs no unescaping, else of p.str (valid until the next
// call). Invalid UTF-8 becomes U+FFFD, as encoding/json does.
func (p *recordParser) string() ([]byte, error) {
	start := p.pos + 1
	ascii := true
	for i := start; i < len(p.data); i++ {
		switch c := p.data[i]; {
		case c == '"':
			p.pos = i + 1
			s := p.data[start:i]
			if !ascii && !utf8.Valid(s) {
				p.str = append(p.str[:0], bytes.ToValidUTF8(s, []byte("\uFFFD"))...)
				return p.str, nil
			}
			return s, nil
		case c == '\\':
			p.pos = i
			return p.escapedString(start)
		case c < 0x20:
			p.pos = i
			return nil, p.errorf("control character %q in a string", rune(c))
		case c >= 0x80:
			ascii = false
		}
	}
	p.pos = len(p.data)
	return nil, p.errorf("unexpected end of the input in a string")
}

// escapedString continues string at the first backslash, decoding into p.str.
func (p *recordParser) escapedString(start int) ([]byte, error) {
	p.str = append(p.str[:0], p.data[start:p.pos]...)
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			if !utf8.Valid(p.str) {
				p.str = bytes.ToValidUTF8(p.str, []byte("\uFFFD"))
			}
			return p.str, nil
		case c == '\\':
			if err := p.escape(); err != nil {
				return nil, err
			}
		case c < 0x20:
			return nil, p.errorf("control character %q in a string", rune(c))
		default:
			p.str = append(p.str, c)
			p.pos++
		}
	}
	return nil, p.errorf("unexpected end of the input in a string")
}

// escape decodes the escape sequence at pos into p.str.
func (p *recordParser) escape() error {
	if p.pos+1 >= len(p.data) {
		p.pos = len(p.data)
		return p.errorf("unexpected end of the input in a string")
	}
	c := p.data[p.pos+1]
	if r, ok := simpleEscapes[c]; ok {
		p.str = append(p.str, r)
		p.pos += 2
		return nil
	}
	if c != 'u' {
		p.pos++
		return p.errorf("invalid escape \\%c in a string", c)
	}
	r, ok := hex4(p.data[p.pos+2:])
	if !ok {
		return p.errorf("invalid \\u escape in a string")
	}
	p.pos += 6
	if utf16.IsSurrogate(r) {
		r = p.surrogatePair(r)
	}
	p.str = utf8.AppendRune(p.str, r)
	return nil
}

// surrogatePair completes the surrogate r with the \uXXXX escape at pos,
// consuming it, or returns U+FFFD, as encoding/json does.
func (p *recordParser) surrogatePair(r rune) rune {
	b := p.data[p.pos:]
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return utf8.RuneError
	}
	r2, ok := hex4(b[2:])
	if !ok {
		return utf8.RuneError
	}
	dec := utf16.DecodeRune(r, r2)
	if dec != utf8.RuneError {
		p.pos += 6
	}
	return dec
}

var simpleEscapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// hex4 decodes four hex digits.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
