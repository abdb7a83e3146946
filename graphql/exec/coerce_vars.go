package exec

import (
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/mockgql/mockgql/model"
)

// coerceVariables coerces the raw variable values of a request (decoded
// JSON) to the variable definitions of op. A variable left out takes its
// declared default, or stays absent; values for undeclared variables are
// ignored. The error is a validation error located at the variable's
// definition, with a message in graphql-js's words.
func coerceVariables(s *ast.Schema, op *ast.OperationDefinition, raw map[string]any) (map[string]any, *gqlerror.Error) {
	if len(op.VariableDefinitions) == 0 {
		return nil, nil
	}
	c := &inputCoercer{schema: s}
	vars := make(map[string]any, len(op.VariableDefinitions))
	for _, d := range op.VariableDefinitions {
		val, present, err := c.variable(d, raw)
		if err != nil {
			return nil, variableError(d, err)
		}
		if present {
			vars[d.Variable] = val
		}
	}
	return vars, nil
}

// variable coerces the value of the variable d in raw.
func (c *inputCoercer) variable(d *ast.VariableDefinition, raw map[string]any) (any, bool, error) {
	v, ok := raw[d.Variable]
	switch {
	case !ok && d.DefaultValue != nil:
		return c.literal(d.Type, d.DefaultValue)
	case !ok && d.Type.NonNull:
		return nil, false, failuref("Variable \"$%s\" of required type %q was not provided.", d.Variable, d.Type.String())
	case !ok:
		return nil, false, nil
	case v == nil && d.Type.NonNull:
		return nil, false, failuref("Variable \"$%s\" of non-null type %q must not be null.", d.Variable, d.Type.String())
	}
	val, err := c.fromJSON(d.Type, v)
	if err != nil {
		return nil, false, failuref("Variable \"$%s\" got invalid value %s; %s", d.Variable, inspect(v), model.ErrorMessage(err))
	}
	return val, true, nil
}

// variableError returns err as a validation error located at d.
func variableError(d *ast.VariableDefinition, err error) *gqlerror.Error {
	e := &gqlerror.Error{Message: err.Error()}
	if d.Position != nil {
		e.Locations = []gqlerror.Location{{Line: d.Position.Line, Column: d.Position.Column}}
	}
	return e
}

// failure is an error whose text is a message meant for the client.
type failure string

func (f failure) Error() string { return string(f) }

// failuref returns a failure with a formatted message.
func failuref(format string, args ...any) error {
	return failure(fmt.Sprintf(format, args...))
}
