package graphql

import (
	"bytes"
	"math"
	"slices"
	"testing"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/graphql/internal/answer"
	"github.com/mockgql/mockgql/model"
)

// Unit tests of the allocation-free helpers of the direct writers against
// the functions they stand in for.

// TestAppendOutput compares AppendOutput with output shaped by exec.AppendLeaf,
// for every attribute type and stored values of every kind.
func TestAppendOutput(t *testing.T) {
	values := []dataset.Value{
		{}, {Kind: dataset.Bool, Bool: true}, {Kind: dataset.Bool},
		{Kind: dataset.Raw, Str: `{"a":[1,"<"]}`}, {Kind: dataset.Raw},
	}
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -7, 2.5, 1e15, 1e21, 1e-7, 123456789012345680000, math.MaxInt32, math.MinInt32,
		math.MaxInt32 + 1, math.MinInt32 - 1, math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64, 5e-324} {
		values = append(values, dataset.Value{Kind: dataset.Number, Num: f})
	}
	for _, s := range []string{"", "plain", "<b> & \u2028 \"q\" \\ \n é", "42", " 42", "4.5", "-0", "1e400", "NaN", "Inf", "0x1p4", "true", "\xff"} {
		values = append(values, dataset.Value{Kind: dataset.String, Str: s})
	}
	types := []model.ScalarType{model.TypeID, model.TypeString, model.TypeInt, model.TypeFloat, model.TypeBoolean, model.TypeDateTime, model.TypeJSON}
	for _, typ := range types {
		for _, v := range values {
			want := []byte("null")
			if out := answer.Output(typ, v); out != nil {
				var err error
				if want, err = exec.AppendLeaf(nil, answer.AttrKind(typ), out); err != nil {
					t.Fatalf("%s %#v: %v", typ, v, err)
				}
			}
			if got := answer.AppendOutput(nil, typ, v); !bytes.Equal(got, want) {
				t.Errorf("%s %#v: got %s, want %s", typ, v, got, want)
			}
		}
	}
}

// TestLookupKeysCanonical checks what firstWhere relies on: the dataset
// writes the keys of numbers as engine.FormatNum does, so engine.LookupKeys never gives
// a key besides the canonical one.
func TestLookupKeysCanonical(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -7, 2.5, 1e15, 1e20, 1e21, 1.5e300, 1e-7, 123456789012345680000, 9007199254740993, math.Inf(1)} {
		k := engine.FormatNum(f)
		if got := engine.LookupKeys(k); !slices.Equal(got, []string{k}) {
			t.Errorf("lookupKeys(%q) = %q", k, got)
		}
		if key := (dataset.Value{Kind: dataset.Number, Num: f}).Key(); key != k {
			t.Errorf("dataset key of %v is %q, formatNum %q", f, key, k)
		}
	}
}

// TestFirstWhere compares firstWhere, relatedOne, relatedRows and
// AppendRowID with rowsWhere, related and id on the odd model, before and
// after changes, for every attribute and every key its rows have.
func TestFirstWhere(t *testing.T) {
	h := &rtHarness{tb: t, rt: rtCompile(t, oddProject(t), Options{}), pool: oddPool(t), ov: engine.NewOverlay()}
	for round := 0; round < 2; round++ {
		v := h.rt.newView(h.pool, h.ov, h.ov.State(), true)
		for _, t0 := range h.rt.model.tables {
			checkFirstWhere(t, v.TableView(t0))
		}
		h.raw(`mutation { a: createOdd(input: {s: "plain", n: 7, ref: "7"}) { id } b: updateOdd(id: "7", input: {s: "x", n: 1}) { id }
			c: deleteOdd(id: "1") { id } d: createOddA(input: {s: "plain"}) { id } e: updateOdd(id: "5", input: {ref: "2.5"}) { id }
			f: deleteOdd(id: "6") { id } }`, nil)
	}
}

func checkFirstWhere(t *testing.T, tv *engine.TableView) {
	t.Helper()
	if tv.NotReady != nil {
		return
	}
	rows := tv.End()
	keys := []string{"", "0", "6", "06", "+6", "-6", "1e+21", "nope"}
	for r := int32(0); r < rows; r++ {
		if got, want := answer.AppendRowID(nil, tv, r), exec.AppendString(nil, tv.ID(r)); !bytes.Equal(got, want) {
			t.Errorf("%s row %d: appendRowID %s, id %s", tv.Table.Name, r, got, want)
		}
		for _, a := range append([]*engine.Attr{tv.Table.IDField}, tv.Table.Attrs...) {
			if k, ok := engine.CanonKey(tv.Value(a, r)); ok {
				keys = append(keys, k)
			}
		}
	}
	for _, a := range append([]*engine.Attr{tv.Table.IDField}, tv.Table.Attrs...) {
		for _, k := range keys {
			want := int32(-1)
			if rows := tv.RowsWhere(a, k, 1); len(rows) > 0 {
				want = rows[0]
			}
			if got := tv.FirstWhere(a, k); got != want {
				t.Errorf("%s.%s = %q: firstWhere %d, rowsWhere %d", tv.Table.Name, a.Name, k, got, want)
			}
		}
	}
	checkRelated(t, tv, rows)
}

// checkRelated compares the direct relation lookups with related.
func checkRelated(t *testing.T, tv *engine.TableView, rows int32) {
	t.Helper()
	for _, rf := range tv.Table.Rels {
		for r := int32(0); r < rows; r++ {
			target, want := tv.Related(rf, r)
			if rf.List {
				if _, got := tv.RelatedRows(rf, r); !slices.Equal(got, want) {
					t.Errorf("%s.%s of row %d: relatedRows %v, related %v", tv.Table.Name, rf.Name, r, got, want)
				}
				continue
			}
			first := int32(-1)
			if len(want) > 0 {
				first = want[0]
			}
			if got := tv.RelatedOne(rf, target, r); got != first {
				t.Errorf("%s.%s of row %d: relatedOne %d, related %v", tv.Table.Name, rf.Name, r, got, want)
			}
		}
	}
}
