package graphql

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// Unit tests of the allocation-free helpers of the direct writers against
// the functions they stand in for.

// TestAppendOutput compares appendOutput with output shaped by exec.AppendLeaf,
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
			if out := output(typ, v); out != nil {
				var err error
				if want, err = exec.AppendLeaf(nil, attrKind(typ), out); err != nil {
					t.Fatalf("%s %#v: %v", typ, v, err)
				}
			}
			if got := appendOutput(nil, typ, v); !bytes.Equal(got, want) {
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
// appendRowID with rowsWhere, related and id on the odd model, before and
// after changes, for every attribute and every key its rows have.
func TestFirstWhere(t *testing.T) {
	h := &rtHarness{tb: t, rt: rtCompile(t, oddProject(t), Options{}), pool: oddPool(t), ov: engine.NewOverlay()}
	for round := 0; round < 2; round++ {
		v := h.rt.newView(h.pool, h.ov, h.ov.State(), true)
		for _, t0 := range h.rt.model.tables {
			checkFirstWhere(t, v.tableView(t0))
		}
		h.raw(`mutation { a: createOdd(input: {s: "plain", n: 7, ref: "7"}) { id } b: updateOdd(id: "7", input: {s: "x", n: 1}) { id }
			c: deleteOdd(id: "1") { id } d: createOddA(input: {s: "plain"}) { id } e: updateOdd(id: "5", input: {ref: "2.5"}) { id }
			f: deleteOdd(id: "6") { id } }`, nil)
	}
}

func checkFirstWhere(t *testing.T, tv *tableView) {
	t.Helper()
	if tv.notReady != nil {
		return
	}
	rows := tv.n
	if tv.ov != nil {
		rows += int32(len(tv.ov.created))
	}
	keys := []string{"", "0", "6", "06", "+6", "-6", "1e+21", "nope"}
	for r := int32(0); r < rows; r++ {
		if got, want := appendRowID(nil, tv, r), exec.AppendString(nil, tv.id(r)); !bytes.Equal(got, want) {
			t.Errorf("%s row %d: appendRowID %s, id %s", tv.t.name, r, got, want)
		}
		for _, a := range append([]*attribute{tv.t.idField}, tv.t.attrs...) {
			if k, ok := engine.CanonKey(tv.value(a, r)); ok {
				keys = append(keys, k)
			}
		}
	}
	for _, a := range append([]*attribute{tv.t.idField}, tv.t.attrs...) {
		for _, k := range keys {
			want := int32(-1)
			if rows := tv.rowsWhere(a, k, 1); len(rows) > 0 {
				want = rows[0]
			}
			if got := tv.firstWhere(a, k); got != want {
				t.Errorf("%s.%s = %q: firstWhere %d, rowsWhere %d", tv.t.name, a.name, k, got, want)
			}
		}
	}
	checkRelated(t, tv, rows)
}

// checkRelated compares the direct relation lookups with related.
func checkRelated(t *testing.T, tv *tableView, rows int32) {
	t.Helper()
	for _, rf := range tv.t.rels {
		for r := int32(0); r < rows; r++ {
			target, want := tv.related(rf, r)
			if rf.list {
				if _, got := tv.relatedRows(rf, r); !slices.Equal(got, want) {
					t.Errorf("%s.%s of row %d: relatedRows %v, related %v", tv.t.name, rf.name, r, got, want)
				}
				continue
			}
			first := int32(-1)
			if len(want) > 0 {
				first = want[0]
			}
			if got := tv.relatedOne(rf, target, r); got != first {
				t.Errorf("%s.%s of row %d: relatedOne %d, related %v", tv.t.name, rf.name, r, got, want)
			}
		}
	}
}

// TestPosition compares position with strconv.
func TestPosition(t *testing.T) {
	for _, id := range []string{"", "0", "1", "7", "07", "+7", "-7", "10", "2147483647", "99999999999", "1e3", "١"} {
		n, err := strconv.Atoi(id)
		want := err == nil && strconv.Itoa(n) == id && n >= 1 && n <= 1000
		if got, ok := position(id, 1000); ok != want || (ok && got != n) {
			t.Errorf("position(%q) = %d, %v; want %d, %v", id, got, ok, n, want)
		}
	}
}
