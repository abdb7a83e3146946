package exec

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// scanRequest decodes the usual request body: a JSON object whose query is
// a non-blank string, whose operationName is a string or null and whose
// variables are an object or null, each given at most once, with any
// other members. For such a body it answers what decodeRequestJSON
// answers; on anything else (malformed JSON, a member of another type, a
// repeated member, an escaped member name, deep nesting) it declines with
// ok false and decodes nothing. Strings are unescaped and invalid UTF-8
// replaced by U+FFFD, numbers are json.Number and an empty object is an
// empty map, as encoding/json does (FuzzScanRequest compares the two).
//
// It converts the body to a string once and slices the strings without
// escapes out of it: a body without variables costs one allocation.
func scanRequest(body []byte) (req Request, ok bool) {
	s := bodyScanner{src: string(body)}
	if !s.request(&req) {
		return Request{}, false
	}
	s.space()
	if s.i != len(s.src) || strings.TrimSpace(req.Query) == "" {
		return Request{}, false
	}
	return req, true
}

// maxScanDepth bounds the nesting scanRequest decodes; deeper documents
// take encoding/json, which has its own limit.
const maxScanDepth = 64

// bodyScanner reads JSON from src at i. Its methods return false on what
// scanRequest declines, leaving i anywhere.
type bodyScanner struct {
	src string
	i   int
}

// request reads the request object into req.
func (s *bodyScanner) request(req *Request) bool {
	var seen [3]bool // query, operationName, variables
	s.space()
	if !s.byte('{') {
		return false
	}
	s.space()
	if s.byte('}') {
		return true
	}
	for {
		s.space()
		key, escaped, ok := s.rawString()
		if !ok || escaped || !s.colon() || !s.member(req, key, &seen) {
			return false
		}
		s.space()
		if s.byte('}') {
			return true
		}
		if !s.byte(',') {
			return false
		}
	}
}

// member reads the value of the request member key.
func (s *bodyScanner) member(req *Request, key string, seen *[3]bool) bool {
	var slot int
	switch key {
	case "query":
		slot = 0
	case "operationName":
		slot = 1
	case "variables":
		slot = 2
	default:
		_, ok := s.value(false, 0)
		return ok
	}
	if seen[slot] {
		return false
	}
	seen[slot] = true
	if s.literal("null") {
		return slot != 0
	}
	switch slot {
	case 0:
		var ok bool
		req.Query, ok = s.str()
		return ok
	case 1:
		var ok bool
		req.OperationName, ok = s.str()
		return ok
	}
	if s.peek() != '{' {
		return false
	}
	v, ok := s.value(true, 0)
	req.Variables, _ = v.(map[string]any)
	return ok
}

// value reads any JSON value at nesting depth, returning it as
// encoding/json decodes into an any with UseNumber when keep is set.
func (s *bodyScanner) value(keep bool, depth int) (any, bool) {
	switch c := s.peek(); {
	case c == '{':
		return s.object(keep, depth+1)
	case c == '[':
		return s.array(keep, depth+1)
	case c == '"':
		str, ok := s.str()
		if !keep {
			return nil, ok
		}
		return str, ok
	case c == '-' || (c >= '0' && c <= '9'):
		n, ok := s.number()
		if !keep {
			return nil, ok
		}
		return json.Number(n), ok
	case s.literal("true"):
		return true, true
	case s.literal("false"):
		return false, true
	case s.literal("null"):
		return nil, true
	}
	return nil, false
}

// object reads an object; its map is nil unless keep is set.
func (s *bodyScanner) object(keep bool, depth int) (any, bool) {
	if depth > maxScanDepth {
		return nil, false
	}
	var m map[string]any
	if keep {
		m = map[string]any{}
	}
	s.i++ // '{'
	s.space()
	if s.byte('}') {
		return m, true
	}
	for {
		s.space()
		key, ok := s.str()
		if !ok || !s.colon() {
			return nil, false
		}
		s.space()
		v, ok := s.value(keep, depth)
		if !ok {
			return nil, false
		}
		if keep {
			m[key] = v
		}
		s.space()
		if s.byte('}') {
			return m, true
		}
		if !s.byte(',') {
			return nil, false
		}
	}
}

// array reads an array; its slice is nil unless keep is set.
func (s *bodyScanner) array(keep bool, depth int) (any, bool) {
	if depth > maxScanDepth {
		return nil, false
	}
	var items []any
	if keep {
		items = []any{}
	}
	s.i++ // '['
	s.space()
	if s.byte(']') {
		return items, true
	}
	for {
		s.space()
		v, ok := s.value(keep, depth)
		if !ok {
			return nil, false
		}
		if keep {
			items = append(items, v)
		}
		s.space()
		if s.byte(']') {
			return items, true
		}
		if !s.byte(',') {
			return nil, false
		}
	}
}

