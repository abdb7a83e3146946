package contractrt

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/internal/answer"
	"github.com/mockgql/mockgql/model"
)

// This file answers the conventions of real APIs' mutation payloads
// (docs/using/contract.md, "Mutations"): a list of user errors
// (Shopify's userErrors: [UserError!]!, Saleor's errors: [ProductError!]!)
// that is empty on success and holds the refusal on failure, with the
// path of the argument refused; clientMutationId echoed; and the keys
// inside an input object (input: {id}) that name the rows.

// argValue returns the value of the argument named name in args: a path
// into an input object ("input.id") as contract.InputPath names it.
func argValue(args map[string]any, name string) (any, bool) {
	v, ok := args[name]
	if ok || !strings.Contains(name, ".") {
		return v, ok
	}
	parts := strings.Split(name, ".")
	var cur any = args
	for _, p := range parts {
		m, isMap := cur.(map[string]any)
		if !isMap {
			return nil, false
		}
		if cur, ok = m[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// keyRefusal is a key of the arguments that names no row: NOT_FOUND, with
// the path of the argument that gave it.
type keyRefusal struct {
	err  *model.Error
	path []string
}

func (k *keyRefusal) Error() string { return k.err.Error() }
func (k *keyRefusal) Unwrap() error { return k.err }

// unknownKeys returns a keyRefusal for the first key the arguments of
// rf give (id, ids, input.id) that none of rows has, or nil.
func unknownKeys(rf *contract.RootField, args map[string]any, rows []*answer.RowObj) error {
	have := make(map[string]bool, len(rows))
	for _, ro := range rows {
		have[ro.TV.ID(ro.Row)] = true
	}
	for _, a := range rf.Args {
		v, ok := argValue(args, a.Name)
		if !ok || v == nil || a.Role != contract.RoleKey && a.Role != contract.RoleKeys {
			continue
		}
		keys, list := v.([]any)
		if !list {
			keys = []any{v}
		}
		for i, k := range keys {
			if _, isMap := k.(map[string]any); isMap || have[keyText(k)] {
				continue
			}
			path := strings.Split(a.Name, ".")
			if list {
				path = append(path, fmt.Sprint(i))
			}
			return &keyRefusal{path: path, err: model.Errorf(model.CodeNotFound, "%s: no %s has the id %q", rf.Name, rf.Entity, keyText(k))}
		}
	}
	return nil
}

// errorList returns the field of the payload fd returns that lists user
// errors (a list of objects named errors, userErrors, …), or nil.
func (rt *Runtime) errorList(fd *ast.FieldDefinition) *ast.FieldDefinition {
	d := rt.schema.Types[fd.Type.Name()]
	if d == nil || d.Kind != ast.Object || len(rt.tablesOf(d.Name)) > 0 {
		return nil
	}
	for _, f := range d.Fields {
		if e := rt.schema.Types[f.Type.Name()]; f.Type.Elem != nil && contract.ErrorListField(f.Name) && e != nil && e.Kind == ast.Object {
			return f
		}
	}
	return nil
}

// refusal answers the payload of fd with err in its error list, when it
// has one and err is a refusal of the arguments (BAD_USER_INPUT,
// NOT_FOUND, CONFLICT); false otherwise, and err is the field's error.
func (rt *Runtime) refusal(v *engine.View, rf *contract.RootField, fd *ast.FieldDefinition, args map[string]any, err error, seed uint64) (any, bool) {
	var me *model.Error
	el := rt.errorList(fd)
	if el == nil || !errors.As(err, &me) || me.Code != model.CodeBadUserInput && me.Code != model.CodeNotFound && me.Code != model.CodeConflict {
		return nil, false
	}
	var path []string
	if kr := (*keyRefusal)(nil); errors.As(err, &kr) {
		path = kr.path
	}
	d := rt.schema.Types[fd.Type.Name()]
	out := echoClientID(rt.fill(v, d, mutated(nil), seed, 0), args)
	out[el.Name] = []any{rt.userError(rt.schema.Types[el.Type.Name()], me, path)}
	return out, true
}

// userError is the error object of the type d for me: its message, the
// path of the argument refused (field: [String!] or String) and a code
// (an enum's value that names me's code, else its first value).
func (rt *Runtime) userError(d *ast.Definition, me *model.Error, path []string) map[string]any {
	m := map[string]any{"__typename": d.Name}
	for _, f := range d.Fields {
		t := rt.schema.Types[f.Type.Name()]
		switch n := fold(f.Name); {
		case n == "message" || n == "description":
			m[f.Name] = me.Message
		case (n == "field" || n == "path") && f.Type.Elem != nil:
			items := make([]any, len(path))
			for i, p := range path {
				items[i] = p
			}
			m[f.Name] = items
		case n == "field" || n == "path":
			m[f.Name] = nil
			if len(path) > 0 {
				m[f.Name] = path[len(path)-1]
			}
		case n == "code" && t != nil && t.Kind == ast.Enum:
			m[f.Name] = enumCode(t, string(me.Code))
		case n == "code":
			m[f.Name] = string(me.Code)
		default:
			m[f.Name] = nil
		}
	}
	return m
}

// enumCode is the value of the enum t that names code (NOT_FOUND; INVALID
// for a BAD_USER_INPUT), else its first.
func enumCode(t *ast.Definition, code string) string {
	want := []string{code}
	if code == string(model.CodeNotFound) {
		want = append(want, "INVALID", "INVALID_MERCHANDISE_LINE", "DOES_NOT_EXIST", "NOT_EXIST")
	}
	if code == string(model.CodeBadUserInput) {
		want = append(want, "INVALID", "BAD_USER_INPUT", "GRAPHQL_ERROR")
	}
	if code == string(model.CodeConflict) {
		want = append(want, "UNIQUE", "TAKEN", "DUPLICATE")
	}
	for _, w := range want {
		if v := t.EnumValues.ForName(w); v != nil {
			return v.Name
		}
	}
	if len(t.EnumValues) == 0 {
		return ""
	}
	return t.EnumValues[0].Name
}

// echoClientID sets the payload's clientMutationId to the one the
// arguments give (at the top or inside an input object), as Relay's
// mutations do.
func echoClientID(m map[string]any, args map[string]any) map[string]any {
	if _, has := m["clientMutationId"]; !has {
		return m
	}
	id, ok := args["clientMutationId"]
	for _, name := range sortedKeys(args) {
		if in, isMap := args[name].(map[string]any); isMap && !ok {
			id, ok = in["clientMutationId"]
		}
	}
	m["clientMutationId"] = id
	return m
}
