package engine

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/model"
)

// liveTable is an overlay's live rows (updated dataset rows of the table's
// variant, then created rows: storage order) with their values copied out
// of the records, and per attribute, built on first use, their order by
// value: what a list query needs to match and order the overlay's rows as
// the dataset's indexes do the dataset's, in O(matches), not O(records ·
// lookups). It belongs to one resolved overlay and is immutable once built.
type liveTable struct {
	rows   []int32
	recs   []*RowRec         // by live index; shared by versions while the row is unchanged
	vals   [][]dataset.Value // by attribute index, then live index; nil for attributes not read
	orders map[int]*liveOrder
	grams  map[int]liveGrams // by attribute index: the slots whose lowered text holds each 3-gram
	// slot numbers the live rows stably across versions (a row keeps its
	// slot while its record is unchanged), so that n-gram postings need
	// not be renumbered; slotLive maps a slot back to its live index (-1:
	// free).
	slot, slotLive []int32
	bnds           map[int]*liveBounds // by attribute index: the live values placed in the dataset's Order
}

// liveOrder is the live rows ascending by one attribute's value, ties in
// storage order, with each position's tie group start.
type liveOrder struct {
	idx   []int32 // live indexes
	group []int32 // per position: the first position of its tie group
	pos   []int32 // per live index: its position
}

// setGroups fills group and pos from idx and the values.
func (lo *liveOrder) setGroups(vals []dataset.Value) {
	lo.group, lo.pos = make([]int32, len(lo.idx)), make([]int32, len(lo.idx))
	for p, x := range lo.idx {
		lo.pos[x] = int32(p)
		if p > 0 && dataset.Compare(vals[x], vals[lo.idx[p-1]]) == 0 {
			lo.group[p] = lo.group[p-1]
		} else {
			lo.group[p] = int32(p)
		}
	}
}

// live returns tv's overlay as a liveTable with the values of attrs, and
// the order of each sorted attribute; built once per resolved overlay.
func (tv *TableView) liveTable() *liveTable {
	o := tv.ov
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.liveTab == nil {
		lt := &liveTable{vals: make([][]dataset.Value, len(tv.Table.Attrs)), orders: map[int]*liveOrder{}, grams: map[int]liveGrams{}, bnds: map[int]*liveBounds{}}
		for i, r := range o.rowIdx { // updated rows, their records at hand
			if rec := o.rowRecs[i]; !rec.Deleted && tv.InTable(r) {
				lt.rows, lt.recs = append(lt.rows, r), append(lt.recs, rec)
			}
		}
		for i, rec := range o.created {
			lt.rows, lt.recs = append(lt.rows, o.n+int32(i)), append(lt.recs, rec)
		}
		if o.from != nil {
			lt.patchFrom(tv, o.from)
			o.from = nil
		} else {
			lt.slot = make([]int32, len(lt.rows))
			for x := range lt.slot {
				lt.slot[x] = int32(x)
			}
			lt.slotLive = slices.Clone(lt.slot)
		}
		o.liveTab = lt
	}
	return o.liveTab
}

// values returns the live values of a, reading them on first use.
// The caller holds the overlay's lock.
func (lt *liveTable) values(tv *TableView, a *Attr) []dataset.Value {
	if lt.vals[a.Idx] == nil {
		v := make([]dataset.Value, len(lt.rows))
		for i, r := range lt.rows {
			v[i] = tv.Value(a, r)
		}
		lt.vals[a.Idx] = v
	}
	return lt.vals[a.Idx]
}

// order returns the live order of a, building it on first use. The caller
// holds the overlay's lock.
func (lt *liveTable) order(tv *TableView, a *Attr) *liveOrder {
	if lo := lt.orders[a.Idx]; lo != nil {
		return lo
	}
	vals := lt.values(tv, a)
	lo := &liveOrder{idx: make([]int32, len(vals))}
	for i := range lo.idx {
		lo.idx[i] = int32(i)
	}
	slices.SortFunc(lo.idx, func(x, y int32) int { return cmp.Or(dataset.Compare(vals[x], vals[y]), cmp.Compare(x, y)) })
	lo.setGroups(vals)
	lt.orders[a.Idx] = lo
	return lo
}

// liveMatch is the live rows that match a query: a bitset over live
// indexes and its count.
type liveMatch struct {
	lt    *liveTable
	bits  []uint64
	count int
}

