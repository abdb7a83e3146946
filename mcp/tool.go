package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mockgql/mockgql/model"
)

// outcome is what a tool says besides its structured result: a short text
// a model can read, and whether the call failed part-way (the result then
// says what was done).
type outcome struct {
	text   string
	failed bool
}

// toolFunc is a tool's body. A refusal is an error (a *model.Error); it
// becomes a tool error (isError: true) whose text starts with its code.
type toolFunc[In, Out any] func(ctx context.Context, in In) (Out, outcome, error)

// addTool registers a tool with schemas derived from In and Out (see
// schemaFor), a panic guard, the result bound and the error translation.
func addTool[In, Out any](s *Server, t *sdk.Tool, f toolFunc[In, Out]) {
	t.InputSchema, t.OutputSchema = schemaFor[In](), schemaFor[Out]()
	sdk.AddTool(s.mcp, t, func(ctx context.Context, _ *sdk.CallToolRequest, in In) (res *sdk.CallToolResult, out Out, err error) {
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("mcp tool panicked", "tool", t.Name, "panic", p, "stack", string(debug.Stack()))
				var zero Out
				res, out, err = nil, zero, errors.New("INTERNAL: internal error")
			}
		}()
		ctx, cancel := context.WithTimeout(ctx, s.cfg.CallTimeout)
		defer cancel()
		out, o, err := f(ctx, in)
		if err != nil {
			return nil, out, s.toolError(t.Name, err)
		}
		body, err := json.Marshal(out)
		if err != nil {
			return nil, out, s.toolError(t.Name, err)
		}
		if len(body) > s.cfg.MaxResultBytes {
			return nil, out, s.toolError(t.Name, model.Errorf(model.CodeLimitReached,
				"the result is %d bytes, over this server's %d-byte limit a tool result; ask for less (a smaller pageSize, one importCode, samples: 0)", len(body), s.cfg.MaxResultBytes))
		}
		// Clients that read only content get the JSON too (the spec's advice
		// for structured results), after the short text.
		return &sdk.CallToolResult{IsError: o.failed, Content: []sdk.Content{&sdk.TextContent{Text: o.text}, &sdk.TextContent{Text: string(body)}}}, out, nil
	})
}

// toolError turns a use case's refusal into a tool error: "CODE: message".
// Anything that is not a *model.Error is logged and shown as INTERNAL.
func (s *Server) toolError(tool string, err error) error {
	e := model.AsError(err)
	if e == nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return errors.New("UNAVAILABLE: the call was cut short (deadline or cancellation); try again")
		}
		s.log.Error("mcp tool failed", "tool", tool, "err", err)
		return errors.New("INTERNAL: internal error; try again")
	}
	msg := e.Error()
	if e.RetryAfter > 0 {
		msg += fmt.Sprintf(" (retry after %d s)", e.RetryAfter)
	}
	return errors.New(msg)
}

// enumTypes are the string types whose JSON Schema lists their values.
var enumTypes = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[scalarType]():      enum("ID", "STRING", "INT", "FLOAT", "BOOLEAN", "DATETIME", "JSON"),
	reflect.TypeFor[mappingType]():     enum("SOURCE", "CONSTANT", "GENERATED", "COMPUTED", "NONE"),
	reflect.TypeFor[cardinality]():     enum("ONE_TO_MANY", "ONE_TO_ONE"),
	reflect.TypeFor[direction]():       enum("SOURCE_TO_TARGET", "BIDIRECTIONAL"),
	reflect.TypeFor[operator]():        enum("eq", "neq", "gt", "gte", "lt", "lte", "in", "like"),
	reflect.TypeFor[sortDirection]():   enum("ASC", "DESC"),
	reflect.TypeFor[json.RawMessage](): {Description: "any JSON value"},
}

// The enum types of the tools' inputs.
type (
	scalarType    string
	mappingType   string
	cardinality   string
	direction     string
	operator      string
	sortDirection string
)

func enum(values ...string) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "string"}
	for _, v := range values {
		s.Enum = append(s.Enum, v)
	}
	return s
}

// schemaFor is T's JSON Schema: descriptions from the jsonschema tags,
// required from the json tags (omitempty = optional), enums listed.
func schemaFor[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: enumTypes})
	if err != nil {
		panic(fmt.Sprintf("mcp: schema of %T: %v", *new(T), err))
	}
	return s
}
