package dataset

import (
	"errors"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/mockgql/mockgql/model"
)

func TestReadFormats(t *testing.T) {
	tests := []struct {
		name   string
		format Format
		data   string
	}{
		{"json", JSON, `[{"id":1,"name":"Ann","price":{"amount":12.5,"currency":"EUR"},"stock":"42","ok":true},
			{"id":2,"name":"Bob","price":{"amount":3,"currency":"USD"},"stock":"7","ok":false,"note":null}]`},
		{"ndjson", NDJSON, "{\"id\":1,\"name\":\"Ann\",\"price\":{\"amount\":12.5,\"currency\":\"EUR\"},\"stock\":\"42\",\"ok\":true}\n\n" +
			"  \r\n{\"id\":2,\"name\":\"Bob\",\"price\":{\"amount\":3,\"currency\":\"USD\"},\"stock\":\"7\",\"ok\":false,\"note\":null}"},
		{"csv", CSV, "id,name,price.amount,price.currency,stock,ok,note\n1,Ann,12.5,EUR,\"42x\",true,\n2,Bob,3,USD,7x,false,\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := mustRead(t, tt.format, tt.data)
			if d.Len() != 2 {
				t.Fatalf("Len = %d, want 2", d.Len())
			}
			want := []string{"id", "name", "price.amount", "price.currency", "stock", "ok"}
			if got := d.Paths()[:6]; !slices.Equal(got, want) {
				t.Errorf("Paths = %q, want prefix %q", got, want)
			}
			checks := []struct {
				row  int
				path string
				want Value
			}{
				{0, "id", num(1)}, {1, "name", str("Bob")}, {0, "price.amount", num(12.5)},
				{1, "price.currency", str("USD")}, {0, "ok", boolean(true)}, {1, "ok", boolean(false)},
				{1, "note", Value{}}, {0, "missing", Value{}},
			}
			for _, c := range checks {
				if got := d.Value(c.row, c.path); got != c.want {
					t.Errorf("Value(%d, %q) = %+v, want %+v", c.row, c.path, got, c.want)
				}
			}
			if got := d.Value(0, "stock"); got.Kind != String {
				t.Errorf("stock = %+v, want a String", got)
			}
		})
	}
}

func TestReadValues(t *testing.T) {
	tests := []struct {
		name   string
		record string
		path   string
		want   Value
	}{
		{"nested", `{"price":{"amount":{"net":5}}}`, "price.amount.net", num(5)},
		{"prefix as object", `{"price":{"amount":5,"currency":"EUR"}}`, "price", raw(`{"amount":5,"currency":"EUR"}`)},
		{"array is compact raw", `{"tags":[ "a", 1 , {"b" : [true,null]} ]}`, "tags", raw(`["a",1,{"b":[true,null]}]`)},
		{"empty array", `{"tags":[]}`, "tags", raw(`[]`)},
		{"empty object", `{"meta":{}}`, "meta", raw(`{}`)},
		{"number as text stays string", `{"stock":"12"}`, "stock", str("12")},
		{"number", `{"n":12}`, "n", num(12)},
		{"float", `{"n":-1.25e-3}`, "n", num(-0.00125)},
		{"big integer", `{"n":12345678901234567}`, "n", num(12345678901234567)},
		{"negative zero", `{"n":-0}`, "n", num(math.Copysign(0, -1))},
		{"escapes", `{"s":"a\"b\\c\/d\n\t\u00e9\ud83d\ude00"}`, "s", str("a\"b\\c/d\n\té😀")},
		{"lone surrogate", `{"s":"x\ud800y"}`, "s", str("x\uFFFDy")},
		{"invalid utf8", "{\"s\":\"a\xffb\"}", "s", str("a\uFFFDb")},
		{"escaped key", `{"k\u0041":1}`, "kA", num(1)},
		{"dotted key is a path", `{"a.b":1}`, "a.b", num(1)},
		{"dotted key reads as object", `{"a.b":1}`, "a", raw(`{"b":1}`)},
		{"null", `{"n":null}`, "n", Value{}},
		{"absent", `{"n":1}`, "m", Value{}},
		{"true", `{"b":true}`, "b", boolean(true)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := mustRead(t, NDJSON, tt.record)
			got := d.Value(0, tt.path)
			if got != tt.want || math.Signbit(got.Num) != math.Signbit(tt.want.Num) {
				t.Errorf("Value(0, %q) = %+v, want %+v", tt.path, got, tt.want)
			}
			if c := d.Column(tt.path); c != nil && c.Value(0) != got {
				t.Errorf("Column(%q).Value(0) = %+v, want %+v", tt.path, c.Value(0), got)
			}
		})
	}
}

