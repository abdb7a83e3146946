package answer

import (
	"math"
	"strconv"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// This file shapes stored values as the schema's scalars: the Go values
// resolvers return and the JSON the direct writers append.

// output converts stored value v into the Go value of an attribute of type
// t (docs/using/runtime.md, "The schema a project gets"): Int and Float from numbers and from text that parses
// cleanly as one; String, ID and DateTime from any scalar; Boolean from
// booleans; JSON as raw JSON. Anything else is null.
func Output(t model.ScalarType, v dataset.Value) any {
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
		return engine.JSONOf(v)
	}
	return outputString(v)
}

func outputString(v dataset.Value) any {
	switch v.Kind {
	case dataset.String:
		return v.Str
	case dataset.Number:
		return engine.FormatNum(v.Num)
	case dataset.Bool:
		return strconv.FormatBool(v.Bool)
	}
	return nil
}

func outputInt(v dataset.Value) any {
	f, ok := engine.NumberOf(v)
	if !ok || f != math.Trunc(f) || f < math.MinInt32 || f > math.MaxInt32 {
		return nil // GraphQL Int is 32-bit; a fraction or a larger number is not an Int
	}
	return int(f)
}

func outputFloat(v dataset.Value) any {
	if f, ok := engine.NumberOf(v); ok && !math.IsInf(f, 0) && !math.IsNaN(f) {
		return f
	}
	return nil
}

// AppendOutput appends the JSON of stored value v as an attribute of type t:
// the bytes the executor writes for Output(t, v) in a field of the type
// the schema gives t, without boxing the value.
func AppendOutput(buf []byte, t model.ScalarType, v dataset.Value) []byte {
	switch t {
	case model.TypeInt:
		f, ok := engine.NumberOf(v)
		if !ok || f != math.Trunc(f) || f < math.MinInt32 || f > math.MaxInt32 {
			return append(buf, "null"...)
		}
		return strconv.AppendInt(buf, int64(f), 10)
	case model.TypeFloat:
		if f, ok := engine.NumberOf(v); ok && !math.IsInf(f, 0) && !math.IsNaN(f) {
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
		return append(engine.AppendNum(append(buf, '"'), v.Num), '"')
	case dataset.Bool:
		return append(strconv.AppendBool(append(buf, '"'), v.Bool), '"')
	}
	return append(buf, "null"...)
}

// appendOutputJSON appends engine.JSONOf(v) as a JSON scalar writes a
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
		return engine.AppendNum(buf, v.Num)
	case dataset.Raw:
		if v.Str == "" {
			return append(buf, "null"...)
		}
		return append(buf, v.Str...)
	}
	return append(buf, engine.JSONOf(v)...) // text, escaped as encoding/json does
}
