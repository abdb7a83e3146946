package engine

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"time"

	"github.com/mockgql/mockgql/dataset"
)

// This file converts between stored values (dataset.Value), the JSON the
// overlay keeps, the Go values resolvers return, and relation keys.

// FormatNum writes a number the way the runtime shows it: integers without
// exponent ("1234567", not "1.234567e+06"), other numbers in shortest form.
func FormatNum(f float64) string {
	return string(AppendNum(nil, f))
}

// AppendNum appends f as FormatNum writes it. Integers that float64 holds
// exactly take strconv.AppendInt, which writes the same digits faster.
func AppendNum(buf []byte, f float64) []byte {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 && (f != 0 || !math.Signbit(f)) {
		return strconv.AppendInt(buf, int64(f), 10)
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.AppendFloat(buf, f, 'f', -1, 64)
	}
	return strconv.AppendFloat(buf, f, 'g', -1, 64)
}

// CanonKey is the key of v used to match relations, ids and created-row ids:
// numbers as FormatNum, text as it is, so the number 7 and the text "7"
// match (like dataset.Value.Key). ok is false for null, which matches nothing.
func CanonKey(v dataset.Value) (key string, ok bool) {
	switch v.Kind {
	case dataset.Null:
		return "", false
	case dataset.Number:
		return FormatNum(v.Num), true
	case dataset.Bool:
		return strconv.FormatBool(v.Bool), true
	}
	return v.Str, true
}

// LookupKeys returns the dataset.Lookup keys that can hold canonical key k:
// k itself and, when k is a number, the number's dataset Key (which may be
// written differently, e.g. with an exponent).
func LookupKeys(k string) []string {
	if f, err := strconv.ParseFloat(k, 64); err == nil && FormatNum(f) == k {
		if alt := (dataset.Value{Kind: dataset.Number, Num: f}).Key(); alt != k {
			return []string{k, alt}
		}
	}
	return []string{k}
}

// valueOfJSON converts a JSON value (as the overlay and constants store
// them) into a stored value. Invalid JSON is null.
func valueOfJSON(raw []byte) dataset.Value {
	var x any
	if len(raw) == 0 || json.Unmarshal(raw, &x) != nil {
		return dataset.Value{}
	}
	switch t := x.(type) {
	case nil, bool, float64, string:
		return ValueOfGo(t)
	}
	var b bytes.Buffer
	_ = json.Compact(&b, raw)
	return dataset.Value{Kind: dataset.Raw, Str: b.String()}
}

// ValueOfGo converts a plain Go value (a coerced argument or a generated
// value) into a stored value.
func ValueOfGo(x any) dataset.Value {
	switch t := x.(type) {
	case nil:
		return dataset.Value{}
	case bool:
		return dataset.Value{Kind: dataset.Bool, Bool: t}
	case float64:
		return dataset.Value{Kind: dataset.Number, Num: t}
	case float32:
		return dataset.Value{Kind: dataset.Number, Num: float64(t)}
	case int:
		return dataset.Value{Kind: dataset.Number, Num: float64(t)}
	case int64:
		return dataset.Value{Kind: dataset.Number, Num: float64(t)}
	case int32:
		return dataset.Value{Kind: dataset.Number, Num: float64(t)}
	case uint:
		return dataset.Value{Kind: dataset.Number, Num: float64(t)}
	case uint64:
		return dataset.Value{Kind: dataset.Number, Num: float64(t)}
	case json.Number:
		if f, err := t.Float64(); err == nil {
			return dataset.Value{Kind: dataset.Number, Num: f}
		}
		return dataset.Value{Kind: dataset.String, Str: string(t)}
	case string:
		return dataset.Value{Kind: dataset.String, Str: t}
	case time.Time:
		return dataset.Value{Kind: dataset.String, Str: t.UTC().Format(time.RFC3339)}
	}
	b, err := json.Marshal(x)
	if err != nil {
		return dataset.Value{}
	}
	return valueOfJSON(b)
}

// JSONOf is the JSON text of v, as the overlay stores it.
func JSONOf(v dataset.Value) json.RawMessage {
	switch v.Kind {
	case dataset.Bool:
		return json.RawMessage(strconv.FormatBool(v.Bool))
	case dataset.Number:
		if math.IsInf(v.Num, 0) || math.IsNaN(v.Num) {
			return json.RawMessage("null")
		}
		return json.RawMessage(FormatNum(v.Num))
	case dataset.String:
		b, _ := json.Marshal(v.Str)
		return b
	case dataset.Raw:
		return json.RawMessage(v.Str)
	}
	return json.RawMessage("null")
}

// NumberOf reads a number, or text that is exactly a number ("42", not " 42" or "42abc").
func NumberOf(v dataset.Value) (float64, bool) {
	switch v.Kind {
	case dataset.Number:
		return v.Num, true
	case dataset.String:
		f, err := strconv.ParseFloat(v.Str, 64)
		return f, err == nil
	}
	return 0, false
}
