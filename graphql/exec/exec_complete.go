package exec

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/mockgql/mockgql/model"
)

// complete writes v as a value of type t. It returns false when t is
// non-null and no value could be written, so that the caller unwinds to
// the nearest nullable position; a nullable position swallows that by
// writing null over whatever its value had begun to write.
func (r *run) complete(t *outType, v any, pf *plannedField) bool {
	if isNil(v) {
		if t.nonNull {
			r.fieldError(internalf("Cannot return null for non-nullable field %s.", pf.info.key), pf.ast)
		}
		return r.null(t)
	}
	start := len(r.buf)
	var ok bool
	switch t.kind {
	case kindObject:
		ok = r.object(pf.child, t.obj, v)
	case kindList:
		ok = r.list(t, v, pf)
	case kindAbstract:
		ok = r.abstract(t, v, pf)
	default:
		var err error
		if r.buf, err = appendLeaf(r.buf, t, v); err != nil {
			r.buf = r.buf[:start]
			r.fieldError(err, pf.ast)
		}
		ok = err == nil
	}
	return r.settle(t, start, ok)
}

// list writes the slice v as a list of t.elem.
func (r *run) list(t *outType, v any, pf *plannedField) bool {
	switch items := v.(type) {
	case []any:
		return listOf(r, t, items, pf)
	case []map[string]any:
		return listOf(r, t, items, pf)
	case []string:
		return listOf(r, t, items, pf)
	}
	rv := reflect.ValueOf(v)
	if k := rv.Kind(); k != reflect.Slice && k != reflect.Array {
		r.fieldError(internalf("Expected Iterable, but did not find one for field %s.", pf.info.key), pf.ast)
		return false
	}
	items := make([]any, rv.Len())
	for i := range items {
		items[i] = rv.Index(i).Interface()
	}
	return listOf(r, t, items, pf)
}

// listOf writes items as a list of t.elem.
func listOf[T any](r *run, t *outType, items []T, pf *plannedField) bool {
	return r.listItems(len(items), func(i int) bool { return r.complete(t.elem, items[i], pf) })
}

// abstract writes v as the object type it names (Typer, or a
// "__typename" map member), which must be a possible type of t. An
// abstract type with a single possible type needs no name.
func (r *run) abstract(t *outType, v any, pf *plannedField) bool {
	name := typeName(v)
	if name == "" && len(t.possible) == 1 {
		for only := range t.possible {
			name = only
		}
	}
	obj := r.p.ex.types[name]
	if obj == nil || !t.possible[name] {
		r.fieldError(internalf("Abstract type %q must resolve to an object type at runtime for field %s; got %q.", t.name, pf.info.key, name), pf.ast)
		return false
	}
	return r.object(pf.children[name], obj, v)
}

// typeName returns the object type name v gives itself, or "".
func typeName(v any) string {
	switch x := v.(type) {
	case Typer:
		return x.GraphQLType()
	case map[string]any:
		name, _ := x["__typename"].(string)
		return name
	}
	return ""
}

// isNil reports whether v is null: nil, or a nil pointer, map, func,
// channel or interface. A nil slice is not null but an empty list, as Go
// code means it.
func isNil(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string, bool, int, int64, float64, json.Number, []any, json.RawMessage:
		return false
	case map[string]any:
		return x == nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Func, reflect.Chan, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

// internalf returns an INTERNAL error whose message is shown to the client:
// it describes data that does not fit the schema, which a mock's user
// needs to see to fix the model or the data.
func internalf(format string, args ...any) error {
	return &model.Error{Code: model.CodeInternal, Message: fmt.Sprintf(format, args...)}
}
