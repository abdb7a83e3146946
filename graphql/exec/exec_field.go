package exec

import (
	"context"

	"github.com/vektah/gqlparser/v2/ast"
)

// Resolver resolves one field of an object type. It returns a plain Go value
// that the executor shapes by the field's type (see Executor), or an error
// that becomes a GraphQL error at the field's path with extensions.code
// model.ErrorCode(err). A Resolver must be safe for concurrent use; it may
// be called from many requests at once.
type Resolver func(ctx context.Context, f *Field) (any, error)

// Field is what a resolver sees. It is valid only during the call: the
// executor reuses it for the next resolver, so a resolver must not keep it
// or call its methods after returning. Args and Extra are the resolver's
// own copies.
type Field struct {
	// Parent is the value of the enclosing object; for root fields it is the
	// root value given to Execute.
	Parent any
	// Name is the field name (not the alias).
	Name string
	// Args holds the arguments defined on the field, coerced to Go values
	// (see Executor), with defaults applied; absent optional arguments with
	// no default are omitted. It is nil when no argument has a value.
	Args map[string]any
	// Extra holds arguments not defined on the field, which validation only
	// lets through on fields listed in Executor.LooseArgs, as plain JSON
	// values. It is nil when there are none.
	Extra map[string]any
	// AST is the field as selected in the document.
	AST *ast.Field
	// Def is the field's definition in the schema.
	Def *ast.FieldDefinition

	run *run
}

// Report adds err to the response's errors at this field's path without
// nulling the field: a resolver uses it to return a value together with an
// error (an empty list plus NOT_READY).
func (f *Field) Report(err error) {
	if err == nil || f.run == nil {
		return
	}
	f.run.fieldError(err, f.AST)
}

// Path returns the response path of this field: aliases and list indexes
// from the root down to the field's response key.
func (f *Field) Path() ast.Path {
	if f.run == nil {
		return nil
	}
	return f.run.astPath()
}
