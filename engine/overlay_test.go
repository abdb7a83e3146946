package engine

import (
	"encoding/json"
	"fmt"
	"go/parser"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/internal/testdata"
)

// TestOverlayVersions applies random changes to one table, past several
// compactions, and checks every version kept: its records are those of a
// plain map replayed to the same point (earlier versions unchanged by later
// Applies), and Diff between any two versions, when it answers, names every
// row whose record differs.
func TestOverlayVersions(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 1))
	ov := NewOverlay()
	want := map[string]string{} // RowID -> value, replayed
	var states []*OverlayState
	var wants []map[string]string
	for step := range 400 {
		var batch []Change
		for range 1 + rng.IntN(12) {
			id := strconv.Itoa(rng.IntN(3000))
			v := fmt.Sprintf("%q", fmt.Sprint(step, id))
			batch = append(batch, Change{TableID: "t", RowID: id, Seq: int64(step), Values: map[string]json.RawMessage{"a": json.RawMessage(v)}})
			want[id] = v
		}
		ov.Apply(batch)
		if step%7 == 0 {
			states = append(states, ov.State())
			w := make(map[string]string, len(want))
			for k, v := range want {
				w[k] = v
			}
			wants = append(wants, w)
		}
	}
	for i, st := range states {
		requireRecords(t, st.Table("t"), wants[i])
	}
	answered := 0
	for i := range states {
		for j := i + 1; j < len(states); j++ {
			ids, ok := Diff(states[i].Table("t"), states[j].Table("t"))
			if !ok {
				continue
			}
			answered++
			named := map[string]bool{}
			for _, id := range ids {
				named[id] = true
			}
			for id, v := range wants[j] {
				if wants[i][id] != v && !named[id] {
					t.Fatalf("Diff(v%d, v%d) misses row %s", i, j, id)
				}
			}
		}
	}
	if answered == 0 {
		t.Fatal("Diff never answered: the test compares nothing")
	}
}

func requireRecords(t *testing.T, ts *TableState, want map[string]string) {
	t.Helper()
	if ts.Len() != len(want) {
		t.Fatalf("Len = %d, want %d", ts.Len(), len(want))
	}
	seen := 0
	ts.Each(func(c *Change) {
		seen++
		if got := string(c.Values["a"]); got != want[c.RowID] {
			t.Fatalf("row %s = %s, want %s", c.RowID, got, want[c.RowID])
		}
		if ts.Get(c.RowID) != c {
			t.Fatalf("Get(%s) is not the record Each gave", c.RowID)
		}
	})
	if seen != len(want) {
		t.Fatalf("Each gave %d records, want %d", seen, len(want))
	}
}

// TestKnowsNoGraphQL: the package doc says the engine knows nothing of
// GraphQL, so it imports only the standard library, package dataset, the
// roaring bitmaps dataset's n-gram postings are made of, and package model
// for the domain's words (scalar types, mappings, operators, error codes).
func TestKnowsNoGraphQL(t *testing.T) {
	for name, f := range testdata.PackageFiles(t, parser.ImportsOnly) {
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if p != "github.com/mockgql/mockgql/dataset" && p != "github.com/mockgql/mockgql/model" && p != "github.com/RoaringBitmap/roaring/v2" && strings.Contains(strings.SplitN(p, "/", 2)[0], ".") {
				t.Errorf("%s imports %s: the engine may use only the standard library, dataset, its roaring bitmaps and model", name, p)
			}
		}
	}
}
