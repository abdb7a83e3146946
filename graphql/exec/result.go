package exec

import (
	"encoding/json"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/mockgql/mockgql/model"
)

// Result is the outcome of a GraphQL request. The HTTP layer owns a Result
// returned by Execute; one returned by Prepare may be shared and must not
// be modified.
type Result struct {
	// Data is the JSON of the data member: nil when the operation did not
	// run, the literal null when null propagation reached the root.
	Data json.RawMessage
	// Errors are the GraphQL errors, each with extensions.code. Err of a
	// field error keeps the cause, for the log; it is never sent.
	Errors []*gqlerror.Error
	// Refused reports that the document did not parse or validate: the HTTP
	// layer answers 400 "Bad Request" carrying Errors and no data.
	Refused bool
	// Code is model.CodeParseFailed or model.CodeValidateFailed when Refused.
	Code model.Code
	// Held is the bytes of the Budget the data still holds (ExecuteHeld),
	// to give back with Budget.Give once the answer has been written.
	Held int64
}

// MarshalJSON writes {"data":...,"errors":[...]}: errors left out when
// empty, data when r is refused or did not run. Each error has message,
// and locations, path and extensions (with code) when set.
func (r *Result) MarshalJSON() ([]byte, error) {
	return r.AppendJSON(make([]byte, 0, len(r.Data)+64+128*len(r.Errors))), nil
}

// AppendJSON appends the bytes MarshalJSON returns to dst and returns the
// extended slice.
func (r *Result) AppendJSON(dst []byte) []byte {
	if n := len(r.Data) + 16; len(r.Errors) == 0 && cap(dst)-len(dst) < n {
		dst = append(make([]byte, 0, len(dst)+n), dst...) // one allocation of the right size
	}
	dst = append(dst, '{')
	sep := false
	if !r.Refused && r.Data != nil {
		dst = append(dst, `"data":`...)
		dst = append(dst, r.Data...)
		sep = true
	}
	if len(r.Errors) > 0 {
		if sep {
			dst = append(dst, ',')
		}
		dst = append(dst, `"errors":[`...)
		for i, e := range r.Errors {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendError(dst, e)
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// appendError appends one GraphQL error as JSON.
func appendError(dst []byte, e *gqlerror.Error) []byte {
	dst = append(dst, `{"message":`...)
	dst = appendString(dst, e.Message)
	if len(e.Locations) > 0 {
		dst = append(dst, `,"locations":[`...)
		for i, l := range e.Locations {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"line":`...)
			dst = strconv.AppendInt(dst, int64(l.Line), 10)
			dst = append(dst, `,"column":`...)
			dst = strconv.AppendInt(dst, int64(l.Column), 10)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	if len(e.Path) > 0 {
		dst = append(dst, `,"path":`...)
		dst = appendPath(dst, e.Path)
	}
	if len(e.Extensions) > 0 {
		dst = append(dst, `,"extensions":`...)
		start := len(dst)
		var err error
		if dst, err = appendJSONValue(dst, e.Extensions); err != nil {
			dst = append(dst[:start], "{}"...)
		}
	}
	return append(dst, '}')
}

// appendPath appends a response path as a JSON array.
func appendPath(dst []byte, path ast.Path) []byte {
	dst = append(dst, '[')
	for i, el := range path {
		if i > 0 {
			dst = append(dst, ',')
		}
		switch el := el.(type) {
		case ast.PathIndex:
			dst = strconv.AppendInt(dst, int64(el), 10)
		case ast.PathName:
			dst = appendString(dst, string(el))
		}
	}
	return append(dst, ']')
}
