package exec

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// appendJSONValue appends v as JSON: the serialization of custom scalars.
// A json.RawMessage is written verbatim (an empty one as null); plain JSON
// values (nil, bool, numbers, string, []any, map[string]any with keys in
// sorted order, as encoding/json) are written directly; anything else goes
// through encoding/json.
func appendJSONValue(buf []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(buf, "null"...), nil
	case json.RawMessage:
		if len(x) == 0 {
			return append(buf, "null"...), nil
		}
		return append(buf, x...), nil
	case string:
		return appendString(buf, x), nil
	case bool:
		return strconv.AppendBool(buf, x), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return buf, internalf("JSON cannot represent value: %v", x)
		}
		return appendFloat(buf, x), nil
	case int:
		return strconv.AppendInt(buf, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(buf, x, 10), nil
	case json.Number:
		if !json.Valid([]byte(x)) {
			return buf, internalf("JSON cannot represent value: %q", string(x))
		}
		return append(buf, x...), nil
	case []any:
		return appendJSONList(buf, x)
	case map[string]any:
		return appendJSONObject(buf, x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return buf, internalf("JSON cannot represent value of type %T", v)
	}
	return append(buf, b...), nil
}

func appendJSONList(buf []byte, items []any) ([]byte, error) {
	buf = append(buf, '[')
	for i, item := range items {
		if i > 0 {
			buf = append(buf, ',')
		}
		var err error
		if buf, err = appendJSONValue(buf, item); err != nil {
			return buf, err
		}
	}
	return append(buf, ']'), nil
}

func appendJSONObject(buf []byte, m map[string]any) ([]byte, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	buf = append(buf, '{')
	for i, k := range keys {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(appendString(buf, k), ':')
		var err error
		if buf, err = appendJSONValue(buf, m[k]); err != nil {
			return buf, err
		}
	}
	return append(buf, '}'), nil
}

// appendFloat appends f as encoding/json formats a float64 (which is also
// how JavaScript prints numbers): no exponent between 1e-6 and 1e21, and
// no fraction for integral values. f must be finite.
func appendFloat(buf []byte, f float64) []byte {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 && (f != 0 || !math.Signbit(f)) {
		return strconv.AppendInt(buf, int64(f), 10)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	buf = strconv.AppendFloat(buf, f, format, -1, 64)
	if format == 'e' {
		// Clean up e-09 to e-9, as encoding/json does.
		n := len(buf)
		if n >= 4 && buf[n-4] == 'e' && buf[n-3] == '-' && buf[n-2] == '0' {
			buf[n-2] = buf[n-1]
			buf = buf[:n-1]
		}
	}
	return buf
}

// safeASCII marks the ASCII bytes that need no escaping in a JSON string.
var safeASCII = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD
// and U+2028, U+2029 are escaped, as encoding/json does; HTML characters
// are left alone.
func appendString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if safeASCII[c] {
				i++
				continue
			}
			buf = append(buf, s[start:i]...)
			buf = appendEscapedByte(buf, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\u202`...)
			buf = append(buf, hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// appendEscapedByte appends the JSON escape of the ASCII byte c.
func appendEscapedByte(buf []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(buf, '\\', c)
	case '\n':
		return append(buf, '\\', 'n')
	case '\r':
		return append(buf, '\\', 'r')
	case '\t':
		return append(buf, '\\', 't')
	case '\b':
		return append(buf, '\\', 'b')
	case '\f':
		return append(buf, '\\', 'f')
	}
	return append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}
