package graphql

import (
	"strconv"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
)

// rowPlan is a selection of a table's object type compiled for writing rows
// directly: one step per response key. It is immutable and shared.
type rowPlan struct {
	t     *table
	obj   *exec.ObjectType
	steps []rowStep
}

// rowStep writes one response key of a row.
type rowStep struct {
	kind    rowStepKind
	keyJSON string
	pf      *exec.PlannedField
	attr    *attribute // stepAttr
	rel     *relField  // stepRelOne, stepRelMany
	child   *rowPlan   // stepRelOne, stepRelMany: the target rows' plan
	// enum are the values of an enum field, for stepAttrSome; nil for others.
	enum map[string]bool
}

type rowStepKind uint8

const (
	stepGeneric    rowStepKind = iota // the field's resolver
	stepTypename                      // __typename
	stepID                            // the id field
	stepAttr                          // an attribute
	stepRelOne                        // a to-one relation
	stepRelMany                       // a to-many relation
	stepAttrSome                      // a non-null attribute of a contract project (contract_direct.go)
	stepRelOneSome                    // a non-null to-one relation of a contract project
)

// compileRowPlan compiles sp, a selection of t's object type obj.
func compileRowPlan(t *table, obj *exec.ObjectType, sp *exec.Plan) *rowPlan {
	rp := &rowPlan{t: t, obj: obj, steps: make([]rowStep, len(sp.Fields()))}
	for i, pf := range sp.Fields() {
		rp.steps[i] = compileRowStep(t, pf)
	}
	return rp
}

// compileRowStep compiles the field pf of t's object type; stepGeneric
// when the field is not one the direct writer knows in the expected type.
func compileRowStep(t *table, pf *exec.PlannedField) rowStep {
	s := rowStep{keyJSON: pf.KeyJSON(), pf: pf}
	if pf.Type() == nil {
		s.kind = stepTypename
		return s
	}
	name, out := pf.Name(), pf.Type()
	if name == "id" {
		if out.Kind() == exec.KindID && out.NonNull() {
			s.kind = stepID
		}
		return s
	}
	if a := t.byName[name]; a != nil && !a.isID {
		if out.Kind() == attrKind(a.typ) && !out.NonNull() {
			s.kind, s.attr = stepAttr, a
		}
		return s
	}
	for _, rf := range t.rels {
		if rf.name == name {
			return relStep(s, rf, pf)
		}
	}
	return s
}

// relStep compiles a relation field: to-one as a nullable object, to-many
// as a non-null list of non-null objects, as compile_schema.go writes them.
func relStep(s rowStep, rf *relField, pf *exec.PlannedField) rowStep {
	if pf.Child() == nil {
		return s
	}
	child, _ := pf.Child().Direct().(*rowPlan)
	if child == nil || child.t != rf.to {
		return s
	}
	out := pf.Type()
	switch {
	case !rf.list && out.Kind() == exec.KindObject && !out.NonNull():
		s.kind = stepRelOne
	case rf.list && out.Kind() == exec.KindList && out.Elem().Kind() == exec.KindObject:
		s.kind = stepRelMany
	default:
		return s
	}
	s.rel, s.child = rf, child
	return s
}

// WriteDirect makes a row an exec.DirectObject: its plan's compiled form writes it.
func (ro *rowObj) WriteDirect(w *exec.Writer, sp *exec.Plan, _ *exec.ObjectType) (ok, handled bool) {
	rp, _ := sp.Direct().(*rowPlan)
	if rp == nil || rp.t != ro.tv.t {
		return false, false
	}
	return rp.write(w, ro.tv, ro.row), true
}