func TestReadCSVInference(t *testing.T) {
	tests := []struct {
		cell string
		want Value
	}{
		{"", Value{}}, {"true", boolean(true)}, {"false", boolean(false)}, {"TRUE", str("TRUE")},
		{"12", num(12)}, {"-0.5", num(-0.5)}, {"1e5", num(1e5)}, {"1E-2", num(0.01)}, {"0", num(0)},
		{"007", str("007")}, {"+1", str("+1")}, {"NaN", str("NaN")}, {"Inf", str("Inf")},
		{"0x1F", str("0x1F")}, {"1.", str("1.")}, {".5", str(".5")}, {"1_000", str("1_000")},
		{" 1", str(" 1")}, {"1e999", str("1e999")}, {"-", str("-")}, {"abc", str("abc")},
	}
	for _, tt := range tests {
		t.Run(tt.cell, func(t *testing.T) {
			d := mustRead(t, CSV, "v,w\n\""+tt.cell+"\",x\n")
			if got := d.Value(0, "v"); got != tt.want {
				t.Errorf("cell %q = %+v, want %+v", tt.cell, got, tt.want)
			}
		})
	}
}

func TestReadCSVNested(t *testing.T) {
	d := mustRead(t, CSV, "\uFEFFid,price.amount,price.currency\n1,2.5,EUR\n2,,USD\n")
	if got, want := string(d.Document(0)), `{"id":1,"price":{"amount":2.5,"currency":"EUR"}}`; got != want {
		t.Errorf("Document(0) = %s, want %s", got, want)
	}
	if got, want := string(d.Document(1)), `{"id":2,"price":{"amount":null,"currency":"USD"}}`; got != want {
		t.Errorf("Document(1) = %s, want %s", got, want)
	}
}

