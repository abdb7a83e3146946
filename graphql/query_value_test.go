package graphql

import (
	"encoding/json"
	"testing"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/graphql/internal/answer"
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
			got := answer.Output(c.typ, c.in)
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