// str reads a string and returns it unescaped.
func (s *bodyScanner) str() (string, bool) {
	raw, escaped, ok := s.rawString()
	if !ok || !escaped {
		return raw, ok
	}
	return unescapeJSON(raw)
}

// rawString reads a string and returns its text between the quotes, and
// whether that needs unescaping (escapes or invalid UTF-8).
func (s *bodyScanner) rawString() (raw string, escaped, ok bool) {
	if !s.byte('"') {
		return "", false, false
	}
	start := s.i
	for s.i < len(s.src) {
		switch c := s.src[s.i]; {
		case c == '"':
			s.i++
			return s.src[start : s.i-1], escaped, true
		case c < 0x20:
			return "", false, false
		case c == '\\':
			escaped = true
			s.i += 2
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s.src[s.i:])
			escaped = escaped || (r == utf8.RuneError && size == 1)
			s.i += size
		default:
			s.i++
		}
	}
	return "", false, false
}

// unescapeJSON decodes the text of a string as encoding/json does:
// escapes decoded, a lone or broken surrogate and each byte of invalid
// UTF-8 turned into U+FFFD. It fails on an escape JSON does not have.
func unescapeJSON(raw string) (string, bool) {
	var b strings.Builder
	b.Grow(len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			n, ok := unescapeOne(&b, raw[i:])
			if !ok {
				return "", false
			}
			i += n
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			i++
		default:
			r, size := utf8.DecodeRuneInString(raw[i:])
			b.WriteRune(r) // RuneError for an invalid byte
			i += size
		}
	}
	return b.String(), true
}

// unescapeOne writes the escape at the start of esc and returns its length.
func unescapeOne(b *strings.Builder, esc string) (int, bool) {
	if len(esc) < 2 {
		return 0, false
	}
	switch c := esc[1]; c {
	case '"', '\\', '/':
		b.WriteByte(c)
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'u':
		return unescapeU(b, esc)
	default:
		return 0, false
	}
	return 2, true
}

// unescapeU writes a \uXXXX escape, or a surrogate pair of two.
func unescapeU(b *strings.Builder, esc string) (int, bool) {
	r := hex4(esc[2:])
	if r < 0 {
		return 0, false
	}
	if utf16.IsSurrogate(r) {
		if len(esc) >= 12 && esc[6] == '\\' && esc[7] == 'u' {
			if pair := utf16.DecodeRune(r, hex4(esc[8:])); pair != unicode.ReplacementChar {
				b.WriteRune(pair)
				return 12, true
			}
		}
		r = unicode.ReplacementChar
	}
	b.WriteRune(r)
	return 6, true
}

// hex4 reads four hex digits, or returns -1.
func hex4(s string) rune {
	if len(s) < 4 {
		return -1
	}
	var r rune
	for _, c := range []byte(s[:4]) {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

// number reads a number in JSON's grammar and returns its text.
func (s *bodyScanner) number() (string, bool) {
	start := s.i
	s.byte('-')
	switch {
	case s.byte('0'):
	case s.digits() == 0:
		return "", false
	}
	if s.byte('.') && s.digits() == 0 {
		return "", false
	}
	if s.byte('e') || s.byte('E') {
		if !s.byte('+') {
			s.byte('-')
		}
		if s.digits() == 0 {
			return "", false
		}
	}
	return s.src[start:s.i], true
}

// digits skips decimal digits and returns how many.
func (s *bodyScanner) digits() int {
	start := s.i
	for s.i < len(s.src) && s.src[s.i] >= '0' && s.src[s.i] <= '9' {
		s.i++
	}
	return s.i - start
}

// literal skips lit if it comes next.
func (s *bodyScanner) literal(lit string) bool {
	if strings.HasPrefix(s.src[s.i:], lit) {
		s.i += len(lit)
		return true
	}
	return false
}

// colon skips white space and a colon, and the white space after it.
func (s *bodyScanner) colon() bool {
	s.space()
	ok := s.byte(':')
	s.space()
	return ok
}

// byte skips c if it comes next.
func (s *bodyScanner) byte(c byte) bool {
	if s.i < len(s.src) && s.src[s.i] == c {
		s.i++
		return true
	}
	return false
}

// peek returns the next byte, or 0 at the end.
func (s *bodyScanner) peek() byte {
	if s.i < len(s.src) {
		return s.src[s.i]
	}
	return 0
}

// space skips JSON white space.
func (s *bodyScanner) space() {
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}