func TestReadErrors(t *testing.T) {
	long := strings.Repeat("x", 65)
	tests := []struct {
		name  string
		opt   Options
		data  string
		code  model.Code
		inMsg []string
	}{
		{"json malformed", Options{Format: JSON}, `[{"a":1},` + "\n" + `{"a":}]`, model.CodeBadUserInput, []string{"record 2", "byte offset 15"}},
		{"json bad literal", Options{Format: JSON}, `[{"a":tru}]`, model.CodeBadUserInput, []string{"record 1", "byte offset 6"}},
		{"json non-object", Options{Format: JSON}, `[{"a":1}, 5]`, model.CodeBadUserInput, []string{"record 2", "byte offset 10", "not an object"}},
		{"json not an array", Options{Format: JSON}, `{"a":1}`, model.CodeBadUserInput, []string{"byte offset 0", "array"}},
		{"json empty file", Options{Format: JSON}, "  \n", model.CodeBadUserInput, []string{"dataset is empty"}},
		{"json empty array", Options{Format: JSON}, `[ ]`, model.CodeBadUserInput, []string{"dataset is empty"}},
		{"json truncated", Options{Format: JSON}, `[{"a":1},{"b":`, model.CodeBadUserInput, []string{"record 2", "end of the input"}},
		{"json unclosed array", Options{Format: JSON}, `[{"a":1}`, model.CodeBadUserInput, []string{"end of the input"}},
		{"json trailing data", Options{Format: JSON}, `[{"a":1}] {}`, model.CodeBadUserInput, []string{"byte offset 10", "after the top-level array"}},
		{"json missing comma", Options{Format: JSON}, `[{"a":1} {"a":2}]`, model.CodeBadUserInput, []string{"byte offset 9", "after record 1"}},
		{"json trailing comma", Options{Format: JSON}, `[{"a":1},]`, model.CodeBadUserInput, []string{"record 2", "not an object"}},
		{"json duplicate key", Options{Format: JSON}, `[{"a":1,"a":2}]`, model.CodeBadUserInput, []string{"record 1", `duplicate field "a"`}},
		{"json value and object", Options{Format: JSON}, `[{"a":1,"b":{}},{"a":{"x":1},"a.x":2}]`, model.CodeBadUserInput, []string{"record 2", `"a.x"`}},
		{"json leaf and prefix", Options{Format: JSON}, `[{"a":1,"a.b":2}]`, model.CodeBadUserInput, []string{"record 1", "conflicts"}},
		{"json number out of range", Options{Format: JSON}, `[{"a":1e400}]`, model.CodeBadUserInput, []string{"record 1", "out of range"}},
		{"json control character", Options{Format: JSON}, "[{\"a\":\"x\ny\"}]", model.CodeBadUserInput, []string{"record 1", "control character"}},
		{"json leading zero", Options{Format: JSON}, `[{"a":01}]`, model.CodeBadUserInput, []string{"record 1", "byte offset 7"}},
		{"ndjson malformed line", Options{Format: NDJSON}, "{\"a\":1}\n\n{\"a\":1,}\n", model.CodeBadUserInput, []string{"line 3", "column 8"}},
		{"ndjson non-object", Options{Format: NDJSON}, "{\"a\":1}\n[1]\n", model.CodeBadUserInput, []string{"line 2", "not a JSON object"}},
		{"ndjson two objects on a line", Options{Format: NDJSON}, `{"a":1} {"a":2}`, model.CodeBadUserInput, []string{"line 1", "after the object"}},
		{"ndjson empty", Options{Format: NDJSON}, "\n \n", model.CodeBadUserInput, []string{"dataset is empty"}},
		{"csv field count", Options{Format: CSV}, "a,b\n1,2\n3\n", model.CodeBadUserInput, []string{"line 3", "wrong number of fields"}},
		{"csv bare quote", Options{Format: CSV}, "a,b\n1,x\"y\n", model.CodeBadUserInput, []string{"line 2"}},
		{"csv header only", Options{Format: CSV}, "a,b\n", model.CodeBadUserInput, []string{"dataset is empty"}},
		{"csv empty file", Options{Format: CSV}, "", model.CodeBadUserInput, []string{"dataset is empty"}},
		{"csv duplicate column", Options{Format: CSV}, "a,b,a\n1,2,3\n", model.CodeBadUserInput, []string{"line 1", `duplicate column "a"`}},
		{"csv empty column name", Options{Format: CSV}, "a,,c\n1,2,3\n", model.CodeBadUserInput, []string{"line 1", "column 2"}},
		{"csv column conflict", Options{Format: CSV}, "a,a.b\n1,2\n", model.CodeBadUserInput, []string{"line 1", "conflicts"}},
		{"json value over the limit", Options{Format: JSON}, `[{"a":"x"},{"a":"` + strings.Repeat("v", MaxValueBytes+1) + `"}]`, model.CodeBadUserInput, []string{"record 2", `field "a"`, "1048576"}},
		{"json array over the limit", Options{Format: JSON}, `[{"a":[` + strings.Repeat("1,", MaxValueBytes/2) + `1]}]`, model.CodeBadUserInput, []string{"record 1", "1048576"}},
		{"json name over the limit", Options{Format: JSON}, `[{"` + strings.Repeat("n", MaxPathBytes+1) + `":1}]`, model.CodeBadUserInput, []string{"record 1", "256"}},
		{"json path over the limit", Options{Format: JSON}, `[{"` + strings.Repeat("n", 200) + `":{"` + strings.Repeat("m", 60) + `":1}}]`, model.CodeBadUserInput, []string{"record 1", "261 bytes"}},
		{"ndjson value over the limit", Options{Format: NDJSON}, "{\"a\":1}\n{\"a\":\"" + strings.Repeat("v", MaxValueBytes+1) + "\"}\n", model.CodeBadUserInput, []string{"line 2", "1048576"}},
		{"csv value over the limit", Options{Format: CSV}, "a\n" + strings.Repeat("v", MaxValueBytes+1) + "\n", model.CodeBadUserInput, []string{"line 2", "1048576"}},
		{"csv header over the limit", Options{Format: CSV}, strings.Repeat("h", MaxPathBytes+1) + "\n1\n", model.CodeBadUserInput, []string{"line 1", "256"}},
		{"import code empty", Options{ImportCode: "-", Format: JSON}, `[{}]`, model.CodeBadUserInput, nil},
		{"import code bad character", Options{ImportCode: "my code", Format: JSON}, `[{}]`, model.CodeBadUserInput, []string{"importCode", "position 3"}},
		{"import code too long", Options{ImportCode: long, Format: JSON}, `[{}]`, model.CodeBadUserInput, []string{"importCode", "64"}},
		{"unknown format", Options{Format: "xml"}, `[{}]`, model.CodeBadUserInput, []string{"xml"}},
		{"over the limit", Options{Format: JSON, MaxBytes: 10}, `[{"a":1},{"a":2}]`, model.CodePayloadTooLarge, []string{"10 bytes"}},
		{"ndjson over the limit", Options{Format: NDJSON, MaxBytes: 8}, "{\"a\":1}\n{\"a\":2}\n", model.CodePayloadTooLarge, []string{"8 bytes"}},
		{"csv over the limit", Options{Format: CSV, MaxBytes: 5}, "a\n1\n2\n3\n", model.CodePayloadTooLarge, []string{"5 bytes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := tt.opt
			if opt.ImportCode == "" {
				opt.ImportCode = "test"
			} else if opt.ImportCode == "-" {
				opt.ImportCode = ""
			}
			d, err := Read(strings.NewReader(tt.data), opt)
			if d != nil {
				t.Errorf("Read returned a dataset with the error")
			}
			wantError(t, err, tt.code, tt.inMsg...)
		})
	}
}

