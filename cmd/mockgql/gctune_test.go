package main

import "testing"

func TestGCPercentFor(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		live, headroom, maxGrowth uint64
		want                      int
	}{
		{4 * mb, 32 * mb, 0, 800},  // small heap: next collection after 32 MB
		{16 * mb, 32 * mb, 0, 200}, // still the headroom
		{32 * mb, 32 * mb, 0, 100}, // from here on Go's default doubling
		{500 * mb, 32 * mb, 0, 100},
		{0, 32 * mb, 0, 2000},             // under 1 MB counts as 1 MB, capped
		{mb / 2, 8 * mb, 0, 800},          // counted as 1 MB
		{4 * mb, 32 * mb, 64 * mb, 800},   // the cap does not touch small heaps
		{64 * mb, 32 * mb, 64 * mb, 100},  // nor heaps up to the cap
		{128 * mb, 32 * mb, 64 * mb, 50},  // a large heap grows by the cap
		{200 * mb, 32 * mb, 64 * mb, 32},  // 64 MB of 200
		{4000 * mb, 32 * mb, 64 * mb, 10}, // never under 10%
		{128 * mb, 96 * mb, 64 * mb, 75},  // the cap is never under the headroom
	} {
		if got := gcPercentFor(tc.live, tc.headroom, tc.maxGrowth); got != tc.want {
			t.Errorf("live %d MB, headroom %d MB, cap %d MB: GOGC %d, want %d", tc.live/mb, tc.headroom/mb, tc.maxGrowth/mb, got, tc.want)
		}
	}
}
