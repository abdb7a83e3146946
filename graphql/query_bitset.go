package graphql

// bitset is a fixed-size set of row numbers. A nil *bitset is empty.
type bitset struct{ words []uint64 }

func newBitset(n int) *bitset { return &bitset{words: make([]uint64, (n+63)/64)} }

func (b *bitset) set(r int32) { b.words[r>>6] |= 1 << (uint(r) & 63) }

func (b *bitset) has(r int32) bool {
	if b == nil || r < 0 || int(r>>6) >= len(b.words) {
		return false
	}
	return b.words[r>>6]&(1<<(uint(r)&63)) != 0
}