func TestReadLimit(t *testing.T) {
	data := `[{"a":1},{"a":2}]`
	for _, limit := range []int64{int64(len(data)), int64(len(data)) + 1, 0, -1} {
		if _, err := Read(strings.NewReader(data), Options{ImportCode: "x", Format: JSON, MaxBytes: limit}); err != nil {
			t.Errorf("MaxBytes %d: %v", limit, err)
		}
	}
	_, err := Read(strings.NewReader(data), Options{ImportCode: "x", Format: JSON, MaxBytes: int64(len(data)) - 1})
	wantError(t, err, model.CodePayloadTooLarge, "16 bytes")
}

func TestReadReaderError(t *testing.T) {
	boom := errors.New("boom")
	prefixes := map[Format]string{JSON: `[{"a":1},`, NDJSON: "{\"a\":1}\n", CSV: "a\n1\n"}
	for f, prefix := range prefixes {
		t.Run(string(f), func(t *testing.T) {
			r := io.MultiReader(strings.NewReader(prefix), iotest.ErrReader(boom))
			_, err := Read(r, Options{ImportCode: "x", Format: f})
			if !errors.Is(err, boom) || model.ErrorCode(err) != model.CodeInternal {
				t.Errorf("err = %v (code %s), want boom, internal", err, model.ErrorCode(err))
			}
		})
	}
}

func TestParseFormat(t *testing.T) {
	for _, s := range []string{"json", "JSON", "NdJson", " csv "} {
		if _, err := ParseFormat(s); err != nil {
			t.Errorf("ParseFormat(%q): %v", s, err)
		}
	}
	_, err := ParseFormat("yaml")
	wantError(t, err, model.CodeBadUserInput, "yaml")
}

func TestReadDefaults(t *testing.T) {
	d := mustRead(t, JSON, `[{"a":1}]`)
	if d.Name() != "test" || d.ImportCode() != "test" || d.VariantField() != "" || d.Variants() != nil {
		t.Errorf("Name %q ImportCode %q VariantField %q Variants %v", d.Name(), d.ImportCode(), d.VariantField(), d.Variants())
	}
	d, err := Read(strings.NewReader(`[{"a":1}]`), Options{ImportCode: "p", Name: "Products", Format: "JSON"})
	if err != nil || d.Name() != "Products" {
		t.Fatalf("Read with a name: %v, %v", d, err)
	}
}

func TestPathsFirstSeen(t *testing.T) {
	d := mustRead(t, NDJSON, "{\"b\":1,\"a\":{\"y\":1}}\n{\"c\":1,\"a\":{\"x\":1,\"y\":2},\"b\":2}\n{}")
	if got, want := d.Paths(), []string{"b", "a.y", "c", "a.x"}; !slices.Equal(got, want) {
		t.Errorf("Paths = %q, want %q", got, want)
	}
	if d.Len() != 3 {
		t.Errorf("Len = %d, want 3 (an empty object is a row)", d.Len())
	}
	if d.Column("a") != nil || d.Column("a.x") == nil {
		t.Errorf("Column: a prefix is not a leaf, a.x is")
	}
}
