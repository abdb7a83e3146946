package exec

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/mockgql/mockgql/model"
)

// coerceScalarJSON coerces a JSON value to the scalar named name.
func coerceScalarJSON(name string, v any) (any, error) {
	switch name {
	case "Int":
		return coerceInt(v)
	case "Float":
		f, ok := toFloat(v)
		if !ok {
			return nil, inputErrorf("Float cannot represent non numeric value: %s", inspect(v))
		}
		return f, nil
	case "String":
		if s, ok := v.(string); ok {
			return s, nil
		}
		return nil, inputErrorf("String cannot represent a non string value: %s", inspect(v))
	case "Boolean":
		if b, ok := v.(bool); ok {
			return b, nil
		}
		return nil, inputErrorf("Boolean cannot represent a non boolean value: %s", inspect(v))
	case "ID":
		return coerceID(v)
	}
	return plainJSON(v), nil
}

// coerceInt coerces a JSON number to a 32-bit int.
func coerceInt(v any) (any, error) {
	f, ok := toFloat(v)
	if !ok || f != math.Trunc(f) {
		return nil, inputErrorf("Int cannot represent non-integer value: %s", inspect(v))
	}
	if f < math.MinInt32 || f > math.MaxInt32 {
		return nil, inputErrorf("Int cannot represent non 32-bit signed integer value: %s", inspect(v))
	}
	return int(f), nil
}

// coerceID coerces a string or an integer to an ID.
func coerceID(v any) (any, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return strconv.FormatInt(i, 10), nil
		}
	default:
		if f, ok := toFloat(v); ok && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return strconv.FormatInt(int64(f), 10), nil
		}
	}
	return nil, inputErrorf("ID cannot represent value: %s", inspect(v))
}

// toFloat returns v as a float64 if it is a number: json.Number, or any Go
// integer or float type.
func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		return f, err == nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(rv.Uint()), true
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		return f, !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	return 0, false
}

// plainJSON returns v with every number as float64, recursively: the form
// custom scalars take in Field.Args and Field.Extra.
func plainJSON(v any) any {
	switch x := v.(type) {
	case nil, bool, string, float64:
		return v
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = plainJSON(item)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, item := range x {
			out[k] = plainJSON(item)
		}
		return out
	}
	if f, ok := toFloat(v); ok {
		return f
	}
	return v
}

// inspect renders v for an error message, as JSON when it can.
func inspect(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// inputErrorf returns a BAD_USER_INPUT error. Its messages follow
// graphql-js, which clients and their users know.
func inputErrorf(format string, args ...any) error {
	return &model.Error{Code: model.CodeBadUserInput, Message: fmt.Sprintf(format, args...)}
}
