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
	want := &GroupSums{Rows: []int{2, 1, 1, 2}, N: []int{0, 1, 1, 2}, Sum: []float64{0, -1, 2.5, 5}, Min: []float64{0, -1, 2.5, 1}, Max: []float64{0, -1, 2.5, 4}}
	for name, pair := range map[string][2][]float64{"Sum": {s.Sum, want.Sum}, "Min": {s.Min, want.Min}, "Max": {s.Max, want.Max}} {
		if !slices.Equal(pair[0], pair[1]) {
			t.Errorf("%s = %v, want %v", name, pair[0], pair[1])
		}
	}
	if !slices.Equal(s.Rows, want.Rows) || !slices.Equal(s.N, want.N) {
		t.Errorf("Rows %v N %v, want %v %v", s.Rows, s.N, want.Rows, want.N)
	}
	all := newGroupSums(nil, d.byPath["x"], d.Len())
	if all.Rows[0] != 6 || all.N[0] != 4 || all.Sum[0] != 6.5 || all.Min[0] != -1 || all.Max[0] != 4 {
		t.Errorf("overall sums %+v", all)
	}
}
