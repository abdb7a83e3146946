package engine

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOverlayPatchMatchesFull applies random creates, updates, deletes
// (of dataset and created rows), batches, resets and mutation-like private
// branches to an overlay, and requires each version's resolved overlay —
// patched from the last resolved one when the records allow — to equal
// the overlay resolved from every record, and a third of the versions'
// live tables (patched from the last one built) and ranks of changed rows
// (changedIn's, patched from an earlier version's) to equal ones built
// afresh; it also requires that most versions, live tables and rank lists
// were patched, not built anew.
func TestOverlayPatchMatchesFull(t *testing.T) {
	pool := memPool{"bench": benchDataset(t, 2000)}
	cache := NewCache(1).View()
	tab := benchTable(t)
	ov := NewOverlay()
	rnd := rand.New(rand.NewPCG(7, 7))
	seq, created := int64(0), []string{}
	change := func() Change {
		price := map[string]json.RawMessage{"a_Product_price": json.RawMessage(fmt.Sprint(rnd.IntN(1000)))}
		switch x := rnd.IntN(10); {
		case x < 3 && len(created) > 0: // a created row updated or deleted
			id := created[rnd.IntN(len(created))]
			c := ov.State().Table(tab.ID).Get(id)
			if c == nil { // created on a branch that was dropped
				break
			}
			return Change{TableID: tab.ID, RowID: id, Created: true, Seq: c.Seq, Values: price, Deleted: x == 0}
		case x < 6:
			seq++
			id := fmt.Sprintf("new%d", seq)
			created = append(created, id)
			return Change{TableID: tab.ID, RowID: id, Created: true, Seq: seq, Values: price}
		}
		return Change{TableID: tab.ID, RowID: fmt.Sprint(1 + rnd.IntN(2100)), Values: price, Deleted: rnd.IntN(5) == 0}
	}
	patched, versions, livePatched, ranksPatched := 0, 0, 0, 0
	check := func(st *OverlayState, cacheable bool) {
		last := ov.lastResolved(tab.ID)
		tv := testView(cache, pool, ov, st, cacheable).TableView(tab)
		ts := st.Table(tab.ID)
		if ts.Len() == 0 {
			return
		}
		if last != nil && !last.resolves(tv, ts) {
			if _, ok := Diff(last.ts, ts); ok {
				patched++
			}
		}
		versions++
		got, want := tv.ov, resolveAll(tv, ts)
		requireSameOverlay(t, got, want)
		if rnd.IntN(3) == 0 { // a list query reads the live table: later versions patch theirs from it
			fresh := *tv
			fresh.ov = want
			tv.ov.mu.Lock()
			if tv.ov.liveTab == nil && tv.ov.from != nil {
				livePatched++
			}
			if tv.ov.ranksFrom != nil && len(tv.ov.ranksFrom.ranks) > 0 {
				ranksPatched++
			}
			tv.ov.mu.Unlock()
			requireSameLive(t, tv, &fresh)
			requireSameRanks(t, tv, &fresh)
		}
	}
	for step := 0; step < 3000; step++ {
		switch x := rnd.IntN(100); {
		case x == 0:
			ov.Reset()
		case x < 10: // a mutation's private branch, then its changes applied
			st := ov.State()
			var log []Change
			for i := 0; i < 1+rnd.IntN(10); i++ {
				c := change()
				st = st.With([]Change{c})
				log = append(log, c)
				check(st, false)
			}
			if rnd.IntN(3) > 0 { // else the mutation failed: its rows' records go
				ov.Apply(log)
			}
		default:
			var batch []Change
			for i := 0; i < 1+rnd.IntN(3); i++ {
				batch = append(batch, change())
			}
			ov.Apply(batch)
		}
		check(ov.State(), true)
	}
	if patched*10 < versions*9 || livePatched < versions/10 || ranksPatched < versions/10 {
		t.Fatalf("%d of %d versions patched, %d live tables, %d rank lists; want nearly all versions and a third of the others",
			patched, versions, livePatched, ranksPatched)
	}
}

