package graphql

import (
	"context"
	"encoding/json"
	"maps"
	"sort"
	"time"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/graphql/internal/answer"
	"github.com/mockgql/mockgql/model"
)

func mutationResolver(o *operation, do func(*answer.Mutation, *engine.TableView, *operation, *exec.Field) (any, error)) exec.Resolver {
	return func(_ context.Context, f *exec.Field) (any, error) {
		m := f.Parent.(*answer.Mutation)
		tv := m.View().TableView(o.t)
		if tv.NotReady != nil {
			return nil, tv.NotReady
		}
		return do(m, tv, o, f)
	}
}

// create adds a row. An id in the input is used when no row has it (a
// deleted row's id stays taken); otherwise the id is fresh.
func createRow(m *answer.Mutation, tv *engine.TableView, o *operation, f *exec.Field) (any, error) {
	vals, idArg, err := decodeInput(o.t, f.Args["input"])
	if err != nil {
		return nil, err
	}
	seq := int64(1)
	if ts := m.St.Table(o.t.ID); ts != nil {
		seq = ts.MaxSeq() + 1
	}
	id := ""
	switch {
	case idArg != nil && *idArg != "":
		if tv.IDUsed(*idArg) {
			return nil, model.Errorf(model.CodeConflict, "%s: a %s row with id %q exists", o.name, o.t.Name, *idArg)
		}
		id = *idArg
	default:
		id = tv.FreshID(seq)
	}
	m.Apply(engine.Change{TableID: o.t.ID, RowID: id, Created: true, Seq: seq, Values: vals})
	next := m.View().TableView(o.t)
	r, _ := next.CreatedRow(id)
	return &answer.RowObj{TV: next, Row: r}, nil
}

// update merges the input into the row's values.
func updateRow(m *answer.Mutation, tv *engine.TableView, o *operation, f *exec.Field) (any, error) {
	r, err := findRow(tv, o, f)
	if err != nil {
		return nil, err
	}
	vals, idArg, err := decodeInput(o.t, f.Args["input"])
	if err != nil {
		return nil, err
	}
	id := tv.ID(r)
	if idArg != nil && *idArg != id {
		return nil, model.Errorf(model.CodeBadUserInput, "%s: input.id %q differs from the row's id %q; ids cannot be changed", o.name, *idArg, id)
	}
	c := engine.Change{TableID: o.t.ID, RowID: id, Values: map[string]json.RawMessage{}}
	if prev := tv.Record(r); prev != nil {
		c.Created, c.Seq, c.Values = prev.Ch.Created, prev.Ch.Seq, maps.Clone(prev.Ch.Values)
		if c.Values == nil {
			c.Values = map[string]json.RawMessage{}
		}
	}
	maps.Copy(c.Values, vals)
	m.Apply(c)
	next := m.View().TableView(o.t)
	return &answer.RowObj{TV: next, Row: next.ByID(id)}, nil
}

// remove deletes the row and returns it as it was.
func removeRow(m *answer.Mutation, tv *engine.TableView, o *operation, f *exec.Field) (any, error) {
	r, err := findRow(tv, o, f)
	if err != nil {
		return nil, err
	}
	c := engine.Change{TableID: o.t.ID, RowID: tv.ID(r), Deleted: true}
	if prev := tv.Record(r); prev != nil && prev.Ch.Created {
		c.Created, c.Seq = true, prev.Ch.Seq
	}
	m.Apply(c)
	return &answer.RowObj{TV: tv, Row: r}, nil
}

func findRow(tv *engine.TableView, o *operation, f *exec.Field) (int32, error) {
	id, _ := f.Args["id"].(string)
	if r := tv.ByID(id); r >= 0 {
		return r, nil
	}
	return -1, model.Errorf(model.CodeNotFound, "%s: no %s row with id %q", o.name, o.t.Name, id)
}

// decodeInput checks an input object against the attribute types and
// returns its values as JSON by attribute ID, and the id field if given.
func decodeInput(t *engine.Table, input any) (map[string]json.RawMessage, *string, error) {
	in, _ := input.(map[string]any)
	names := make([]string, 0, len(in))
	for k := range in {
		names = append(names, k)
	}
	sort.Strings(names)
	vals := map[string]json.RawMessage{}
	var id *string
	for _, name := range names {
		a := t.ByName[name]
		if a == nil || a.Mapping == model.MappingConstant {
			continue // emptyInputField, or a field the schema does not offer
		}
		if a.IsID {
			if s, ok := in[name].(string); ok {
				id = &s
			}
			continue
		}
		raw, err := inputJSON(t, a, in[name])
		if err != nil {
			return nil, nil, err
		}
		vals[a.ID] = raw
	}
	return vals, id, nil
}

// inputJSON checks one input value against its attribute's type. null
// clears the value.
func inputJSON(t *engine.Table, a *engine.Attr, x any) (json.RawMessage, error) {
	if x == nil {
		return json.RawMessage("null"), nil
	}
	ok := false
	switch a.Type {
	case model.TypeInt:
		_, ok = x.(int)
	case model.TypeFloat:
		ok = engine.ValueOfGo(x).Kind == dataset.Number
	case model.TypeBoolean:
		_, ok = x.(bool)
	case model.TypeJSON:
		ok = true
	case model.TypeDateTime:
		s, isStr := x.(string)
		ok = isStr && validDateTime(s)
	default:
		_, ok = x.(string)
	}
	if !ok {
		shown, _ := json.Marshal(x)
		return nil, model.Errorf(model.CodeBadUserInput, "%sInput.%s: %s is not a valid %s value", t.Name, a.Name, shown, a.Type)
	}
	if a.Type == model.TypeJSON {
		return json.Marshal(x)
	}
	return engine.JSONOf(engine.ValueOfGo(x)), nil
}

// validDateTime accepts RFC 3339 date-times and plain dates (2006-01-02).
func validDateTime(s string) bool {
	if _, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return true
	}
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}
