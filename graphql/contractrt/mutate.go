package contractrt

import (
	"cmp"
	"context"
	"encoding/json"
	"maps"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/graphql/internal/answer"
	"github.com/mockgql/mockgql/model"
)

// This file writes the mutations of a contract project through the
// overlay, as table projects' mutations do (docs/using/contract.md,
// "Mutations"): create/insert/add, update, upsert and delete/remove by
// name and input shape, Hasura's insert_x_one(object:), insert_x(objects:),
// update_x_by_pk(pk_columns:, _set:), update_x(where:, _set:),
// delete_x_by_pk and delete_x(where:), Prisma's createOneX(data:),
// updateOneX(where:, data:), upsertOneX(where:, create:, update:) and
// deleteOneX(where:). Other mutations answer a generated payload and
// change nothing.

// maxMutationRows bounds the rows one root field of a mutation writes
// (insert_x(objects:), update_x(where:), delete_x(where:)).
const maxMutationRows = 1000

// mutationResolver answers a root field of the mutation type by its shape.
// A refusal of the arguments (an unknown key, a conflict, a bad value) is
// the payload's error list when it has one (userErrors, errors), as the
// APIs that have one answer, and changes nothing.
func (rt *Runtime) mutationResolver(rf *contract.RootField, fd *ast.FieldDefinition) exec.Resolver {
	return func(ctx context.Context, f *exec.Field) (any, error) {
		m := f.Parent.(*answer.Mutation)
		seed := argsSeed(rt.seed, rf.Name, f.Args)
		t := rt.tables[rf.Entity]
		if t == nil || rf.Shape == contract.ShapeGenerated {
			return rt.succeeded(fd, rt.genValue(m.View(), rt.schema.Mutation.Name, fd.Name, fd.Type, seed, 0)), nil
		}
		if tv := m.View().TableView(t); tv.NotReady != nil {
			return nil, tv.NotReady
		}
		st, logLen := m.St, len(m.Log)
		rows, err := rt.write(ctx, m, t, rf, fd, f.Args)
		if err == nil && rf.Shape != contract.ShapeCreate && rf.Shape != contract.ShapeUpsert && rt.errorList(fd) != nil {
			err = unknownKeys(rf, f.Args, rows)
		}
		if err != nil {
			m.St, m.Log = st, m.Log[:logLen] // a refused field writes nothing
			if p, ok := rt.refusal(m.View(), rf, fd, f.Args, err, seed); ok {
				return p, nil
			}
			return nil, err
		}
		return rt.payload(m.View(), rf, fd, f.Args, rows, seed)
	}
}

// succeeded empties the error and warning lists of a generated payload: a
// mutation that changes nothing refused nothing either, and a client that
// checks userErrors.length shows no error.
func (rt *Runtime) succeeded(fd *ast.FieldDefinition, v any) any {
	p, ok := v.(map[string]any)
	d := rt.schema.Types[fd.Type.Name()]
	if !ok || d == nil {
		return v
	}
	for _, f := range d.Fields {
		if _, set := p[f.Name]; set && f.Type.Elem != nil && (contract.ErrorListField(f.Name) || contract.WarningListField(f.Name)) {
			p[f.Name] = []any{}
		}
	}
	return v
}