func requireSameOverlay(tb testing.TB, got, want *TableOverlay) {
	tb.Helper()
	chs := func(recs []*RowRec) []*Change {
		out := make([]*Change, len(recs))
		for i, r := range recs {
			out[i] = r.Ch
		}
		return out
	}
	switch {
	case !slices.Equal(got.rowIdx, want.rowIdx):
		tb.Fatalf("rows %v, want %v", got.rowIdx, want.rowIdx)
	case !slices.Equal(chs(got.rowRecs), chs(want.rowRecs)):
		tb.Fatal("row records differ")
	case !slices.Equal(got.changed.dense(), want.changed.dense()):
		tb.Fatal("changed bitsets differ")
	case !slices.Equal(got.updated, want.updated):
		tb.Fatalf("updated %v, want %v", got.updated, want.updated)
	case !slices.Equal(chs(got.created), chs(want.created)):
		tb.Fatalf("created %d rows, want %d", len(got.created), len(want.created))
	case got.maxID != want.maxID || got.hasMaxID != want.hasMaxID:
		tb.Fatalf("max id %v %v, want %v %v", got.maxID, got.hasMaxID, want.maxID, want.hasMaxID)
	}
	for i, rec := range want.created {
		if r, ok := got.CreatedRow(rec.id); !ok || r != got.n+int32(i) {
			tb.Fatalf("createdRow(%s) = %d %v, want %d", rec.id, r, ok, got.n+int32(i))
		}
	}
}

// requireSameLive compares the live tables of two views of one version:
// rows, records, and the values, orders and places in the dataset's
// orders (liveBounds) and n-gram indexes of price and name.
func requireSameLive(tb testing.TB, got, want *TableView) {
	tb.Helper()
	g, w := got.liveTable(), want.liveTable()
	if !slices.Equal(g.rows, w.rows) {
		tb.Fatalf("live rows %v, want %v", g.rows, w.rows)
	}
	for i := range g.recs {
		if g.recs[i].Ch != w.recs[i].Ch {
			tb.Fatalf("live record %d differs", i)
		}
	}
	for _, a := range got.Table.Attrs {
		if a.Name != "price" && a.Name != "name" {
			continue
		}
		got.ov.mu.Lock()
		gv, gl := g.values(got, a), g.order(got, a)
		got.ov.mu.Unlock()
		want.ov.mu.Lock()
		wv, wl := w.values(want, a), w.order(want, a)
		want.ov.mu.Unlock()
		if !slices.Equal(gv, wv) || !slices.Equal(gl.idx, wl.idx) || !slices.Equal(gl.group, wl.group) {
			tb.Fatalf("live %s: values or order differ", a.Name)
		}
		ord := got.ds.Order(a.Path)
		got.ov.mu.Lock()
		gb := g.bounds(got, a, ord)
		got.ov.mu.Unlock()
		want.ov.mu.Lock()
		wb := w.bounds(want, a, ord)
		want.ov.mu.Unlock()
		if !slices.Equal(gb.lo, wb.lo) || !slices.Equal(gb.hi, wb.hi) {
			tb.Fatalf("live %s: places in the dataset's order differ", a.Name)
		}
		got.ov.mu.Lock()
		gg := liveGramRows(g, g.gramIndex(got, a))
		got.ov.mu.Unlock()
		want.ov.mu.Lock()
		wg := liveGramRows(w, w.gramIndex(want, a))
		want.ov.mu.Unlock()
		if !maps.EqualFunc(gg, wg, slices.Equal) {
			tb.Fatalf("live %s: n-gram indexes differ", a.Name)
		}
	}
}

// requireSameRanks compares the sorted ranks of the changed rows in the
// price and name Orders (what changedIn counts) of two views of one
// version, and a count of a range.
func requireSameRanks(tb testing.TB, got, want *TableView) {
	tb.Helper()
	for _, path := range []string{"price", "name"} {
		ord := got.ds.Order(path)
		g := got.ov.changedIn(ord, path, 0, ord.Len()/2)
		w := want.ov.changedIn(ord, path, 0, ord.Len()/2)
		got.ov.mu.Lock()
		gr := got.ov.ranks[path]
		got.ov.mu.Unlock()
		want.ov.mu.Lock()
		wr := want.ov.ranks[path]
		want.ov.mu.Unlock()
		if g != w || !slices.Equal(gr, wr) {
			tb.Fatalf("%s: %d changed rows in the first half, want %d; ranks equal %v", path, g, w, slices.Equal(gr, wr))
		}
	}
}

// liveGramRows returns an n-gram index with its slots as live indexes,
// ascending: what two live tables of one version must agree on.
func liveGramRows(lt *liveTable, g liveGrams) map[uint32][]int32 {
	out := map[uint32][]int32{}
	for k, slots := range g {
		for _, s := range slots {
			out[k] = append(out[k], lt.slotLive[s])
		}
		slices.Sort(out[k])
	}
	return out
}
