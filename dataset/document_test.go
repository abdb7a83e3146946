package dataset

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

func TestDocument(t *testing.T) {
	tests := []struct {
		name   string
		record string
		want   string
	}{
		{"nested", `{"id":1,"price":{"amount":12.5,"currency":"EUR"},"ok":true}`, `{"id":1,"price":{"amount":12.5,"currency":"EUR"},"ok":true}`},
		{"white space and arrays", `{ "tags" : [ 1 , "a" ] , "e" : { } , "n" : null }`, `{"tags":[1,"a"],"e":{},"n":null}`},
		{"integers print as integers", `{"a":12,"b":1.0,"c":1e6,"d":1234567,"e":-0,"f":1e21,"g":1.5e-7}`, `{"a":12,"b":1,"c":1000000,"d":1234567,"e":-0,"f":1e+21,"g":1.5e-07}`},
		{"escapes", `{"s":"q\"b\\n\n\u0001<>"}`, `{"s":"q\"b\\n\n\u0001<>"}`},
		{"dotted key nests", `{"a.b":1,"a.c":2}`, `{"a":{"b":1,"c":2}}`},
		{"empty record", `{}`, `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := mustRead(t, NDJSON, tt.record)
			if got := string(d.Document(0)); got != tt.want {
				t.Errorf("Document = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestDocumentShapes(t *testing.T) {
	d := mustRead(t, NDJSON, `{"id":1,"price":5}
{"id":2,"price":{"amount":1,"currency":"EUR"}}
{"id":3,"price":{"currency":"USD"},"extra":true}
{"price":{}}`)
	want := []string{
		`{"id":1,"price":5}`,
		`{"id":2,"price":{"amount":1,"currency":"EUR"}}`,
		`{"id":3,"price":{"currency":"USD"},"extra":true}`,
		`{"price":{}}`,
	}
	for row, w := range want {
		if got := string(d.Document(row)); got != w {
			t.Errorf("Document(%d) = %s, want %s", row, got, w)
		}
	}
	values := []Value{num(5), raw(`{"amount":1,"currency":"EUR"}`), raw(`{"currency":"USD"}`), raw(`{}`)}
	for row, w := range values {
		if got := d.Value(row, "price"); got != w {
			t.Errorf("Value(%d, price) = %+v, want %+v", row, got, w)
		}
	}
	if d.Document(-1) != nil || d.Document(4) != nil {
		t.Errorf("Document out of range is not nil")
	}
	if got := d.Value(4, "id"); got != (Value{}) {
		t.Errorf("Value out of range = %+v", got)
	}
}

// TestDocumentDemo checks that every demo document reads back as imported.
func TestDocumentDemo(t *testing.T) {
	for _, set := range Demo() {
		t.Run(set.ImportCode, func(t *testing.T) {
			d := mustRead(t, set.Format, string(set.Data), set.VariantField)
			var records []map[string]any
			if err := json.Unmarshal(set.Data, &records); err != nil {
				t.Fatal(err)
			}
			for row, want := range records {
				var got map[string]any
				if err := json.Unmarshal(d.Document(row), &got); err != nil {
					t.Fatalf("Document(%d) = %s: %v", row, d.Document(row), err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("Document(%d) = %v, want %v", row, got, want)
				}
			}
		})
	}
}

func TestKey(t *testing.T) {
	tests := []struct {
		v    Value
		want string
	}{
		{num(10), "10"}, {num(10.0), "10"}, {num(1234567), "1234567"}, {num(1e6), "1000000"},
		{num(2.5), "2.5"}, {num(1e21), "1e+21"}, {num(1e-7), "1e-07"}, {num(math.Copysign(0, -1)), "-0"},
		{str("7"), "7"}, {boolean(true), "true"}, {Value{}, ""}, {raw("[1]"), "[1]"},
	}
	for _, tt := range tests {
		if got := tt.v.Key(); got != tt.want {
			t.Errorf("Key(%+v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestVariants(t *testing.T) {
	d := mustRead(t, NDJSON, `{"id":1,"market":"eu"}
{"id":2,"market":"us"}
{"id":3}
{"id":4,"market":"eu"}
{"id":5,"market":null}
{"id":6,"market":"default"}`, "market")
	want := []Variant{{"eu", 2}, {"us", 1}, {"default", 3}}
	if got := d.Variants(); !reflect.DeepEqual(got, want) {
		t.Errorf("Variants = %v, want %v", got, want)
	}
	tests := []struct {
		name string
		want []int32
	}{
		{"eu", rows(0, 3)}, {"us", rows(1)}, {"default", rows(2, 4, 5)}, {"asia", nil}, {"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := d.VariantRows(tt.name); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("VariantRows(%q) = %v, want %v", tt.name, got, tt.want)
			}
		})
	}
	if d.VariantField() != "market" {
		t.Errorf("VariantField = %q", d.VariantField())
	}
}

func TestVariantsByNumber(t *testing.T) {
	d := mustRead(t, CSV, "id,region.code\n1,10\n2,10.0\n3,x\n", "region.code")
	want := []Variant{{"10", 2}, {"x", 1}}
	if got := d.Variants(); !reflect.DeepEqual(got, want) {
		t.Errorf("Variants = %v, want %v", got, want)
	}
}
