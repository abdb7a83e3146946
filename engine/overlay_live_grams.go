package engine

import (
	"maps"
	"slices"

	"github.com/mockgql/mockgql/dataset"
)

// liveGrams is the 3-gram index of one attribute's live texts: per gram of
// the ASCII-lowered text, the slots (liveTable.slot) of the live rows that
// hold it. A version's index is patched from the previous live table's:
// only the grams of changed rows are edited, each edited posting list
// copied, the others shared (copy-on-write per gram).
type liveGrams map[uint32][]int32

// likeCandidates returns the live indexes that may match a like
// predicate: those holding the rarest 3-gram of its (ASCII, lowered) text,
// or nil, false when the text is too short or not ASCII (every row is a
// candidate). The caller holds the overlay's lock.
func (lt *liveTable) likeCandidates(tv *TableView, pr *Pred) ([]int32, bool) {
	if !pr.ascii || len(pr.like) < 3 {
		return nil, false
	}
	g := lt.gramIndex(tv, pr.Attr)
	var best []int32
	for i := 0; i+3 <= len(pr.like); i++ {
		l := g[gramKey([]byte(pr.like[i:]))]
		if i == 0 || len(l) < len(best) {
			best = l
		}
	}
	out := make([]int32, 0, len(best))
	for _, s := range best {
		if x := lt.slotLive[s]; x >= 0 {
			out = append(out, x)
		}
	}
	return out, true
}

// gramIndex returns the n-gram index of a's live texts, building it on
// first use. The caller holds the overlay's lock.
func (lt *liveTable) gramIndex(tv *TableView, a *Attr) liveGrams {
	g := lt.grams[a.Idx]
	if g == nil {
		g = liveGrams{}
		var keys []uint32
		for x, v := range lt.values(tv, a) {
			keys = textGrams(v, keys[:0])
			for _, k := range keys {
				g[k] = append(g[k], lt.slot[x])
			}
		}
		lt.grams[a.Idx] = g
	}
	return g
}

// textGrams appends to keys the distinct 3-grams of v's ASCII-lowered
// text (none when v is not text), ascending.
func textGrams(v dataset.Value, keys []uint32) []uint32 {
	if v.Kind != dataset.String {
		return keys
	}
	start := len(keys)
	for i := 0; i+3 <= len(v.Str); i++ {
		keys = append(keys, uint32(lowerASCII(v.Str[i]))<<16|uint32(lowerASCII(v.Str[i+1]))<<8|uint32(lowerASCII(v.Str[i+2])))
	}
	slices.Sort(keys[start:])
	return slices.Compact(keys)
}

func gramKey(b []byte) uint32 { return uint32(b[0])<<16 | uint32(b[1])<<8 | uint32(b[2]) }

// patchSlots numbers lt's live rows from old's: a kept row (kept maps
// old's live indexes to lt's, -1 for gone) keeps its slot, a fresh row
// takes a gone row's slot or a new one.
func (lt *liveTable) patchSlots(old *liveTable, kept, fresh []int32) {
	lt.slot = make([]int32, len(lt.rows))
	var free []int32
	for x, y := range kept {
		if y >= 0 {
			lt.slot[y] = old.slot[x]
		} else {
			free = append(free, old.slot[x])
		}
	}
	slots := int32(len(old.slotLive))
	for _, y := range fresh {
		if n := len(free); n > 0 {
			lt.slot[y], free = free[n-1], free[:n-1]
		} else {
			lt.slot[y], slots = slots, slots+1
		}
	}
	lt.slotLive = make([]int32, slots)
	for s := range lt.slotLive {
		lt.slotLive[s] = -1
	}
	for y, s := range lt.slot {
		lt.slotLive[s] = int32(y)
	}
}

// patchGrams returns old's index g of an attribute for lt, whose values
// of it are vals, old's oldVals: the gone rows' slots removed from their
// grams' postings, the fresh rows' added, every other posting shared.
// lt's slots are set (patchSlots).
func (lt *liveTable) patchGrams(old *liveTable, g liveGrams, oldVals, vals []dataset.Value, kept, fresh []int32) liveGrams {
	type edit struct{ del, add []int32 }
	edits := map[uint32]*edit{}
	at := func(k uint32) *edit {
		e := edits[k]
		if e == nil {
			e = &edit{}
			edits[k] = e
		}
		return e
	}
	var keys []uint32
	for x, y := range kept {
		if y < 0 {
			for _, k := range textGrams(oldVals[x], keys[:0]) {
				at(k).del = append(at(k).del, old.slot[x])
			}
		}
	}
	for _, y := range fresh {
		for _, k := range textGrams(vals[y], keys[:0]) {
			at(k).add = append(at(k).add, lt.slot[y])
		}
	}
	next := maps.Clone(g)
	for k, e := range edits {
		slices.Sort(e.del)
		l := make([]int32, 0, len(g[k])+len(e.add))
		for _, s := range g[k] {
			if _, gone := slices.BinarySearch(e.del, s); !gone {
				l = append(l, s)
			}
		}
		if l = append(l, e.add...); len(l) == 0 {
			delete(next, k)
		} else {
			next[k] = l
		}
	}
	return next
}
