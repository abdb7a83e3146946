package engine

import (
	"testing"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/model"
)

// TestPredicate checks each operator against stored values of each kind
// (docs/using/runtime.md, "Query rules").
func TestPredicate(t *testing.T) {
	null := dataset.Value{}
	cases := []struct {
		op     model.Operator
		arg    any
		stored dataset.Value
		want   bool
	}{
		{model.OpEq, 10.0, vNum(10), true},
		{model.OpEq, "10", vNum(10), false},
		{model.OpEq, 10.0, vStr("10"), false},
		{model.OpEq, nil, null, true},
		{model.OpEq, nil, vNum(0), false},
		{model.OpNeq, 10.0, vNum(11), true},
		{model.OpNeq, 10.0, vStr("x"), false},
		{model.OpNeq, 10.0, null, false},
		{model.OpNeq, nil, vNum(1), true},
		{model.OpNeq, nil, null, false},
		{model.OpGt, 1.0, vNum(2), true},
		{model.OpGt, "b", vStr("c"), true},
		{model.OpGt, "10", vStr("9"), true},
		{model.OpGte, 2.0, vNum(2), true},
		{model.OpLt, 2.0, vNum(2), false},
		{model.OpLte, 2.0, vNum(2), true},
		{model.OpLt, 2.0, vStr("1"), false},
		{model.OpGt, nil, vNum(1), false},
		{model.OpGt, false, vBool(true), false},
		{model.OpEq, true, vBool(true), true},
		{model.OpIn, []any{1.0, "a"}, vStr("a"), true},
		{model.OpIn, []any{1.0, "a"}, vNum(2), false},
		{model.OpIn, []any{}, vNum(2), false},
		{model.OpLike, "IDG", vStr("Widget"), true},
		{model.OpLike, "", vStr("x"), true},
		{model.OpLike, "école", vStr("ÉCOLE normale"), true},
		{model.OpLike, "x", vNum(1), false},
		{model.OpLike, 1.0, vStr("1"), false},
	}
	for _, c := range cases {
		pr, err := NewPredicate(Param{Name: "p", Op: c.op}, c.arg)
		if err != nil {
			t.Fatal(err)
		}
		if got := pr.match(c.stored); got != c.want {
			t.Errorf("%s %v against %+v = %v, want %v", c.op, c.arg, c.stored, got, c.want)
		}
	}
}

func vNum(f float64) dataset.Value { return dataset.Value{Kind: dataset.Number, Num: f} }
func vStr(s string) dataset.Value  { return dataset.Value{Kind: dataset.String, Str: s} }
func vBool(b bool) dataset.Value   { return dataset.Value{Kind: dataset.Bool, Bool: b} }