// overlayMatch matches q against the overlay's live rows: each comparison
// a range of the attribute's live order, like checked row by row on the
// rows the others leave.
func (tv *TableView) overlayMatch(q *ListQuery) liveMatch {
	lt := tv.liveTable()
	tv.ov.mu.Lock()
	defer tv.ov.mu.Unlock()
	m := liveMatch{lt: lt, bits: make([]uint64, (len(lt.rows)+63)/64)}
	for i := range m.bits {
		m.bits[i] = ^uint64(0)
	}
	if rem := len(lt.rows) & 63; rem != 0 {
		m.bits[len(m.bits)-1] = (1 << uint(rem)) - 1
	}
	tmp := make([]uint64, len(m.bits))
	for i := range q.Preds {
		pr := &q.Preds[i]
		if pr.Op == model.OpLike || pr.Attr.Mapping == model.MappingConstant {
			continue
		}
		clear(tmp)
		lo := lt.order(tv, pr.Attr)
		vals := lt.values(tv, pr.Attr)
		for _, rg := range liveRanges(lo, vals, pr) {
			for _, x := range lo.idx[rg[0]:rg[1]] {
				tmp[x>>6] |= 1 << (uint(x) & 63)
			}
		}
		andWords(m.bits, tmp)
	}
	for i := range q.Preds {
		pr := &q.Preds[i]
		if pr.Op != model.OpLike || pr.Attr.Mapping == model.MappingConstant {
			continue
		}
		vals := lt.values(tv, pr.Attr)
		if cands, ok := lt.likeCandidates(tv, pr); ok {
			clear(tmp)
			for _, x := range cands {
				if m.bits[x>>6]&(1<<(uint(x)&63)) != 0 && pr.match(vals[x]) {
					tmp[x>>6] |= 1 << (uint(x) & 63)
				}
			}
			copy(m.bits, tmp)
			continue
		}
		for w, word := range m.bits {
			for word != 0 {
				x := w<<6 + bits.TrailingZeros64(word)
				if !pr.match(vals[x]) {
					m.bits[w] &^= 1 << (uint(x) & 63)
				}
				word &= word - 1
			}
		}
	}
	m.count = dataset.Count(m.bits)
	return m
}

// liveRanges returns the positions of lo whose values satisfy pr (the
// rules of predicate): one range, or two for neq, or one per value of in.
func liveRanges(lo *liveOrder, vals []dataset.Value, pr *Pred) [][2]int {
	search := func(v dataset.Value, upper bool) int {
		return sortSearch(len(lo.idx), func(p int) bool {
			c := dataset.Compare(vals[lo.idx[p]], v)
			return c > 0 || (!upper && c == 0)
		})
	}
	section := func(k dataset.Kind) (int, int) {
		return sortSearch(len(lo.idx), func(p int) bool { return vals[lo.idx[p]].Kind >= k }),
			sortSearch(len(lo.idx), func(p int) bool { return vals[lo.idx[p]].Kind > k })
	}
	equal := func(v dataset.Value) [2]int {
		if v.Kind == dataset.Null {
			a, b := section(dataset.Null)
			return [2]int{a, b}
		}
		return [2]int{search(v, false), search(v, true)}
	}
	switch pr.Op {
	case model.OpEq:
		return [][2]int{equal(pr.arg)}
	case model.OpIn:
		var out [][2]int
		for _, v := range pr.Args {
			out = append(out, equal(v))
		}
		return out
	case model.OpNeq:
		if pr.arg.Kind == dataset.Null {
			_, b := section(dataset.Null)
			return [][2]int{{b, len(lo.idx)}}
		}
		s, e := section(pr.arg.Kind)
		eq := equal(pr.arg)
		return [][2]int{{s, eq[0]}, {eq[1], e}}
	}
	k := pr.arg.Kind
	if k != dataset.Number && k != dataset.String {
		return nil
	}
	s, e := section(k)
	switch pr.Op {
	case model.OpGt:
		return [][2]int{{search(pr.arg, true), e}}
	case model.OpGte:
		return [][2]int{{search(pr.arg, false), e}}
	case model.OpLt:
		return [][2]int{{s, search(pr.arg, false)}}
	}
	return [][2]int{{s, search(pr.arg, true)}}
}

