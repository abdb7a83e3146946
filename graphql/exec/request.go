package exec

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/mockgql/mockgql/model"
)

// Request is the body of a GraphQL-over-HTTP POST.
//
// Numbers in Variables are json.Number values (DecodeRequest uses
// UseNumber), so that variable coercion can tell 3 from 3.0 and reject an
// Int that does not fit 32 bits instead of losing precision to float64.
type Request struct {
	Query         string         `json:"query"`
	Variables     map[string]any `json:"variables,omitempty"`
	OperationName string         `json:"operationName,omitempty"`
}

// DecodeRequest decodes a JSON request body. Malformed JSON, a query that is
// missing, empty or not a string, variables that are neither an object nor
// null, or an operationName that is neither a string nor null give a
// *model.Error with Code model.CodeBadRequest and a Message saying what is
// wrong. Unknown top-level members (such as extensions) are ignored.
// Numbers inside variables are kept as json.Number.
//
// The usual body is decoded by a scanner of its own (request_scan.go);
// any other body, every malformed one included, by encoding/json.
func DecodeRequest(body []byte) (Request, error) {
	if req, ok := scanRequest(body); ok {
		return req, nil
	}
	return decodeRequestJSON(body)
}

// decodeRequestJSON is DecodeRequest through encoding/json, for any body.
func decodeRequestJSON(body []byte) (Request, error) {
	var raw map[string]json.RawMessage
	if err := decodeJSON(body, &raw); err != nil {
		return Request{}, badRequest("request body is not a JSON object")
	}
	if raw == nil {
		return Request{}, badRequest("request body is not a JSON object")
	}
	var req Request
	if err := decodeMember(raw, "query", &req.Query); err != nil {
		return Request{}, err
	}
	if strings.TrimSpace(req.Query) == "" {
		return Request{}, badRequest("query is missing or empty")
	}
	if err := decodeMember(raw, "operationName", &req.OperationName); err != nil {
		return Request{}, err
	}
	if err := decodeMember(raw, "variables", &req.Variables); err != nil {
		return Request{}, err
	}
	return req, nil
}

// decodeMember decodes raw[name] into dst, which must be a *string or a
// *map[string]any; an absent member or null leaves dst unchanged.
func decodeMember(raw map[string]json.RawMessage, name string, dst any) error {
	v, ok := raw[name]
	if !ok || string(v) == "null" {
		return nil
	}
	if err := decodeJSON(v, dst); err != nil {
		switch dst.(type) {
		case *string:
			return badRequest(name + " must be a string")
		default:
			return badRequest(name + " must be an object")
		}
	}
	return nil
}

// decodeJSON decodes exactly one JSON value from data, keeping numbers as
// json.Number.
func decodeJSON(data []byte, dst any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(dst); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

func badRequest(msg string) *model.Error {
	return &model.Error{Code: model.CodeBadRequest, Message: msg}
}
