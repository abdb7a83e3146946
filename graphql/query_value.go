package graphql

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"time"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// This file converts between stored values (dataset.Value), the JSON the
// overlay keeps, the Go values resolvers return, and relation keys.

// formatNum writes a number the way the runtime shows it: integers without
// exponent ("1234567", not "1.234567e+06"), other numbers in shortest form.
func formatNum(f float64) string {
	return string(appendNum(nil, f))
}

// appendNum appends f as formatNum writes it. Integers that float64 holds
// exactly take strconv.AppendInt, which writes the same digits faster.
func appendNum(buf []byte, f float64) []byte {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 && (f != 0 || !math.Signbit(f)) {
		return strconv.AppendInt(buf, int64(f), 10)
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.AppendFloat(buf, f, 'f', -1, 64)
	}
	return strconv.AppendFloat(buf, f, 'g', -1, 64)
}

// canonKey is the key of v used to match relations, ids and created-row ids:
// numbers as formatNum, text as it is, so the number 7 and the text "7"
// match (like dataset.Value.Key). ok is false for null, which matches nothing.
func canonKey(v dataset.Value) (key string, ok bool) {
	switch v.Kind {
	case dataset.Null:
		return "", false
	case dataset.Number:
		return formatNum(v.Num), true
	case dataset.Bool:
		return strconv.FormatBool(v.Bool), true
	}
	return v.Str, true
}

// lookupKeys returns the dataset.Lookup keys that can hold canonical key k:
// k itself and, when k is a number, the number's dataset Key (which may be
// written differently, e.g. with an exponent).
func lookupKeys(k string) []string {
	if f, err := strconv.ParseFloat(k, 64); err == nil && formatNum(f) == k {
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
		return valueOfGo(t)
	}
	var b bytes.Buffer
	_ = json.Compact(&b, raw)
	return dataset.Value{Kind: dataset.Raw, Str: b.String()}
}

// valueOfGo converts a plain Go value (a coerced argument or a generated
// value) into a stored value.
func valueOfGo(x any) dataset.Value {
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

// jsonOf is the JSON text of v, as the overlay stores it.
func jsonOf(v dataset.Value) json.RawMessage {
	switch v.Kind {
	case dataset.Bool:
		return json.RawMessage(strconv.FormatBool(v.Bool))
	case dataset.Number:
		if math.IsInf(v.Num, 0) || math.IsNaN(v.Num) {
			return json.RawMessage("null")
		}
		return json.RawMessage(formatNum(v.Num))
	case dataset.String:
		b, _ := json.Marshal(v.Str)
		return b
	case dataset.Raw:
		return json.RawMessage(v.Str)
	}
	return json.RawMessage("null")
}

// output converts stored value v into the Go value of an attribute of type
// t (docs/using/runtime.md, "The schema a project gets"): Int and Float from numbers and from text that parses
// cleanly as one; String, ID and DateTime from any scalar; Boolean from
// booleans; JSON as raw JSON. Anything else is null.
func output(t model.ScalarType, v dataset.Value) any {
	switch t {
	case model.TypeInt:
		return outputInt(v)
	case model.TypeFloat:
		return outputFloat(v)
	case model.TypeBoolean:
		if v.Kind == dataset.Bool {
			return v.Bool
		}
		return nil
	case model.TypeJSON:
		if v.Kind == dataset.Null {
			return nil
		}
		return jsonOf(v)
	}
	return outputString(v)
}

func outputString(v dataset.Value) any {
	switch v.Kind {
	case dataset.String:
		return v.Str
	case dataset.Number:
		return formatNum(v.Num)
	case dataset.Bool:
		return strconv.FormatBool(v.Bool)
	}
	return nil
}

func outputInt(v dataset.Value) any {
	f, ok := numberOf(v)
	if !ok || f != math.Trunc(f) || f < math.MinInt32 || f > math.MaxInt32 {
		return nil // GraphQL Int is 32-bit; a fraction or a larger number is not an Int
	}
	return int(f)
}

func outputFloat(v dataset.Value) any {
	if f, ok := numberOf(v); ok && !math.IsInf(f, 0) && !math.IsNaN(f) {
		return f
	}
	return nil
}

// numberOf reads a number, or text that is exactly a number ("42", not " 42" or "42abc").
func numberOf(v dataset.Value) (float64, bool) {
	switch v.Kind {
	case dataset.Number:
		return v.Num, true
	case dataset.String:
		f, err := strconv.ParseFloat(v.Str, 64)
		return f, err == nil
	}
	return 0, false
}

// appendOutput appends the JSON of stored value v as an attribute of type t:
// the bytes the executor writes for output(t, v) in a field of the type
// the schema gives t, without boxing the value.
func appendOutput(buf []byte, t model.ScalarType, v dataset.Value) []byte {
	switch t {
	case model.TypeInt:
		f, ok := numberOf(v)
		if !ok || f != math.Trunc(f) || f < math.MinInt32 || f > math.MaxInt32 {
			return append(buf, "null"...)
		}
		return strconv.AppendInt(buf, int64(f), 10)
	case model.TypeFloat:
		if f, ok := numberOf(v); ok && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return exec.AppendFloat(buf, f)
		}
		return append(buf, "null"...)
	case model.TypeBoolean:
		if v.Kind == dataset.Bool {
			return strconv.AppendBool(buf, v.Bool)
		}
		return append(buf, "null"...)
	case model.TypeJSON:
		return appendOutputJSON(buf, v)
	}
	return appendOutputString(buf, v)
}

// appendOutputString appends outputString(v) as a JSON string, or null.
// Numbers and booleans need no escaping.
func appendOutputString(buf []byte, v dataset.Value) []byte {
	switch v.Kind {
	case dataset.String:
		return exec.AppendString(buf, v.Str)
	case dataset.Number:
		return append(appendNum(append(buf, '"'), v.Num), '"')
	case dataset.Bool:
		return append(strconv.AppendBool(append(buf, '"'), v.Bool), '"')
	}
	return append(buf, "null"...)
}

// appendOutputJSON appends jsonOf(v) as a JSON scalar writes a
// json.RawMessage: verbatim, empty as null; a null value is null.
func appendOutputJSON(buf []byte, v dataset.Value) []byte {
	switch v.Kind {
	case dataset.Null:
		return append(buf, "null"...)
	case dataset.Bool:
		return strconv.AppendBool(buf, v.Bool)
	case dataset.Number:
		if math.IsInf(v.Num, 0) || math.IsNaN(v.Num) {
			return append(buf, "null"...)
		}
		return appendNum(buf, v.Num)
	case dataset.Raw:
		if v.Str == "" {
			return append(buf, "null"...)
		}
		return append(buf, v.Str...)
	}
	return append(buf, jsonOf(v)...) // text, escaped as encoding/json does
}