// write writes row of tv as the object of rp; false unwinds (see run.object in package exec).
// Steps that take the resolver get a *rowObj, made on first use.
func (rp *rowPlan) write(w *exec.Writer, tv *tableView, row int32) bool {
	var parent *rowObj
	buf := append(w.Buf(), '{')
	for i := range rp.steps {
		s := &rp.steps[i]
		if len(buf) > w.Bound() { // the response bounds (exec.Bounds)
			if w.SetBuf(buf); !w.OverBound() {
				return false
			}
		}
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, s.keyJSON...)
		switch s.kind {
		case stepTypename:
			buf = append(buf, rp.obj.NameJSON()...)
			continue
		case stepID:
			buf = appendRowID(buf, tv, row)
			continue
		case stepAttr:
			buf = appendOutput(buf, s.attr.typ, tv.value(s.attr, row))
			continue
		case stepAttrSome:
			if v, ok := s.attrSome(tv, row); ok {
				buf = appendOutput(buf, s.attr.typ, v)
				continue
			}
		}
		w.SetBuf(buf)
		var ok bool
		switch s.kind {
		case stepRelOne:
			ok = s.writeRelOne(w, tv, row)
		case stepRelMany:
			ok = s.writeRelMany(w, tv, row)
		case stepRelOneSome:
			ok = s.writeRelOneSome(w, rp.obj, tv, row)
		default:
			if parent == nil {
				parent = &rowObj{tv: tv, row: row}
			}
			ok = w.WriteField(s.pf, rp.obj, parent)
		}
		if !ok {
			return false
		}
		buf = w.Buf()
	}
	w.SetBuf(append(buf, '}'))
	return true
}

// writeRelOne writes a to-one relation of row: the first related row, or
// null (relResolver and exec's run.complete).
func (s *rowStep) writeRelOne(w *exec.Writer, tv *tableView, row int32) bool {
	target := tv.v.tableView(s.rel.to)
	to := tv.relatedOne(s.rel, target, row)
	if to < 0 {
		w.SetBuf(append(w.Buf(), "null"...))
		return true
	}
	n := w.PushKey(s.pf.Key())
	start := len(w.Buf())
	ok := w.Settle(s.pf.Type(), start, s.child.write(w, target, to))
	w.PopKey(n)
	return ok
}

// writeRelMany writes a to-many relation of row: the related rows.
func (s *rowStep) writeRelMany(w *exec.Writer, tv *tableView, row int32) bool {
	target, rows := tv.relatedRows(s.rel, row)
	n := w.PushKey(s.pf.Key())
	start := len(w.Buf())
	ok := w.Settle(s.pf.Type(), start, s.child.writeRows(w, s.pf.Type(), target, rowList{rows: rows}, 0, len(rows)))
	w.PopKey(n)
	return ok
}

// writeRows writes rows lo..hi-1 of l as the list type t of objects of rp
// (exec's run.list and run.complete of each item).
func (rp *rowPlan) writeRows(w *exec.Writer, t *exec.OutType, tv *tableView, l rowList, lo, hi int) bool {
	return w.ListItems(hi-lo, func(i int) bool {
		start := len(w.Buf())
		return w.Settle(t.Elem(), start, rp.write(w, tv, l.at(lo+i)))
	})
}

// relatedOne returns the row a to-one relation rf of row r finds in target,
// or -1: the first row of tv.related, without allocating for the common
// keys (see firstWhere).
func (tv *tableView) relatedOne(rf *relField, target *tableView, r int32) int32 {
	if rf.from == nil || rf.toAttr == nil {
		return -1
	}
	v := tv.value(rf.from, r)
	if v.Kind == dataset.Number { // engine.CanonKey, in a buffer that stays here
		var scratch [32]byte
		return target.firstWhere(rf.toAttr, string(engine.AppendNum(scratch[:0], v.Num)))
	}
	k, ok := engine.CanonKey(v)
	if !ok {
		return -1
	}
	return target.firstWhere(rf.toAttr, k)
}

// appendRowID appends tv.id(r) as a JSON string without allocating.
func appendRowID(buf []byte, tv *tableView, r int32) []byte {
	switch v, created := tv.storedID(r); {
	case created:
		return exec.AppendString(buf, v.Str)
	case v.Kind == dataset.Null:
		return append(strconv.AppendInt(append(buf, '"'), int64(r)+1, 10), '"')
	case v.Kind == dataset.Number || v.Kind == dataset.Bool:
		return appendOutputString(buf, v)
	default:
		return exec.AppendString(buf, v.Str)
	}
}

// rowObj is one row as resolvers see it (exec.Field.Parent of the type's fields).
type rowObj struct {
	tv  *tableView
	row int32
}

// objects returns rows lo..hi-1 of l as row objects, with two allocations.
func objects(tv *tableView, l rowList, lo, hi int) []any {
	objs := make([]rowObj, hi-lo)
	items := make([]any, hi-lo)
	for i := range objs {
		objs[i] = rowObj{tv: tv, row: l.at(lo + i)}
		items[i] = &objs[i]
	}
	return items
}
