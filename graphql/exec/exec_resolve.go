package exec

import (
	"context"
	"fmt"
	"reflect"
)

// LazyField is a map member the default resolver calls with the field's
// coerced arguments, so that a static resolver can return a map whose
// costly or parameterised fields are computed only when selected.
type LazyField = func(ctx context.Context, args map[string]any) (any, error)

// FieldGetter is implemented by values that resolve their own fields under
// the default resolver; ok false means null.
type FieldGetter interface {
	GraphQLField(name string) (any, bool)
}

// Typer is implemented by values of interfaces and unions to name their
// object type.
type Typer interface {
	GraphQLType() string
}

// resolve returns the value of pf on parent, through its resolver or the
// default resolver.
func (r *run) resolve(pf *plannedField, parent any) (any, error) {
	fi := pf.info
	if fi.resolver == nil {
		if m, ok := parent.(map[string]any); ok {
			v := m[fi.def.Name]
			if lazy, ok := v.(LazyField); ok {
				return r.callLazy(pf, lazy)
			}
			return v, nil
		}
	}
	args, extra, err := r.args(pf)
	if err != nil {
		return nil, err
	}
	f := &r.field
	f.Parent, f.Name, f.Args, f.Extra, f.AST, f.Def = parent, fi.def.Name, args, extra, pf.ast, fi.def
	if fi.resolver == nil {
		return r.callDefault(f)
	}
	return r.call(fi, f)
}

// args returns fresh copies of the coerced arguments of pf, so a resolver
// may keep or change them.
func (r *run) args(pf *plannedField) (args, extra map[string]any, err error) {
	if !pf.dynamic {
		return cloneValues(pf.args), cloneValues(pf.extra), pf.argsErr
	}
	def := pf.info.def
	if args, err = r.coercer.args(def.Arguments, pf.ast.Arguments); err != nil {
		return nil, nil, err
	}
	if pf.info.loose {
		extra = r.coercer.extra(def.Arguments, pf.ast.Arguments)
	}
	return args, extra, nil
}

// call runs the resolver of fi, turning a panic into an INTERNAL error.
func (r *run) call(fi *fieldInfo, f *Field) (v any, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = nil, fmt.Errorf("graphql: resolver %s: %w", fi.key, panicError{p})
		}
	}()
	return fi.resolver(r.ctx, f)
}

// callLazy runs a LazyField with the coerced arguments of pf.
func (r *run) callLazy(pf *plannedField, lazy LazyField) (v any, err error) {
	args, _, err := r.args(pf)
	if err != nil {
		return nil, err
	}
	defer func() {
		if p := recover(); p != nil {
			v, err = nil, fmt.Errorf("graphql: lazy field %s: %w", pf.info.key, panicError{p})
		}
	}()
	return lazy(r.ctx, args)
}

// callDefault is the default resolver for a parent that is not a
// map[string]any: a FieldGetter, or a map with string keys of another type.
func (r *run) callDefault(f *Field) (v any, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = nil, fmt.Errorf("graphql: default resolver %s: %w", f.Name, panicError{p})
		}
	}()
	switch p := f.Parent.(type) {
	case FieldGetter:
		v, _ = p.GraphQLField(f.Name)
	default:
		v = mapMember(f.Parent, f.Name)
	}
	if lazy, ok := v.(LazyField); ok {
		return lazy(r.ctx, f.Args)
	}
	return v, nil
}

// mapMember returns parent[name] when parent is a map with string keys.
func mapMember(parent any, name string) any {
	rv := reflect.ValueOf(parent)
	if rv.Kind() != reflect.Map || rv.Type().Key().Kind() != reflect.String {
		return nil
	}
	v := rv.MapIndex(reflect.ValueOf(name).Convert(rv.Type().Key()))
	if !v.IsValid() {
		return nil
	}
	return v.Interface()
}

// panicError carries a recovered panic value. Its code is INTERNAL: users
// see "internal error", while Err of the GraphQL error keeps the cause for
// the log.
type panicError struct{ v any }

func (p panicError) Error() string { return fmt.Sprintf("panic: %v", p.v) }

// cloneValues deep-copies m, whose lists and maps are []any and
// map[string]any (coerced input values); nil stays nil.
func cloneValues(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = cloneValue(v)
	}
	return out
}

func cloneValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		return cloneValues(x)
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = cloneValue(item)
		}
		return out
	}
	return v
}
