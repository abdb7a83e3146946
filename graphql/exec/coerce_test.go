package exec

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"time"
)

func TestCoerceScalarJSON(t *testing.T) {
	tests := []struct {
		name    string
		scalar  string
		in      any
		want    any
		wantErr string
	}{
		{name: "Int from json.Number", scalar: "Int", in: json.Number("42"), want: 42},
		{name: "Int from integral float", scalar: "Int", in: json.Number("4.0"), want: 4},
		{name: "Int from float64", scalar: "Int", in: 7.0, want: 7},
		{name: "Int from int64", scalar: "Int", in: int64(-3), want: -3},
		{name: "Int min", scalar: "Int", in: json.Number("-2147483648"), want: math.MinInt32},
		{name: "Int over 32 bits", scalar: "Int", in: json.Number("2147483648"), wantErr: "Int cannot represent non 32-bit signed integer value: 2147483648"},
		{name: "Int fraction", scalar: "Int", in: json.Number("1.5"), wantErr: "Int cannot represent non-integer value: 1.5"},
		{name: "Int string", scalar: "Int", in: "1", wantErr: `Int cannot represent non-integer value: "1"`},
		{name: "Float from int", scalar: "Float", in: json.Number("3"), want: 3.0},
		{name: "Float", scalar: "Float", in: json.Number("1e-3"), want: 0.001},
		{name: "Float bool", scalar: "Float", in: true, wantErr: "Float cannot represent non numeric value: true"},
		{name: "String", scalar: "String", in: "é", want: "é"},
		{name: "String number", scalar: "String", in: json.Number("1"), wantErr: "String cannot represent a non string value: 1"},
		{name: "Boolean", scalar: "Boolean", in: false, want: false},
		{name: "Boolean string", scalar: "Boolean", in: "true", wantErr: `Boolean cannot represent a non boolean value: "true"`},
		{name: "ID string", scalar: "ID", in: "a1", want: "a1"},
		{name: "ID integer", scalar: "ID", in: json.Number("12"), want: "12"},
		{name: "ID float", scalar: "ID", in: json.Number("1.5"), wantErr: "ID cannot represent value: 1.5"},
		{name: "ID bool", scalar: "ID", in: true, wantErr: "ID cannot represent value: true"},
		{name: "custom numbers become float64", scalar: "JSON", in: map[string]any{"a": []any{json.Number("1"), "x", nil, true}}, want: map[string]any{"a": []any{1.0, "x", nil, true}}},
		{name: "custom scalar", scalar: "FilterValue", in: json.Number("10"), want: 10.0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := coerceScalarJSON(tt.scalar, tt.in)
			if tt.wantErr != "" {
				if err == nil || err.Error() != "BAD_USER_INPUT: "+tt.wantErr {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %#v, %v; want %#v", got, err, tt.want)
			}
		})
	}
}

type color string
type count int64

