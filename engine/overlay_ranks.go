package engine

import (
	"slices"

	"github.com/mockgql/mockgql/dataset"
)

// changedIn returns how many dataset rows with a record lie at positions
// [lo, hi) of ord (a range that ends at tie groups), from the sorted ranks
// of those rows, kept per column on the overlay: patched from an earlier
// version's when there is one (ranksFrom), else read and sorted.
func (o *TableOverlay) changedIn(ord *dataset.Order, path string, lo, hi int) int {
	o.mu.Lock()
	ranks, ok := o.ranks[path]
	if !ok {
		if o.ranks == nil {
			o.ranks = map[string][]int32{}
		}
		if from := o.ranksFrom; from != nil {
			o.ranksFrom = nil
			o.patchRanks(from)
		}
		if ranks, ok = o.ranks[path]; !ok {
			ranks = make([]int32, len(o.rowIdx))
			for i, r := range o.rowIdx {
				ranks[i] = ord.Rank(r)
			}
			slices.Sort(ranks)
			o.ranks[path] = ranks
		}
	}
	o.mu.Unlock()
	a, _ := slices.BinarySearch(ranks, int32(lo))
	b, _ := slices.BinarySearch(ranks, int32(hi))
	return b - a
}

// patchRanks sets o's ranks of every path from has from the ranks of
// from, an earlier version's overlay of the same table and dataset: its
// rows' ranks less those of the rows o no longer has, plus those of the
// rows only o has, so that only those are looked up and sorted (the
// Orders are the dataset's, built: from read them). The caller holds o.mu.
func (o *TableOverlay) patchRanks(from *TableOverlay) {
	from.mu.Lock()
	old := from.ranks
	from.mu.Unlock()
	if len(old) == 0 {
		return
	}
	ds := o.ds.Value()
	if ds == nil {
		return
	}
	gone, added := diffSorted(from.rowIdx, o.rowIdx)
	for path, ranks := range old {
		po := ds.OrderReady(path)
		if po == nil {
			continue
		}
		o.ranks[path] = patchSorted(ranks, rankList(po, gone), rankList(po, added))
	}
}
