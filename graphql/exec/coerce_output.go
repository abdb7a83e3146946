package exec

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
)

// appendLeaf appends the JSON of v serialized as the scalar or enum t. v
// is not nil. Common Go types take a fast path; other types (named string
// and number types, pointers) go through reflection.
func appendLeaf(buf []byte, t *outType, v any) ([]byte, error) {
	switch t.kind {
	case kindString:
		return appendStringValue(buf, v)
	case kindInt:
		return appendInt(buf, v)
	case kindFloat:
		f, ok := toFloat(v)
		if !ok {
			return buf, leafError(v, "Float cannot represent non numeric value: %s")
		}
		return appendFloat(buf, f), nil
	case kindBoolean:
		if b, ok := v.(bool); ok {
			return strconv.AppendBool(buf, b), nil
		}
		if rv := deref(v); rv.Kind() == reflect.Bool {
			return strconv.AppendBool(buf, rv.Bool()), nil
		}
		return buf, leafError(v, "Boolean cannot represent a non boolean value: %s")
	case kindID:
		return appendID(buf, v)
	case kindEnum:
		return appendEnum(buf, t, v)
	}
	return appendJSONValue(buf, v)
}

// appendStringValue serializes v as a String: text as is, numbers and
// booleans as their text.
func appendStringValue(buf []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case string:
		return appendString(buf, x), nil
	case json.Number:
		return appendString(buf, string(x)), nil
	}
	rv := deref(v)
	switch rv.Kind() {
	case reflect.String:
		return appendString(buf, rv.String()), nil
	case reflect.Bool:
		return append(strconv.AppendBool(append(buf, '"'), rv.Bool()), '"'), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return append(strconv.AppendInt(append(buf, '"'), rv.Int(), 10), '"'), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return append(strconv.AppendUint(append(buf, '"'), rv.Uint(), 10), '"'), nil
	}
	if f, ok := toFloat(rv.Interface()); ok {
		return append(appendFloat(append(buf, '"'), f), '"'), nil
	}
	return buf, leafError(v, "String cannot represent value: %s")
}

// appendInt serializes v as an Int: an integer, or an integral float, in
// 32 bits.
func appendInt(buf []byte, v any) ([]byte, error) {
	var f float64
	switch x := v.(type) {
	case int:
		if x >= math.MinInt32 && x <= math.MaxInt32 {
			return strconv.AppendInt(buf, int64(x), 10), nil
		}
		f = float64(x)
	default:
		var ok bool
		if f, ok = toFloat(v); !ok {
			f, ok = toFloat(derefAny(v))
		}
		if !ok || f != math.Trunc(f) {
			return buf, leafError(v, "Int cannot represent non-integer value: %s")
		}
	}
	if f < math.MinInt32 || f > math.MaxInt32 {
		return buf, leafError(v, "Int cannot represent non 32-bit signed integer value: %s")
	}
	return strconv.AppendInt(buf, int64(f), 10), nil
}

// appendID serializes v as an ID: a string, or an integer as its text.
func appendID(buf []byte, v any) ([]byte, error) {
	if s, ok := v.(string); ok {
		return appendString(buf, s), nil
	}
	rv := deref(v)
	switch rv.Kind() {
	case reflect.String:
		return appendString(buf, rv.String()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return append(strconv.AppendInt(append(buf, '"'), rv.Int(), 10), '"'), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return append(strconv.AppendUint(append(buf, '"'), rv.Uint(), 10), '"'), nil
	}
	if f, ok := toFloat(rv.Interface()); ok && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return append(strconv.AppendInt(append(buf, '"'), int64(f), 10), '"'), nil
	}
	return buf, leafError(v, "ID cannot represent value: %s")
}

// appendEnum serializes v, a value name of the enum t.
func appendEnum(buf []byte, t *outType, v any) ([]byte, error) {
	s, ok := v.(string)
	if !ok {
		if rv := deref(v); rv.Kind() == reflect.String {
			s, ok = rv.String(), true
		}
	}
	if !ok || !t.enum[s] {
		return buf, leafError(v, "Enum \""+t.name+"\" cannot represent value: %s")
	}
	buf = append(buf, '"')
	buf = append(buf, s...) // enum value names need no escaping
	return append(buf, '"'), nil
}

// deref returns the reflect.Value of v with pointers followed.
func deref(v any) reflect.Value {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	return rv
}

// derefAny returns v with pointers followed.
func derefAny(v any) any {
	rv := deref(v)
	if !rv.IsValid() || !rv.CanInterface() {
		return v
	}
	return rv.Interface()
}

// leafError returns the error of a value that does not serialize; format
// has one %s for the value.
func leafError(v any, format string) error {
	return internalf(format, inspect(derefAny(v)))
}
