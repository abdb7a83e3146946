package dataset

import (
	"slices"
	"testing"
)

// TestGroupsAndSums checks the group numbers of a column (ascending by
// value, null and absent one group, numbers and text apart) and the
// precomputed sums of another column per group and overall.
func TestGroupsAndSums(t *testing.T) {
	d := mustRead(t, NDJSON, `{"c":"b","x":1}
{"c":"a","x":2.5}
{"x":"7"}
{"c":"b","x":4}
{"c":null}
{"c":3,"x":-1}
`)
	g := lazyEntry(d, &d.groups, "c").get(d.groupsBuilder("c"))
	// values ascending: null/absent (rows 2, 4), 3 (row 5), "a" (1), "b" (0, 3)
	wantID := []int32{3, 2, 0, 3, 0, 1}
	for r, want := range wantID {
		if got := g.ID(int32(r)); got != want {
			t.Errorf("ID(%d) = %d, want %d", r, got, want)
		}
	}
	for _, tc := range []struct {
		group     int32
		size      int
		firstRow  int32
		value     Value
		valueOK   bool
		wantGroup int32
	}{
		{0, 2, 2, Value{}, true, 0},
		{1, 1, 5, num(3), true, 1},
		{2, 1, 1, str("a"), true, 2},
		{3, 2, 0, str("b"), true, 3},
		{3, 2, 0, str("zz"), false, 0},
	} {
		if got := g.Size(tc.group); got != tc.size {
			t.Errorf("Size(%d) = %d, want %d", tc.group, got, tc.size)
		}
		if got := g.FirstRow(tc.group); got != tc.firstRow {
			t.Errorf("FirstRow(%d) = %d, want %d", tc.group, got, tc.firstRow)
		}
		if id, ok := g.Of(tc.value); ok != tc.valueOK || id != tc.wantGroup {
			t.Errorf("Of(%v) = %d %v, want %d %v", tc.value, id, ok, tc.wantGroup, tc.valueOK)
		}
	}
	if g.Len() != 4 {
		t.Fatalf("Len = %d, want 4", g.Len())
	}
	s := newGroupSums(g, d.byPath["x"], d.Len())
	wantRows := []int{2, 1, 1, 2}
	wantStats := []NumberStats{{}, {1, -1, -1, -1}, {1, 2.5, 2.5, 2.5}, {2, 5, 1, 4}}
	if !slices.Equal(s.Rows, wantRows) || !slices.Equal(s.Stats, wantStats) {
		t.Errorf("sums %v %v, want %v %v", s.Rows, s.Stats, wantRows, wantStats)
	}
	all := newGroupSums(nil, d.byPath["x"], d.Len())
	if all.Rows[0] != 6 || all.Stats[0] != (NumberStats{4, 6.5, -1, 4}) {
		t.Errorf("overall sums %+v", all)
	}
	// Over some rows, one group skipped.
	out := make([]NumberStats, 4)
	bits := []uint64{1<<0 | 1<<1 | 1<<3 | 1<<5}
	d.byPath["x"].SumByGroup(bits, d.Len(), g.IDs(), []int32{0, -1, 2, 3}, out)
	if want := []NumberStats{{}, {}, {1, 2.5, 2.5, 2.5}, {2, 5, 1, 4}}; !slices.Equal(out, want) {
		t.Errorf("SumByGroup = %v, want %v", out, want)
	}
}