// write makes the rows' changes of one mutation field and returns the
// rows written (deleted rows as they were).
func (rt *Runtime) write(ctx context.Context, m *answer.Mutation, t *engine.Table, rf *contract.RootField, fd *ast.FieldDefinition, args map[string]any) ([]*answer.RowObj, error) {
	inputs := mutationInputs(rf, args)
	if rf.Flag != "" {
		inputs = []map[string]any{{rf.Flag: rf.On}}
	}
	if rf.Link != "" && !rf.On {
		inputs = []map[string]any{{rf.Link: nil}}
	}
	if rf.Shape == contract.ShapeCreate {
		return rt.createAll(m, t, inputs)
	}
	found, err := rt.targets(ctx, m, t, rf, args)
	if err != nil {
		return nil, err
	}

	switch rf.Shape {
	case contract.ShapeDelete:
		return removeRows(m, found), nil
	case contract.ShapeUpsert:
		if len(found) == 0 {
			create := inputs
			if c, ok := args["create"].(map[string]any); ok {
				create = []map[string]any{c}
			}
			return rt.createAll(m, t, create)
		}
		if u, ok := args["update"].(map[string]any); ok {
			inputs = []map[string]any{u}
		}
	}
	if err := rt.writeParts(m, rf, fd, found, args); err != nil { // before the rows, which then see their parts
		return nil, err
	}
	rows, err := rt.updateRows(m, t, found, merged(inputs), increments(rf, args))
	if err == nil && rf.Link != "" && !rf.On {
		// removeItemFromPlaylist answers the rows as they were, so that
		// its payload's playlist is the one they left
		return found, nil
	}
	return rows, err
}

// mutationInputs returns the values a mutation gives: its input objects
// (input, data, object, _set; each item of objects) and its flat
// arguments that name fields, which each input object holds too
// (cartLinesAdd(cartId:, lines:) sets each line's cart).
func mutationInputs(rf *contract.RootField, args map[string]any) []map[string]any {
	var out []map[string]any
	flat := map[string]any{}
	for _, a := range rf.Args {
		v, ok := argValue(args, a.Name)
		if !ok || a.Name == "create" || a.Name == "update" {
			continue
		}
		if a.Role == contract.RoleEq && rf.Shape == contract.ShapeCreate && a.Field != "" {
			flat[a.Field] = v // the relation's key a create names beside its input
			continue
		}
		if a.Role != contract.RoleInput || a.Op == "inc" {
			continue
		}
		switch x := v.(type) {
		case map[string]any:
			out = append(out, x)
		case []any:
			for _, item := range x {
				if m, ok := item.(map[string]any); ok {
					out = append(out, m)
				}
			}
		default:
			flat[cmp.Or(a.Field, a.Name[strings.LastIndex(a.Name, ".")+1:])] = v
		}
	}
	if len(out) == 0 {
		return append(out, flat)
	}
	if len(flat) > 0 {
		for i, in := range out {
			m := maps.Clone(flat)
			maps.Copy(m, in)
			out[i] = m
		}
	}
	return out
}

// merged is the union of the inputs, later ones winning.
func merged(inputs []map[string]any) map[string]any {
	out := map[string]any{}
	for _, in := range inputs {
		maps.Copy(out, in)
	}
	return out
}

// targets returns the rows an update, upsert or delete names by its key,
// filter or equality arguments.
func (rt *Runtime) targets(ctx context.Context, m *answer.Mutation, t *engine.Table, rf *contract.RootField, args map[string]any) ([]*answer.RowObj, error) {
	sel := &contract.RootField{Name: rf.Name, Entity: rf.Entity}
	for _, a := range rf.Args {
		if _, given := argValue(args, a.Name); !given && strings.Contains(a.Name, ".") {
			continue // a key inside an input object the request leaves out
		}
		switch a.Role {
		case contract.RoleKey, contract.RoleKeys, contract.RoleFilter, contract.RoleEq, contract.RoleRange, contract.RoleIn:
			sel.Args = append(sel.Args, a)
		}
	}
	if len(sel.Args) == 0 {
		return nil, model.Errorf(model.CodeBadUserInput, "%s: no argument names the rows to change", rf.Name)
	}
	rows, err := rt.selectRows(ctx, m.View(), sel, args)
	if err != nil {
		return nil, err
	}
	if rows.n > maxMutationRows {
		return nil, model.Errorf(model.CodeLimitReached, "%s would change %d rows; one mutation field changes at most %d", rf.Name, rows.n, maxMutationRows)
	}
	out := make([]*answer.RowObj, rows.n)
	for i := range out {
		out[i] = rows.at(i)
	}
	return out, nil
}

