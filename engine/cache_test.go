package engine

import "testing"

func TestLRU(t *testing.T) {
	c := newLRU(3 * (entryCost + 10))
	for i := 0; i < 5; i++ {
		c.put(cacheKey{Spec: string(rune('a' + i))}, i, 10)
	}
	if _, ok := c.get(cacheKey{Spec: "a"}); ok {
		t.Error("oldest entry kept")
	}
	if v, ok := c.get(cacheKey{Spec: "e"}); !ok || v != 4 {
		t.Error("newest entry lost")
	}
	c.put(cacheKey{Spec: "big"}, 0, 1000)
	if _, ok := c.get(cacheKey{Spec: "big"}); ok || c.cost > c.max {
		t.Errorf("oversized entry stored, cost %d of %d", c.cost, c.max)
	}
}
