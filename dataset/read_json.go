package dataset

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/mockgql/mockgql/model"
)

// stream reads the JSON and NDJSON formats, counting bytes for messages.
type stream struct {
	br  *bufio.Reader
	off int64  // bytes consumed
	rec []byte // a record spanning several buffer fills
}

func (s *stream) skip(n int) {
	s.br.Discard(n) // cannot fail: n bytes are buffered
	s.off += int64(n)
}

// skipBOM skips a UTF-8 byte order mark, which some editors write.
func (s *stream) skipBOM() {
	if b, err := s.br.Peek(3); err == nil && string(b) == "\uFEFF" {
		s.skip(3)
	}
}

// next skips white space and returns the byte after it, unconsumed.
func (s *stream) next() (byte, error) {
	for {
		if _, err := s.br.Peek(1); err != nil {
			return 0, err
		}
		win, _ := s.br.Peek(s.br.Buffered())
		i := 0
		for i < len(win) && isSpace(win[i]) {
			i++
		}
		s.skip(i)
		if i < len(win) {
			return win[i], nil
		}
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// object returns the bytes of the balanced object at the read position,
// consuming them. The result is valid until the next read. Only brackets
// outside strings are matched here; recordParser validates the rest.
func (s *stream) object() ([]byte, error) {
	s.rec = s.rec[:0]
	var sc scanner
	for {
		if _, err := s.br.Peek(1); err != nil {
			return nil, err
		}
		win, _ := s.br.Peek(s.br.Buffered())
		if end := sc.scan(win); end > 0 {
			rec := win[:end]
			if len(s.rec) > 0 {
				s.rec = append(s.rec, rec...)
				rec = s.rec
			}
			s.skip(end)
			return rec, nil
		}
		s.rec = append(s.rec, win...)
		s.skip(len(win))
	}
}

// scanner finds the end of a JSON value by matching brackets outside
// strings. Its state carries over from one window of input to the next.
type scanner struct {
	depth    int
	inString bool
	escaped  bool // the previous byte, in a string, was an escaping backslash
}

// scan consumes win and returns the length up to the value's last byte, or
// 0 when the value continues past win.
func (sc *scanner) scan(win []byte) int {
	for i := 0; i < len(win); i++ {
		if sc.inString {
			i = sc.skipString(win, i)
			continue
		}
		switch win[i] {
		case '"':
			sc.inString = true
		case '{', '[':
			sc.depth++
		case '}', ']':
			if sc.depth--; sc.depth == 0 {
				return i + 1
			}
		}
	}
	return 0
}

// skipString advances through a string from win[i] and returns the index
// of its closing quote, or the last index of win when it continues.
func (sc *scanner) skipString(win []byte, i int) int {
	for i < len(win) {
		if sc.escaped {
			sc.escaped = false
			i++
			continue
		}
		q := bytes.IndexByte(win[i:], '"')
		if q < 0 {
			q = len(win) - i
		}
		if b := bytes.IndexByte(win[i:i+q], '\\'); b >= 0 {
			sc.escaped = true
			i += b + 1
			continue
		}
		if i += q; i < len(win) {
			sc.inString = false
			return i
		}
	}
	return len(win) - 1
}

// readJSON reads a top-level array of objects.
func readJSON(br *bufio.Reader, t *tableBuilder) error {
	s := &stream{br: br}
	s.skipBOM()
	c, err := s.next()
	if err != nil {
		return s.fail(err, "json: dataset is empty: the file has no records")
	}
	if c != '[' {
		return model.Errorf(model.CodeBadUserInput,
			"json: byte offset %d: the file must be a JSON array of objects, found %s", s.off, describeByte(c))
	}
	s.skip(1)
	if err := s.records(t); err != nil {
		return err
	}
	if c, err := s.next(); err != io.EOF {
		if err != nil {
			return s.fail(err, "")
		}
		return model.Errorf(model.CodeBadUserInput,
			"json: byte offset %d: unexpected %s after the top-level array", s.off, describeByte(c))
	}
	return nil
}

// records reads the array's elements up to and including its ']'.
func (s *stream) records(t *tableBuilder) error {
	p := &recordParser{t: t}
	for record := 1; ; record++ {
		c, err := s.next()
		if err != nil {
			return s.fail(err, "json: byte offset %d: unexpected end of the input in the top-level array", s.off)
		}
		if c == ']' && record == 1 {
			s.skip(1)
			return nil
		}
		if err := s.record(p, record, c); err != nil {
			return err
		}
		if c, err = s.next(); err != nil {
			return s.fail(err, "json: byte offset %d: unexpected end of the input after record %d", s.off, record)
		}
		s.skip(1)
		switch c {
		case ']':
			return nil
		case ',':
			continue
		}
		return model.Errorf(model.CodeBadUserInput,
			"json: byte offset %d: expected ',' or ']' after record %d, found %s", s.off-1, record, describeByte(c))
	}
}

// record parses one element of the array; c is its first byte.
func (s *stream) record(p *recordParser, record int, c byte) error {
	start := s.off
	if c != '{' {
		return model.Errorf(model.CodeBadUserInput,
			"json: record %d at byte offset %d is %s, not an object", record, start, describeByte(c))
	}
	rec, err := s.object()
	if err != nil {
		return s.fail(err, "json: record %d at byte offset %d: unexpected end of the input in the record", record, start)
	}
	if err := p.parse(rec); err != nil {
		var se *syntaxError
		if errors.As(err, &se) {
			return model.Errorf(model.CodeBadUserInput, "json: record %d at byte offset %d: %s", record, start+int64(se.pos), se.msg)
		}
		return inputError(fmt.Sprintf("json: record %d at byte offset %d", record, start), err)
	}
	return nil
}

// fail turns a read error into the error Read returns: the end of the input
// is the user's mistake described by format, anything else is kept.
func (s *stream) fail(err error, format string, args ...any) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return model.Errorf(model.CodeBadUserInput, format, args...)
	}
	return inputError("the upload", err)
}

