package dataset

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// checkRead checks the contract of Read on arbitrary input: a dataset that
// reads back as valid JSON and survives Encode/Decode, or a BAD_USER_INPUT.
func checkRead(t *testing.T, data []byte, format Format) *Dataset {
	d, err := Read(bytes.NewReader(data), Options{ImportCode: "fuzz", Format: format, VariantField: "v"})
	if err != nil {
		var me *model.Error
		if !errors.As(err, &me) || me.Code != model.CodeBadUserInput || d != nil {
			t.Fatalf("Read error %v (%T) with dataset %v", err, err, d)
		}
		return nil
	}
	for row := range d.Len() {
		if doc := d.Document(row); !json.Valid(doc) {
			t.Fatalf("Document(%d) = %q is not JSON", row, doc)
		}
	}
	for _, p := range d.Paths() {
		for row := range d.Len() {
			if v := d.Value(row, p); v.Kind == Raw && !json.Valid([]byte(v.Str)) {
				t.Fatalf("Value(%d, %q) = %q is not JSON", row, p, v.Str)
			}
		}
		checkSorted(t, d, p)
	}
	var buf bytes.Buffer
	if err := d.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Decode(&buf)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	sameDataset(t, d, back)
	return d
}

func FuzzReadJSON(f *testing.F) {
	for _, s := range []string{
		`[{"a":1}]`, `[{"a":{"b":[1,2,{"c":null}]},"v":"x"},{"a":"1","v":2}]`, `[]`, `[{}]`, ` [ { "a" : true } ] `,
		`[{"s":"\u00e9\ud83d\ude00\n"}]`, `[{"a":1e400}]`, `[{"a":1,"a":2}]`, `[{"a":1,"a.b":2}]`, `{"a":1}`,
		`[{"a":01}]`, `[{"a":-}]`, "[{\"a\":\"\xff\"}]", `[{"a":[}]`, `[{"a":"}"}]`, `[{"a":"\"}"}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d := checkRead(t, data, JSON)
		if d != nil && !json.Valid(bytes.TrimPrefix(data, []byte("\uFEFF"))) {
			t.Fatalf("Read accepted invalid JSON %q", data)
		}
	})
}

func FuzzReadNDJSON(f *testing.F) {
	for _, s := range []string{
		"{\"a\":1}\n{\"a\":2}", "{\"a\":{\"b\":1},\"v\":null}\n\n{\"a\":[1]}\r\n", "{}", "[1]", "{\"a\":1} x",
		"{\"a\":\"x\\u0041\"}", "{\"a\":{}}\n{\"a\":{\"b\":{}}}", "{\"a\":tru}", "{\"a\":1.5e3,\"b\":-0}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d := checkRead(t, data, NDJSON)
		if d != nil {
			for _, line := range strings.Split(string(data), "\n") {
				if strings.TrimSpace(line) != "" && !json.Valid([]byte(line)) {
					t.Fatalf("Read accepted invalid JSON line %q", line)
				}
			}
		}
	})
}

func FuzzReadCSV(f *testing.F) {
	for _, s := range []string{
		"a,b\n1,2\n", "a.b,a.c,v\ntrue,\"x,y\",\n", "a\n007\n+1\n1e5\n", "a,b\n1\n", "a,a\n1,2\n", "\"a\nb\",c\n1,2\n",
		"a,a.b\n1,2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRead(t, data, CSV)
	})
}

func FuzzDecode(f *testing.F) {
	for _, set := range []string{mixed, `{"a":1,"b":"x"}`, `{"v":"eu","p":{"a":[1]}}` + "\n" + `{"v":"us"}`} {
		d, err := Read(strings.NewReader(set), Options{ImportCode: "fuzz", Format: NDJSON, VariantField: "v"})
		if err != nil {
			f.Fatal(err)
		}
		var buf bytes.Buffer
		if err := d.Encode(&buf); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Add([]byte(encodingMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, in := range [][]byte{data, fixCRC(data)} {
			d, err := Decode(bytes.NewReader(in))
			if err != nil {
				if !errors.Is(err, ErrCorrupt) || d != nil {
					t.Fatalf("Decode error %v with dataset %v", err, d)
				}
				continue
			}
			exercise(t, d)
		}
	})
}
