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
	t     *engine.Table
	obj   *exec.ObjectType
	steps []rowStep
}

// rowStep writes one response key of a row.
type rowStep struct {
	kind    rowStepKind
	keyJSON string
	pf      *exec.PlannedField
	attr    *engine.Attr // stepAttr
	rel     *engine.Rel  // stepRelOne, stepRelMany
	child   *rowPlan     // stepRelOne, stepRelMany: the target rows' plan
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
func compileRowPlan(t *engine.Table, obj *exec.ObjectType, sp *exec.Plan) *rowPlan {
	rp := &rowPlan{t: t, obj: obj, steps: make([]rowStep, len(sp.Fields()))}
	for i, pf := range sp.Fields() {
		rp.steps[i] = compileRowStep(t, pf)
	}
	return rp
}

// compileRowStep compiles the field pf of t's object type; stepGeneric
// when the field is not one the direct writer knows in the expected type.
func compileRowStep(t *engine.Table, pf *exec.PlannedField) rowStep {
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
	if a := t.ByName[name]; a != nil && !a.IsID {
		if out.Kind() == attrKind(a.Type) && !out.NonNull() {
			s.kind, s.attr = stepAttr, a
		}
		return s
	}
	for _, rf := range t.Rels {
		if rf.Name == name {
			return relStep(s, rf, pf)
		}
	}
	return s
}

// relStep compiles a relation field: to-one as a nullable object, to-many
// as a non-null list of non-null objects, as compile_schema.go writes them.
func relStep(s rowStep, rf *engine.Rel, pf *exec.PlannedField) rowStep {
	if pf.Child() == nil {
		return s
	}
	child, _ := pf.Child().Direct().(*rowPlan)
	if child == nil || child.t != rf.To {
		return s
	}
	out := pf.Type()
	switch {
	case !rf.List && out.Kind() == exec.KindObject && !out.NonNull():
		s.kind = stepRelOne
	case rf.List && out.Kind() == exec.KindList && out.Elem().Kind() == exec.KindObject:
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
	if rp == nil || rp.t != ro.tv.Table {
		return false, false
	}
	return rp.write(w, ro.tv, ro.row), true
}

// write writes row of tv as the object of rp; false unwinds (see run.object in package exec).
// Steps that take the resolver get a *rowObj, made on first use.
func (rp *rowPlan) write(w *exec.Writer, tv *engine.TableView, row int32) bool {
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
			buf = appendOutput(buf, s.attr.Type, tv.Value(s.attr, row))
			continue
		case stepAttrSome:
			if v, ok := s.attrSome(tv, row); ok {
				buf = appendOutput(buf, s.attr.Type, v)
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
func (s *rowStep) writeRelOne(w *exec.Writer, tv *engine.TableView, row int32) bool {
	target := tv.View.TableView(s.rel.To)
	to := tv.RelatedOne(s.rel, target, row)
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
func (s *rowStep) writeRelMany(w *exec.Writer, tv *engine.TableView, row int32) bool {
	target, rows := tv.RelatedRows(s.rel, row)
	n := w.PushKey(s.pf.Key())
	start := len(w.Buf())
	ok := w.Settle(s.pf.Type(), start, s.child.writeRows(w, s.pf.Type(), target, engine.RowList{Rows: rows}, 0, len(rows)))
	w.PopKey(n)
	return ok
}

// writeRows writes rows lo..hi-1 of l as the list type t of objects of rp
// (exec's run.list and run.complete of each item).
func (rp *rowPlan) writeRows(w *exec.Writer, t *exec.OutType, tv *engine.TableView, l engine.RowList, lo, hi int) bool {
	return w.ListItems(hi-lo, func(i int) bool {
		start := len(w.Buf())
		return w.Settle(t.Elem(), start, rp.write(w, tv, l.At(lo+i)))
	})
}

// appendRowID appends tv.id(r) as a JSON string without allocating.
func appendRowID(buf []byte, tv *engine.TableView, r int32) []byte {
	switch v, created := tv.StoredID(r); {
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
	tv  *engine.TableView
	row int32
}

// objects returns rows lo..hi-1 of l as row objects, with two allocations.
func objects(tv *engine.TableView, l engine.RowList, lo, hi int) []any {
	objs := make([]rowObj, hi-lo)
	items := make([]any, hi-lo)
	for i := range objs {
		objs[i] = rowObj{tv: tv, row: l.At(lo + i)}
		items[i] = &objs[i]
	}
	return items
}
