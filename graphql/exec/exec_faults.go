package exec

import (
	"context"
	"strings"

	"github.com/mockgql/mockgql/model"
)

// Field errors injected on purpose (the mock runtime's field rules,
// docs/using/faults.md): an execution whose context carries FieldFaults
// asks it about each field before resolving it; a field with a fault is
// not resolved, is null, and gets an error at its path and location,
// whose null propagates as a resolver's error would. Such an execution
// takes the generic path only (no direct writers, no inline map leaves),
// so that every field passes the question.

// FieldFault is the error one field fails with.
type FieldFault struct {
	Code    model.Code
	Message string
	// Extensions are added to the error's extensions beside code; the
	// executor does not change them.
	Extensions map[string]any
}

// FieldFaults decides the injected field errors of one execution.
type FieldFaults interface {
	// FieldFault returns the fault of the field selected on object type
	// typ at a position whose field names (not aliases) from the
	// operation's root type root are names, the field itself last; nil
	// for none. It is called from the execution's goroutine, once per
	// position (each list item's fields again), and must not keep names.
	FieldFault(root, typ string, names []string) *FieldFault
}

type fieldFaultsKey struct{}

// WithFieldFaults returns ctx carrying f for the executions run with it;
// nil f carries none.
func WithFieldFaults(ctx context.Context, f FieldFaults) context.Context {
	if f == nil {
		return ctx
	}
	return context.WithValue(ctx, fieldFaultsKey{}, f)
}

// fieldFaultsOf returns the FieldFaults ctx carries, or nil.
func fieldFaultsOf(ctx context.Context) FieldFaults {
	f, _ := ctx.Value(fieldFaultsKey{}).(FieldFaults)
	return f
}

// injectedFault returns the fault of pf on obj at the current position,
// or nil; names holds the field names down to pf's parent. Introspection
// (fields of __Schema, __Type, …) never fails: a client's tooling reads it.
func (r *run) injectedFault(pf *plannedField, obj *objectType) *FieldFault {
	r.names = append(r.names, pf.info.def.Name)
	if strings.HasPrefix(obj.name, "__") {
		return nil
	}
	return r.faults.FieldFault(r.p.rootType.name, obj.name, r.names)
}

// faultField writes null for pf, failed with fault f, and records its
// error (false: pf is non-null, the caller unwinds).
func (r *run) faultField(pf *plannedField, f *FieldFault) bool {
	e := r.fieldError(&model.Error{Code: f.Code, Message: f.Message}, pf.ast)
	if e != nil {
		for k, v := range f.Extensions {
			if k != "code" {
				e.Extensions[k] = v
			}
		}
	}
	return r.null(pf.info.out)
}
