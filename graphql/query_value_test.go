package graphql

import (
	"encoding/json"
	"testing"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/model"
)

func vNum(f float64) dataset.Value { return dataset.Value{Kind: dataset.Number, Num: f} }
func vStr(s string) dataset.Value  { return dataset.Value{Kind: dataset.String, Str: s} }
func vBool(b bool) dataset.Value   { return dataset.Value{Kind: dataset.Bool, Bool: b} }

func TestOutput(t *testing.T) {
	raw := dataset.Value{Kind: dataset.Raw, Str: `{"a":1}`}
	cases := []struct {
		name string
		typ  model.ScalarType
		in   dataset.Value
		want any
	}{
		{"int from number", model.TypeInt, vNum(42), 42},
		{"int from clean text", model.TypeInt, vStr("42"), 42},
		{"int from dirty text", model.TypeInt, vStr("42abc"), nil},
		{"int from padded text", model.TypeInt, vStr(" 42"), nil},
		{"int from fraction", model.TypeInt, vNum(2.5), nil},
		{"int beyond 32 bits", model.TypeInt, vNum(1 << 40), nil},
		{"int from bool", model.TypeInt, vBool(true), nil},
		{"float from number", model.TypeFloat, vNum(2.5), 2.5},
		{"float from text", model.TypeFloat, vStr("2.5"), 2.5},
		{"string from text", model.TypeString, vStr("x"), "x"},
		{"string from integer", model.TypeString, vNum(1234567), "1234567"},
		{"string from fraction", model.TypeString, vNum(0.5), "0.5"},
		{"string from bool", model.TypeString, vBool(false), "false"},
		{"string from object", model.TypeString, raw, nil},
		{"id from number", model.TypeID, vNum(7), "7"},
		{"datetime as stored", model.TypeDateTime, vStr("2024-01-02T03:04:05Z"), "2024-01-02T03:04:05Z"},
		{"boolean from bool", model.TypeBoolean, vBool(true), true},
		{"boolean from text", model.TypeBoolean, vStr("true"), nil},
		{"json object", model.TypeJSON, raw, json.RawMessage(`{"a":1}`)},
		{"json text", model.TypeJSON, vStr(`a"b`), json.RawMessage(`"a\"b"`)},
		{"json number", model.TypeJSON, vNum(3), json.RawMessage(`3`)},
		{"json null", model.TypeJSON, dataset.Value{}, nil},
		{"null", model.TypeString, dataset.Value{}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := output(c.typ, c.in)
			if g, ok := got.(json.RawMessage); ok {
				if w, _ := c.want.(json.RawMessage); string(g) != string(w) {
					t.Errorf("got %s, want %s", g, w)
				}
				return
			}
			if got != c.want {
				t.Errorf("got %#v, want %#v", got, c.want)
			}
		})
	}
}

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
		pr, err := newPredicate(param{name: "p", op: c.op}, c.arg)
		if err != nil {
			t.Fatal(err)
		}
		if got := pr.match(c.stored); got != c.want {
			t.Errorf("%s %v against %+v = %v, want %v", c.op, c.arg, c.stored, got, c.want)
		}
	}
}