// createAll creates a row per input.
func (rt *Runtime) createAll(m *answer.Mutation, t *engine.Table, inputs []map[string]any) ([]*answer.RowObj, error) {
	if len(inputs) > maxMutationRows {
		return nil, model.Errorf(model.CodeLimitReached, "one mutation field creates at most %d rows", maxMutationRows)
	}
	var out []*answer.RowObj
	for _, in := range inputs {
		ro, err := rt.createRow(m, t, in)
		if err != nil {
			return nil, err
		}
		out = append(out, ro)
	}
	return out, nil
}

// createRow adds a row with the values of in; an id (key) given is used
// when no row has it, else the id is fresh.
func (rt *Runtime) createRow(m *answer.Mutation, t *engine.Table, in map[string]any) (*answer.RowObj, error) {
	tv := m.View().TableView(t)
	vals, id, err := rowValues(tv, in)
	if err != nil {
		return nil, err
	}
	seq := int64(1)
	if ts := m.St.Table(t.ID); ts != nil {
		seq = ts.MaxSeq() + 1
	}
	switch {
	case id != "" && tv.IDUsed(id):
		return nil, model.Errorf(model.CodeConflict, "a %s row with id %q exists", t.Name, id)
	case id == "":
		id = tv.FreshID(seq)
	}
	if hk := t.ByName[contract.HiddenKey]; hk != nil {
		vals[hk.ID], _ = json.Marshal(id)
	}
	m.Apply(engine.Change{TableID: t.ID, RowID: id, Created: true, Seq: seq, Values: vals})
	next := m.View().TableView(t)
	r, _ := next.CreatedRow(id)
	return &answer.RowObj{TV: next, Row: r}, nil
}

// updateRows merges in into each row's values, and changes its numbers
// by inc and by the arithmetic in holds (arithmetic).
func (rt *Runtime) updateRows(m *answer.Mutation, t *engine.Table, rows []*answer.RowObj, in map[string]any, inc []numOp) ([]*answer.RowObj, error) {
	in, ops := arithmetic(t, in)
	ops = append(ops, inc...)
	var out []*answer.RowObj
	for _, ro := range rows {
		vals, idArg, err := rowValues(ro.TV, in)
		if err != nil {
			return nil, err
		}
		if err := applyOps(ro, ops, vals); err != nil {
			return nil, err
		}
		id := ro.TV.ID(ro.Row)
		if idArg != "" && idArg != id {
			return nil, model.Errorf(model.CodeBadUserInput, "the id %q differs from the row's id %q; ids cannot be changed", idArg, id)
		}
		c := engine.Change{TableID: t.ID, RowID: id, Values: map[string]json.RawMessage{}}
		if prev := ro.TV.Record(ro.Row); prev != nil {
			c.Created, c.Seq, c.Values = prev.Ch.Created, prev.Ch.Seq, maps.Clone(prev.Ch.Values)
			if c.Values == nil {
				c.Values = map[string]json.RawMessage{}
			}
		}
		maps.Copy(c.Values, vals)
		m.Apply(c)
		next := m.View().TableView(t)
		out = append(out, &answer.RowObj{TV: next, Row: next.ByID(id)})
	}
	return out, nil
}

// removeRows deletes the rows and returns them as they were.
func removeRows(m *answer.Mutation, rows []*answer.RowObj) []*answer.RowObj {
	for _, ro := range rows {
		c := engine.Change{TableID: ro.TV.Table.ID, RowID: ro.TV.ID(ro.Row), Deleted: true}
		if prev := ro.TV.Record(ro.Row); prev != nil && prev.Ch.Created {
			c.Created, c.Seq = true, prev.Ch.Seq
		}
		m.Apply(c)
	}
	return rows
}

