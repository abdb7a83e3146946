package actors

import (
	"math"
	"slices"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// fires runs one request of scope under s through requestFaults, asking
// about the positions of names (one field each), and returns the paths
// that fired.
func fires(f *faultState, s *model.FaultSettings, h model.FaultHeader, sandbox string, positions ...[]string) []string {
	var seq uint64
	if !h.Set {
		seq = f.seq("", s)
	}
	rf := newRequestFaults(f, "", s, seq, h, sandbox)
	if rf == nil {
		return nil
	}
	for _, names := range positions {
		rf.FieldFault("Query", "Product", names)
	}
	return rf.firedPaths
}

// TestRequestFaultsCount: a count rule fires in its first Count requests
// that select its field, not in those that do not; new settings restart
// the count.
func TestRequestFaultsCount(t *testing.T) {
	f := newFaultState()
	s := &model.FaultSettings{Rev: 1, FieldRules: []model.FieldRule{{Path: "Product.price", Code: model.CodeInternal, Count: 2}}}
	price, name := []string{"products", "price"}, []string{"products", "name"}
	var got []int
	for i := range 5 {
		pos := [][]string{price, price} // two positions, one request: counted once
		if i == 1 {
			pos = [][]string{name}
		}
		got = append(got, len(fires(f, s, model.FaultHeader{}, "", pos...)))
	}
	if want := []int{1, 0, 1, 0, 0}; !slices.Equal(got, want) {
		t.Fatalf("fired %v, want %v", got, want)
	}
	s2 := *s
	s2.Rev = 2
	if n := len(fires(f, &s2, model.FaultHeader{}, "", price)); n != 1 {
		t.Fatalf("new settings did not restart the count: %d", n)
	}
}

// TestRequestFaultsRate: a rate rule fires in about its share of
// requests, the same ones for the same seed, and other ones for another
// seed; rules draw apart.
func TestRequestFaultsRate(t *testing.T) {
	const n = 4000
	run := func(seed int64) []bool {
		f := newFaultState()
		s := &model.FaultSettings{Seed: seed, FieldRules: []model.FieldRule{
			{Path: "Product.price", Code: model.CodeInternal, Rate: 0.3},
			{Path: "Product.name", Code: model.CodeInternal, Rate: 0.3},
		}}
		out := make([]bool, 0, 2*n)
		for range n {
			p := fires(f, s, model.FaultHeader{}, "", []string{"p", "price"}, []string{"p", "name"})
			out = append(out, slices.Contains(p, "Product.price"), slices.Contains(p, "Product.name"))
		}
		return out
	}
	a, b, c := run(7), run(7), run(8)
	same, share, both := 0, 0, 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("draw %d differs for the same seed", i)
		}
		if a[i] == c[i] {
			same++
		}
		if a[i] {
			share++
		}
		if i%2 == 0 && a[i] && a[i+1] {
			both++
		}
	}
	if got := float64(share) / float64(len(a)); math.Abs(got-0.3) > 0.03 {
		t.Errorf("fired in %.3f of requests, want 0.3", got)
	}
	if got := float64(both) / n; math.Abs(got-0.09) > 0.03 {
		t.Errorf("both rules fired in %.3f of requests, want about 0.09 (independent draws)", got)
	}
	if same > len(a)*9/10 {
		t.Errorf("seeds 7 and 8 agree on %d of %d draws", same, len(a))
	}
}

// TestRequestFaultsSandboxAndHeader: a rule of a sandbox fires only in
// requests of it; the header's field replaces the settings' rules.
func TestRequestFaultsSandboxAndHeader(t *testing.T) {
	f := newFaultState()
	s := &model.FaultSettings{FieldRules: []model.FieldRule{{Path: "*.price", Code: model.CodeInternal, Rate: 1, Sandbox: "ci-1"}}}
	price := []string{"products", "price"}
	for _, tc := range []struct {
		sandbox, header string
		want            []string
	}{
		{"", "", nil},
		{"ci-2", "", nil},
		{"ci-1", "", []string{"*.price"}},
		{"ci-1", "none", nil},
		{"", "field=Product.price", []string{"Product.price"}},
		{"ci-1", "latency=1ms", nil},
	} {
		h, err := model.ParseFaultHeader(tc.header)
		if err != nil {
			t.Fatal(err)
		}
		if got := fires(f, s, h, tc.sandbox, price); !slices.Equal(got, tc.want) {
			t.Errorf("sandbox %q header %q: fired %v, want %v", tc.sandbox, tc.header, got, tc.want)
		}
	}
}
