package dataset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
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
