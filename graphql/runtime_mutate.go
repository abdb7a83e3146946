package graphql

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"sort"
	"time"
	"weak"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// mutation is the root value of a running mutation: it stacks the changes
// of each root field on a private copy of the overlay state, so later
// fields (and the returned rows) see earlier ones, while the overlay itself
// stays as it was until the caller applies the changes.
type mutation struct {
	rt   *Runtime
	pool Pool
	ov   *engine.Overlay
	base *engine.OverlayState // the snapshot the mutation started from
	st   *engine.OverlayState // base plus log
	log  []engine.Change
}

// view returns a view of the current state. Only the published snapshot
// may use the shared cache.
func (m *mutation) view() *view {
	return m.rt.newView(m.pool, m.ov, m.st, m.st == m.base)
}

func (m *mutation) apply(c engine.Change) {
	m.st = m.st.With([]engine.Change{c})
	m.log = append(m.log, c)
}

// changes returns one Change per row, the latest, in the order of last change.
func (m *mutation) changes() []engine.Change {
	type key struct{ t, r string }
	last := map[key]int{}
	for i, c := range m.log {
		last[key{c.TableID, c.RowID}] = i
	}
	var out []engine.Change
	for i, c := range m.log {
		if last[key{c.TableID, c.RowID}] == i {
			out = append(out, c)
		}
	}
	return out
}

func mutationResolver(o *operation, do func(*mutation, *tableView, *operation, *exec.Field) (any, error)) exec.Resolver {
	return func(_ context.Context, f *exec.Field) (any, error) {
		m := f.Parent.(*mutation)
		tv := m.view().tableView(o.t)
		if tv.notReady != nil {
			return nil, tv.notReady
		}
		return do(m, tv, o, f)
	}
}

// create adds a row. An id in the input is used when no row has it (a
// deleted row's id stays taken); otherwise the id is fresh.
func (m *mutation) create(tv *tableView, o *operation, f *exec.Field) (any, error) {
	vals, idArg, err := decodeInput(o.t, f.Args["input"])
	if err != nil {
		return nil, err
	}
	seq := int64(1)
	if ts := m.st.Table(o.t.id); ts != nil {
		seq = ts.MaxSeq() + 1
	}
	id := ""
	switch {
	case idArg != nil && *idArg != "":
		if tv.idUsed(*idArg) {
			return nil, model.Errorf(model.CodeConflict, "%s: a %s row with id %q exists", o.name, o.t.name, *idArg)
		}
		id = *idArg
	default:
		id = tv.freshID(seq)
	}
	m.apply(engine.Change{TableID: o.t.id, RowID: id, Created: true, Seq: seq, Values: vals})
	next := m.view().tableView(o.t)
	r, _ := next.ov.createdRow(id)
	return &rowObj{tv: next, row: r}, nil
}

// update merges the input into the row's values.
func (m *mutation) update(tv *tableView, o *operation, f *exec.Field) (any, error) {
	r, err := findRow(tv, o, f)
	if err != nil {
		return nil, err
	}
	vals, idArg, err := decodeInput(o.t, f.Args["input"])
	if err != nil {
		return nil, err
	}
	id := tv.id(r)
	if idArg != nil && *idArg != id {
		return nil, model.Errorf(model.CodeBadUserInput, "%s: input.id %q differs from the row's id %q; ids cannot be changed", o.name, *idArg, id)
	}
	c := engine.Change{TableID: o.t.id, RowID: id, Values: map[string]json.RawMessage{}}
	if prev := tv.ov.record(r); prev != nil {
		c.Created, c.Seq, c.Values = prev.ch.Created, prev.ch.Seq, maps.Clone(prev.ch.Values)
		if c.Values == nil {
			c.Values = map[string]json.RawMessage{}
		}
	}
	maps.Copy(c.Values, vals)
	m.apply(c)
	next := m.view().tableView(o.t)
	return &rowObj{tv: next, row: next.byID(id)}, nil
}

