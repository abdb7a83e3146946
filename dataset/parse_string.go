package dataset

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

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