// describeByte names the JSON value starting with c, for messages.
func describeByte(c byte) string {
	switch {
	case c == '{':
		return "an object"
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
	}
	return fmt.Sprintf("%q", rune(c))
}

// readNDJSON reads one object per line, skipping blank lines.
func readNDJSON(br *bufio.Reader, t *tableBuilder) error {
	s := &stream{br: br}
	s.skipBOM()
	p := &recordParser{t: t}
	for line := 1; ; line++ {
		b, err := s.line()
		if err != nil && err != io.EOF {
			return s.fail(err, "")
		}
		if !blank(b) {
			if perr := p.parse(b); perr != nil {
				return lineError(line, perr)
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// line returns the next line without its '\n'; at the end of the input it
// returns the last line and io.EOF. The result is valid until the next read.
func (s *stream) line() ([]byte, error) {
	s.rec = s.rec[:0]
	for {
		b, err := s.br.ReadSlice('\n')
		s.off += int64(len(b))
		if err == bufio.ErrBufferFull {
			s.rec = append(s.rec, b...)
			continue
		}
		if len(s.rec) > 0 {
			b = append(s.rec, b...)
			s.rec = b
		}
		if err == nil {
			b = b[:len(b)-1]
		}
		return b, err
	}
}

func blank(b []byte) bool {
	for _, c := range b {
		if !isSpace(c) {
			return false
		}
	}
	return true
}

// lineError locates an NDJSON record error.
func lineError(line int, err error) error {
	var se *syntaxError
	if errors.As(err, &se) {
		return model.Errorf(model.CodeBadUserInput, "ndjson: line %d, column %d: %s", line, se.pos+1, se.msg)
	}
	return inputError(fmt.Sprintf("ndjson: line %d", line), err)
}