// rowValues returns the values of in by attribute ID and the id it gives:
// fields by name (folded: author_id is authorId), and to-one relations
// by the key they connect to (Prisma's author: {connect: {id}}, or a key).
func rowValues(tv *engine.TableView, in map[string]any) (map[string]json.RawMessage, string, error) {
	vals := map[string]json.RawMessage{}
	id := ""
	for _, k := range sortedKeys(in) {
		x := in[k]
		a := tv.Table.Field(k)
		if a == nil {
			a = foldedAttr(tv.Table, k)
		}
		if a == nil {
			if fk, key := connected(tv.Table, k, x); fk != nil {
				a, x = fk, key
			}
		}
		if a == nil {
			a = foreignKeyNamed(tv.Table, k)
		}
		if a == nil {
			a = hiddenLinkNamed(tv.Table, k)
		}
		switch {
		case a == nil || a.Mapping == model.MappingConstant:
			continue
		case a.IsID:
			id = keyText(x)
			continue
		}
		raw, err := json.Marshal(x)
		if err != nil {
			return nil, "", model.Errorf(model.CodeBadUserInput, "%s: the value of %s is not JSON", tv.Table.Name, k)
		}
		vals[a.ID] = raw
	}
	return vals, id, nil
}

// connected returns the foreign key attribute of the to-one relation
// field name of t and the key x connects it to, or nil.
func connected(t *engine.Table, name string, x any) (*engine.Attr, any) {
	for _, rf := range t.Rels {
		if rf.Name != name || rf.List || rf.From == nil || rf.From.IsID {
			continue
		}
		if m, ok := x.(map[string]any); ok {
			if c, ok := m["connect"].(map[string]any); ok {
				return rf.From, firstValue(c)
			}
			return rf.From, firstValue(m)
		}
		return rf.From, x
	}
	return nil, nil
}

// foreignKeyNamed returns the foreign key attribute of the to-one relation
// that name names with an id suffix (folderId, folder_id: Document.folder),
// or nil.
// hiddenLinkNamed returns the hidden link column (contract.HiddenKey) of
// the to-one field that name names as <field>Id — Shopify's
// CartLineInput.merchandiseId for CartLine.merchandise, a union — or nil.
func hiddenLinkNamed(t *engine.Table, name string) *engine.Attr {
	base, ok := strings.CutSuffix(name, "Id")
	if !ok {
		return nil
	}
	return t.ByName[contract.HiddenKey+base]
}

// foreignKeyNamed returns the foreign key of the to-one relation of t that
// name names as <relation>Id or <relation>Key, or nil.
func foreignKeyNamed(t *engine.Table, name string) *engine.Attr {
	n := fold(name)
	for _, rf := range t.Rels {
		if !rf.List && rf.From != nil && !rf.From.IsID && (n == fold(rf.Name)+"id" || n == fold(rf.Name)+"key") {
			return rf.From
		}
	}
	return nil
}

// keyText is the text of a key value.
func keyText(x any) string {
	switch v := x.(type) {
	case string:
		return v
	case nil:
		return ""
	}
	b, _ := json.Marshal(x)
	return string(b)
}

// payload answers what a mutation field returns for the rows it wrote:
// the row, a list of rows, a payload object around them ({ book, errors },
// { affected_rows, returning }), a count, a flag or an id.
func (rt *Runtime) payload(v *engine.View, rf *contract.RootField, fd *ast.FieldDefinition, args map[string]any, rows []*answer.RowObj, seed uint64) (any, error) {
	d := rt.schema.Types[fd.Type.Name()]
	w := mutated(rows)
	switch {
	case len(rt.tablesOf(d.Name)) > 0 && fd.Type.Elem != nil:
		return w.rows.objects(0, w.rows.n), nil
	case len(rt.tablesOf(d.Name)) > 0:
		if len(rows) == 0 {
			if fd.Type.NonNull {
				return nil, model.Errorf(model.CodeNotFound, "%s: no %s row matches the arguments", rf.Name, rf.Entity)
			}
			return nil, nil
		}
		return rows[0], nil
	case d.Kind == ast.Object:
		return echoClientID(rt.fill(v, d, w, seed, 0), args), nil
	case d.Name == "Boolean":
		return len(rows) > 0, nil
	case d.Name == "Int":
		return len(rows), nil
	case d.Name == "ID" && len(rows) > 0:
		return rows[0].TV.ID(rows[0].Row), nil
	}
	return rt.genValue(v, rt.schema.Mutation.Name, fd.Name, fd.Type, seed, 0), nil
}
