package main

import "testing"

func TestGCPercentFor(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		live, headroom uint64
		want           int
	}{
		{4 * mb, 32 * mb, 800},  // small heap: next collection after 32 MB
		{16 * mb, 32 * mb, 200}, // still the headroom
		{32 * mb, 32 * mb, 100}, // from here on Go's default doubling
		{500 * mb, 32 * mb, 100},
		{0, 32 * mb, 2000},    // under 1 MB counts as 1 MB, capped
		{mb / 2, 8 * mb, 800}, // counted as 1 MB
	} {
		if got := gcPercentFor(tc.live, tc.headroom); got != tc.want {
			t.Errorf("live %d MB, headroom %d MB: GOGC %d, want %d", tc.live/mb, tc.headroom/mb, got, tc.want)
		}
	}
}