// sortSearch is sort.Search.
func sortSearch(n int, f func(int) bool) int {
	lo, hi := 0, n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if !f(mid) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// merge merges base (dataset rows without records, in the query's order,
// ord the sort's Order when it sorts) with the first matching live rows
// and returns the first limit rows, comparing the base rows' ranks with
// the live rows' places in ord (liveBounds), not their values.
func (m liveMatch) merge(tv *TableView, q *ListQuery, ord *dataset.Order, base []int32, limit int) []int32 {
	var lb *liveBounds
	if q.Sort != nil {
		tv.ov.mu.Lock()
		lb = m.lt.bounds(tv, q.Sort, ord)
		tv.ov.mu.Unlock()
	}
	before := func(b int32, x int32) bool { // base row b before live row x
		if lb != nil {
			c := lb.compare(b, x)
			if q.Desc {
				c = -c
			}
			if c != 0 {
				return c < 0
			}
		}
		return b < m.lt.rows[x]
	}
	var past func(int32) bool // live rows after the last base row the page needs
	if limit > 0 && len(base) >= limit {
		last := base[limit-1]
		past = func(x int32) bool { return before(last, x) }
	}
	xs := m.first(tv, q, limit, past)
	out := make([]int32, 0, min(limit, len(base)+len(xs)))
	if len(xs)*12 > len(base) { // many live rows: a linear merge
		i, j := 0, 0
		for len(out) < limit && (i < len(base) || j < len(xs)) {
			if j == len(xs) || (i < len(base) && before(base[i], xs[j])) {
				out = append(out, base[i])
				i++
			} else {
				out = append(out, m.lt.rows[xs[j]])
				j++
			}
		}
		return out
	}
	i := 0 // few: each live row's place by binary search
	for _, x := range xs {
		j := i + sortSearch(len(base)-i, func(k int) bool { return !before(base[i+k], x) })
		out = append(out, base[i:min(j, i+limit-len(out))]...)
		if len(out) == limit {
			return out
		}
		out, i = append(out, m.lt.rows[x]), j
		if len(out) == limit {
			return out
		}
	}
	return append(out, base[i:min(len(base), i+limit-len(out))]...)
}

// first returns the live indexes of the first limit matching live rows
// in the query's order: storage order, or the sort attribute's live order
// (descending by tie groups, each forwards), ending before the first for
// which past (nil: none) is true, as all after it are too.
func (m liveMatch) first(tv *TableView, q *ListQuery, limit int, past func(int32) bool) []int32 {
	out := make([]int32, 0, min(limit, m.count))
	if limit <= 0 || m.count == 0 {
		return out
	}
	in := func(x int32) bool { return m.bits[x>>6]&(1<<(uint(x)&63)) != 0 }
	done := func(x int32) bool { return past != nil && past(x) }
	if q.Sort == nil {
		for x := range m.lt.rows {
			if in(int32(x)) {
				if done(int32(x)) {
					break
				}
				if out = append(out, int32(x)); len(out) == limit {
					break
				}
			}
		}
		return out
	}
	tv.ov.mu.Lock()
	lo := m.lt.order(tv, q.Sort)
	tv.ov.mu.Unlock()
	if walk := min(len(lo.idx), limit*len(lo.idx)/m.count+1); m.count*bits.Len(uint(m.count))*8 < walk {
		out = m.selectFirst(lo, q.Desc, limit, out)
		if past != nil {
			out = out[:sortSearch(len(out), func(i int) bool { return past(out[i]) })]
		}
		return out
	}
	if !q.Desc {
		for _, x := range lo.idx {
			if in(x) {
				if done(x) {
					break
				}
				if out = append(out, x); len(out) == limit {
					break
				}
			}
		}
		return out
	}
	for p := len(lo.idx) - 1; p >= 0; {
		g := int(lo.group[p])
		for _, x := range lo.idx[g : p+1] {
			if in(x) {
				if done(x) {
					return out
				}
				if out = append(out, x); len(out) == limit {
					return out
				}
			}
		}
		p = g - 1
	}
	return out
}

// selectFirst is first for few members next to the walk of the order: the
// members sorted by their place in it (descending: by tie group from the
// last, each forwards), the first limit kept.
func (m liveMatch) selectFirst(lo *liveOrder, desc bool, limit int, out []int32) []int32 {
	for w, word := range m.bits {
		for word != 0 {
			out = append(out, int32(w<<6+bits.TrailingZeros64(word)))
			word &= word - 1
		}
	}
	slices.SortFunc(out, func(x, y int32) int {
		px, py := lo.pos[x], lo.pos[y]
		if desc {
			if c := cmp.Compare(lo.group[py], lo.group[px]); c != 0 {
				return c
			}
		}
		return cmp.Compare(px, py)
	})
	return out[:min(limit, len(out))]
}
