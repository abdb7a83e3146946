package model

import (
	"strconv"
	"unicode/utf8"
)

// Clip returns s cut to at most max bytes (on a rune boundary) and marked
// "…(N bytes)" with its full length when it was longer. Every message or
// log line that may quote client input goes through it, so that an
// oversized value is never echoed back or logged in full.
func Clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…(" + strconv.Itoa(len(s)) + " bytes)"
}
