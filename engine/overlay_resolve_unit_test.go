package engine

import (
	"strconv"
	"testing"
)

// TestPosition compares position with strconv.
func TestPosition(t *testing.T) {
	for _, id := range []string{"", "0", "1", "7", "07", "+7", "-7", "10", "2147483647", "99999999999", "1e3", "١"} {
		n, err := strconv.Atoi(id)
		want := err == nil && strconv.Itoa(n) == id && n >= 1 && n <= 1000
		if got, ok := position(id, 1000); ok != want || (ok && got != n) {
			t.Errorf("position(%q) = %d, %v; want %d, %v", id, got, ok, n, want)
		}
	}
}
