package http

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/mockgql/mockgql/model"
)

// input is a field's coerced arguments or an input object (see
// exec.Field.Args): absent optional members are missing from the map,
// members given as null are present with a nil value. The executor has
// validated the types, so the accessors only guard against panics.
type input map[string]any

// str returns the string member key, or "" when absent or null.
func (in input) str(key string) string {
	s, _ := in[key].(string)
	return s
}

// strPtr returns the string member key, or nil when absent or null.
func (in input) strPtr(key string) *string {
	s, ok := in[key].(string)
	if !ok {
		return nil
	}
	return &s
}

// boolean returns the Boolean member key, false when absent or null.
func (in input) boolean(key string) bool {
	b, _ := in[key].(bool)
	return b
}

// boolPtr returns the Boolean member key, or nil when absent or null.
func (in input) boolPtr(key string) *bool {
	b, ok := in[key].(bool)
	if !ok {
		return nil
	}
	return &b
}

// integer returns the Int member key and whether it is set (not null).
func (in input) integer(key string) (int, bool) {
	n, ok := in[key].(int)
	return n, ok
}

// object returns the input object member key, or nil when absent or null.
func (in input) object(key string) input {
	m, _ := in[key].(map[string]any)
	return m
}

// null reports whether member key is present with the value null.
func (in input) null(key string) bool {
	v, ok := in[key]
	return ok && v == nil
}

// json returns member key, a plain JSON value, encoded; nil when absent.
// A member given as null encodes as the JSON value null.
func (in input) json(key string) (json.RawMessage, error) {
	v, ok := in[key]
	if !ok {
		return nil, nil
	}
	return marshalJSON(key, v)
}

// dateTime returns the DateTime member key, zero when absent or null.
func (in input) dateTime(key string) (time.Time, error) {
	v, ok := in[key]
	if !ok || v == nil {
		return time.Time{}, nil
	}
	s, _ := v.(string)
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, model.Errorf(model.CodeBadUserInput, "%s: %#v is not an RFC 3339 date-time", key, v)
	}
	return t, nil
}

// marshalJSON encodes v as compact JSON without escaping <, > and &, so a
// constant reads back as it was written.
func marshalJSON(key string, v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, model.Errorf(model.CodeBadUserInput, "%s: not a JSON value: %v", key, err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