func TestAppendLeaf(t *testing.T) {
	s, n := "ptr", 5
	enum := &outType{kind: kindEnum, name: "Color", enum: map[string]bool{"RED": true}}
	tests := []struct {
		name    string
		kind    outKind
		in      any
		want    string
		wantErr string
	}{
		{name: "String", kind: kindString, in: "a\"b\n\u2028<>&\x01", want: `"a\"b\n\u2028<>&\u0001"`},
		{name: "String invalid UTF-8", kind: kindString, in: "a\xffb", want: `"a\ufffdb"`},
		{name: "String named type", kind: kindString, in: color("x"), want: `"x"`},
		{name: "String pointer", kind: kindString, in: &s, want: `"ptr"`},
		{name: "String from int", kind: kindString, in: 12, want: `"12"`},
		{name: "String from int64 exact", kind: kindString, in: int64(9007199254740993), want: `"9007199254740993"`},
		{name: "String from float", kind: kindString, in: 2.5, want: `"2.5"`},
		{name: "String from bool", kind: kindString, in: true, want: `"true"`},
		{name: "String from json.Number", kind: kindString, in: json.Number("1.50"), want: `"1.50"`},
		{name: "String from map", kind: kindString, in: map[string]any{}, wantErr: "String cannot represent value: {}"},
		{name: "Int", kind: kindInt, in: -7, want: `-7`},
		{name: "Int from float64", kind: kindInt, in: 3.0, want: `3`},
		{name: "Int from json.Number", kind: kindInt, in: json.Number("8"), want: `8`},
		{name: "Int named", kind: kindInt, in: count(9), want: `9`},
		{name: "Int pointer", kind: kindInt, in: &n, want: `5`},
		{name: "Int uint8", kind: kindInt, in: uint8(200), want: `200`},
		{name: "Int fraction", kind: kindInt, in: 3.5, wantErr: "Int cannot represent non-integer value: 3.5"},
		{name: "Int too big", kind: kindInt, in: int64(1) << 31, wantErr: "Int cannot represent non 32-bit signed integer value: 2147483648"},
		{name: "Int int too big", kind: kindInt, in: 1 << 40, wantErr: "Int cannot represent non 32-bit signed integer value: 1099511627776"},
		{name: "Int string", kind: kindInt, in: "1", wantErr: `Int cannot represent non-integer value: "1"`},
		{name: "Float", kind: kindFloat, in: 0.1, want: `0.1`},
		{name: "Float integral", kind: kindFloat, in: 2.0, want: `2`},
		{name: "Float large", kind: kindFloat, in: 1e21, want: `1e+21`},
		{name: "Float small", kind: kindFloat, in: 1e-7, want: `1e-7`},
		{name: "Float from int", kind: kindFloat, in: int32(4), want: `4`},
		{name: "Float NaN", kind: kindFloat, in: math.NaN(), wantErr: "Float cannot represent non numeric value: NaN"},
		{name: "Boolean", kind: kindBoolean, in: true, want: `true`},
		{name: "Boolean string", kind: kindBoolean, in: "true", wantErr: `Boolean cannot represent a non boolean value: "true"`},
		{name: "ID string", kind: kindID, in: "x", want: `"x"`},
		{name: "ID int", kind: kindID, in: 42, want: `"42"`},
		{name: "ID uint64", kind: kindID, in: uint64(18446744073709551615), want: `"18446744073709551615"`},
		{name: "ID float", kind: kindID, in: 3.0, want: `"3"`},
		{name: "ID fraction", kind: kindID, in: 3.5, wantErr: "ID cannot represent value: 3.5"},
		{name: "enum", kind: kindEnum, in: "RED", want: `"RED"`},
		{name: "enum named type", kind: kindEnum, in: color("RED"), want: `"RED"`},
		{name: "enum unknown", kind: kindEnum, in: "BLUE", wantErr: `Enum "Color" cannot represent value: "BLUE"`},
		{name: "custom raw", kind: kindCustom, in: json.RawMessage(`{"z":1,"a":[true]}`), want: `{"z":1,"a":[true]}`},
		{name: "custom empty raw", kind: kindCustom, in: json.RawMessage{}, want: `null`},
		{name: "custom map sorted", kind: kindCustom, in: map[string]any{"b": 1, "a": []any{json.Number("2.50"), "s", nil}}, want: `{"a":[2.50,"s",null],"b":1}`},
		{name: "custom time", kind: kindCustom, in: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), want: `"2026-01-02T03:04:05Z"`},
		{name: "custom struct", kind: kindCustom, in: struct{ A int }{1}, want: `{"A":1}`},
		{name: "custom bad number", kind: kindCustom, in: json.Number("1x"), wantErr: `JSON cannot represent value: "1x"`},
		{name: "custom unencodable", kind: kindCustom, in: make(chan int), wantErr: "JSON cannot represent value of type chan int"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			typ := &outType{kind: tt.kind}
			if tt.kind == kindEnum {
				typ = enum
			}
			got, err := appendLeaf([]byte("x"), typ, tt.in)
			if tt.wantErr != "" {
				if err == nil || err.Error() != "INTERNAL: "+tt.wantErr {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || string(got) != "x"+tt.want {
				t.Fatalf("got %s, %v; want x%s", got, err, tt.want)
			}
			if common, ok := appendCommonLeaf([]byte("x"), tt.kind, tt.in); ok && !bytes.Equal(common, got) {
				t.Errorf("inline path wrote %s, general path %s", common, got)
			}
		})
	}
}

// FuzzAppendString checks appendString against encoding/json (without HTML
// escaping).
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "q\"b\\s/", "\x00\x1f\x7f\b\f", "é€😀", "\u2028\u2029", "\xff\xfe", "a\xc3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := appendString(nil, s); !bytes.Equal(got, bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
			t.Fatalf("appendString(%q) = %s, encoding/json %s", s, got, want.Bytes())
		}
	})
}

// FuzzAppendFloat checks appendFloat against encoding/json.
func FuzzAppendFloat(f *testing.F) {
	for _, v := range []float64{0, math.Copysign(0, -1), 1, -1.5, 0.1, 1e-7, 1e-6, 123456789, 1e15, 1e15 + 0.5, 1e20, 1e21, 1.7976931348623157e308, 5e-324} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		want, _ := json.Marshal(v)
		if got := appendFloat(nil, v); !bytes.Equal(got, want) {
			t.Fatalf("appendFloat(%v) = %s, encoding/json %s", v, got, want)
		}
	})
}
