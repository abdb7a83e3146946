package dataset

import (
	"fmt"
	"math"
	"strconv"
	"unsafe"
)

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