// remove deletes the row and returns it as it was.
func (m *mutation) remove(tv *tableView, o *operation, f *exec.Field) (any, error) {
	r, err := findRow(tv, o, f)
	if err != nil {
		return nil, err
	}
	c := engine.Change{TableID: o.t.id, RowID: tv.id(r), Deleted: true}
	if prev := tv.ov.record(r); prev != nil && prev.ch.Created {
		c.Created, c.Seq = true, prev.ch.Seq
	}
	m.apply(c)
	return &rowObj{tv: tv, row: r}, nil
}

func findRow(tv *tableView, o *operation, f *exec.Field) (int32, error) {
	id, _ := f.Args["id"].(string)
	if r := tv.byID(id); r >= 0 {
		return r, nil
	}
	return -1, model.Errorf(model.CodeNotFound, "%s: no %s row with id %q", o.name, o.t.name, id)
}

// idUsed reports whether a row has id, or had it (tombstones keep ids taken).
func (tv *tableView) idUsed(id string) bool {
	if tv.ov.hasRecord(id) {
		return true
	}
	return len(tv.datasetRowsByID(id)) > 0
}

// freshID chooses the id of a new row: the next integer after the largest
// numeric id when the dataset's ids are integers (or positions), else an
// id derived from the table and seq, shaped like a UUID.
func (tv *tableView) freshID(seq int64) string {
	st := tv.idStats()
	if st.numeric {
		next := st.max + 1
		if tv.ov != nil {
			if f, ok := tv.ov.maxIntegerID(); ok && f >= next {
				next = f + 1
			}
		}
		for tv.idUsed(engine.FormatNum(next)) {
			next++
		}
		return engine.FormatNum(next)
	}
	for attempt := 0; ; attempt++ {
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s:%d:%d", tv.t.id, seq, attempt)))
		h := hex.EncodeToString(sum[:16])
		id := h[0:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:32]
		if !tv.idUsed(id) {
			return id
		}
	}
}

// idStats says whether a dataset's ids are all integers and the largest.
type idStats struct {
	numeric bool
	max     float64
}

func (tv *tableView) idStats() idStats {
	if tv.idPath == "" {
		return idStats{numeric: true, max: float64(tv.n)}
	}
	k := engine.CacheKey{Kind: engine.CacheMaxID, Dataset: weak.Make(tv.ds), Spec: tv.idPath}
	st, _ := engine.GetOrMake(tv.v.cache, k, func() (idStats, int64, error) {
		st := idStats{numeric: true}
		for r := int32(0); r < tv.n && st.numeric; r++ {
			f, ok := integerID(tv.id(r))
			st.numeric, st.max = ok, max(st.max, f)
		}
		return st, 1, nil
	})
	return st
}

// decodeInput checks an input object against the attribute types and
// returns its values as JSON by attribute ID, and the id field if given.
func decodeInput(t *table, input any) (map[string]json.RawMessage, *string, error) {
	in, _ := input.(map[string]any)
	names := make([]string, 0, len(in))
	for k := range in {
		names = append(names, k)
	}
	sort.Strings(names)
	vals := map[string]json.RawMessage{}
	var id *string
	for _, name := range names {
		a := t.byName[name]
		if a == nil || a.mapping == model.MappingConstant {
			continue // emptyInputField, or a field the schema does not offer
		}
		if a.isID {
			if s, ok := in[name].(string); ok {
				id = &s
			}
			continue
		}
		raw, err := inputJSON(t, a, in[name])
		if err != nil {
			return nil, nil, err
		}
		vals[a.id] = raw
	}
	return vals, id, nil
}

// inputJSON checks one input value against its attribute's type. null
// clears the value.
func inputJSON(t *table, a *attribute, x any) (json.RawMessage, error) {
	if x == nil {
		return json.RawMessage("null"), nil
	}
	ok := false
	switch a.typ {
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
		return nil, model.Errorf(model.CodeBadUserInput, "%sInput.%s: %s is not a valid %s value", t.name, a.name, shown, a.typ)
	}
	if a.typ == model.TypeJSON {
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
