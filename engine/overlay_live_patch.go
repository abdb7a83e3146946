package engine

import (
	"cmp"
	"slices"

	"github.com/mockgql/mockgql/dataset"
)

// patchFrom fills lt's slots, values, orders, bounds and n-gram indexes
// from old, the live table of an earlier version of the same table and
// dataset: a live row whose record
// is the same RowRec (versions share unchanged records) keeps its values
// and its place in each order, so only the rows whose records changed are
// read, sorted and placed, the orders merged, not sorted anew, and the
// n-gram postings of changed rows edited. lt holds its rows and records.
func (lt *liveTable) patchFrom(tv *TableView, old *liveTable) {
	kept := lt.mapFrom(tv, old)
	fresh := make([]int32, 0, len(lt.rows))
	seen := make([]bool, len(lt.rows))
	for _, x := range kept {
		if x >= 0 {
			seen[x] = true
		}
	}
	for x := range lt.rows {
		if !seen[x] {
			fresh = append(fresh, int32(x))
		}
	}
	lt.patchSlots(old, kept, fresh)
	for ai, ov := range old.vals {
		if ov == nil {
			continue
		}
		v := make([]dataset.Value, len(lt.rows))
		for x, y := range kept {
			if y >= 0 {
				v[y] = ov[x]
			}
		}
		a := tv.Table.Attrs[ai]
		for _, y := range fresh {
			v[y] = tv.Value(a, lt.rows[y])
		}
		lt.vals[ai] = v
		if lo := old.orders[ai]; lo != nil {
			lt.orders[ai] = mergeOrder(lo, kept, fresh, v)
		}
		if lb := old.bnds[ai]; lb != nil {
			lt.bnds[ai] = lb.patched(kept, fresh, v)
		}
		if g := old.grams[ai]; g != nil {
			lt.grams[ai] = lt.patchGrams(old, g, ov, v, kept, fresh)
		}
	}
}

// mapFrom returns, per live index of old, its live index in lt when the
// row is in both with the same record, else -1. Both list dataset rows
// ascending, then created rows in (Seq, RowID) order.
func (lt *liveTable) mapFrom(tv *TableView, old *liveTable) []int32 {
	kept := make([]int32, len(old.rows))
	key := func(l *liveTable, x int) (bool, int32, *RowRec) { return l.rows[x] >= tv.N, l.rows[x], l.recs[x] }
	j := 0
	for i := range old.rows {
		kept[i] = -1
		oc, or, orec := key(old, i)
		for j < len(lt.rows) {
			nc, nr, nrec := key(lt, j)
			c := 0
			switch {
			case oc && nc && orec == nrec: // the same created record: the same row
			case oc != nc && oc:
				c = 1
			case oc != nc:
				c = -1
			case oc:
				c = compareCreated(orec, nrec)
			default:
				c = cmp.Compare(or, nr)
			}
			if c < 0 {
				break
			}
			j++
			if c == 0 {
				if orec == nrec {
					kept[i] = int32(j - 1)
				}
				break
			}
		}
	}
	return kept
}

// mergeOrder returns the order of the live values vals: old's positions
// whose rows were kept (renumbered by kept, which keeps their order)
// merged with the fresh rows sorted.
func mergeOrder(old *liveOrder, kept, fresh []int32, vals []dataset.Value) *liveOrder {
	less := func(x, y int32) int { return cmp.Or(dataset.Compare(vals[x], vals[y]), cmp.Compare(x, y)) }
	f := slices.Clone(fresh)
	slices.SortFunc(f, less)
	lo := &liveOrder{idx: make([]int32, 0, len(vals))}
	k := 0
	for _, x := range old.idx {
		y := kept[x]
		if y < 0 {
			continue
		}
		for k < len(f) && less(f[k], y) < 0 {
			lo.idx = append(lo.idx, f[k])
			k++
		}
		lo.idx = append(lo.idx, y)
	}
	lo.idx = append(lo.idx, f[k:]...)
	lo.setGroups(vals)
	return lo
}
