package graphql

import (
	"github.com/mockgql/mockgql/model/dataset"
)

// rowPlan is a selection of a table's object type compiled for writing rows
// directly: one step per response key. It is immutable and shared.
type rowPlan struct {
	t     *table
	obj   *objectType
	steps []rowStep
}

// rowStep writes one response key of a row.
type rowStep struct {
	kind    rowStepKind
	keyJSON string
	pf      *plannedField
	attr    *attribute // stepAttr
	rel     *relField  // stepRelOne, stepRelMany
	child   *rowPlan   // stepRelOne, stepRelMany: the target rows' plan
}

type rowStepKind uint8

const (
	stepGeneric  rowStepKind = iota // the field's resolver
	stepTypename                    // __typename
	stepID                          // the id field
	stepAttr                        // an attribute
	stepRelOne                      // a to-one relation
	stepRelMany                     // a to-many relation
)

// compileRowPlan compiles sp, a selection of t's object type obj.
func compileRowPlan(t *table, obj *objectType, sp *selectionPlan) *rowPlan {
	rp := &rowPlan{t: t, obj: obj, steps: make([]rowStep, len(sp.fields))}
	for i, pf := range sp.fields {
		rp.steps[i] = compileRowStep(t, pf)
	}
	return rp
}

// compileRowStep compiles the field pf of t's object type; stepGeneric
// when the field is not one the direct writer knows in the expected type.
func compileRowStep(t *table, pf *plannedField) rowStep {
	s := rowStep{keyJSON: pf.keyJSON, pf: pf}
	if pf.info == nil {
		s.kind = stepTypename
		return s
	}
	name, out := pf.info.def.Name, pf.info.out
	if name == "id" {
		if out.kind == kindID && out.nonNull {
			s.kind = stepID
		}
		return s
	}
	if a := t.byName[name]; a != nil && !a.isID {
		if out.kind == attrKind(a.typ) && !out.nonNull {
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
func relStep(s rowStep, rf *relField, pf *plannedField) rowStep {
	if pf.child == nil {
		return s
	}
	child, _ := pf.child.direct.(*rowPlan)
	if child == nil || child.t != rf.to {
		return s
	}
	out := pf.info.out
	switch {
	case !rf.list && out.kind == kindObject && !out.nonNull:
		s.kind = stepRelOne
	case rf.list && out.kind == kindList && out.elem.kind == kindObject:
		s.kind = stepRelMany
	default:
		return s
	}
	s.rel, s.child = rf, child
	return s
}

// writeDirect makes a row a directObject: its plan's compiled form writes it.
func (ro *rowObj) writeDirect(r *run, sp *selectionPlan, _ *objectType) (ok, handled bool) {
	rp, _ := sp.direct.(*rowPlan)
	if rp == nil || rp.t != ro.tv.t {
		return false, false
	}
	return rp.write(r, ro.tv, ro.row), true
}

// write writes row of tv as the object of rp; false unwinds (see run.object).
// Steps that take the resolver get a *rowObj, made on first use.
func (rp *rowPlan) write(r *run, tv *tableView, row int32) bool {
	var parent *rowObj
	buf := append(r.buf, '{')
	for i := range rp.steps {
		s := &rp.steps[i]
		if len(buf) > r.bound { // the response bounds (exec_bounds.go)
			if r.buf = buf; !r.overBound() {
				return false
			}
		}
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, s.keyJSON...)
		switch s.kind {
		case stepTypename:
			buf = append(buf, rp.obj.nameJSON...)
			continue
		case stepID:
			buf = tv.appendRowID(buf, row)
			continue
		case stepAttr:
			buf = appendOutput(buf, s.attr.typ, tv.value(s.attr, row))
			continue
		}
		r.buf = buf
		var ok bool
		switch s.kind {
		case stepRelOne:
			ok = s.writeRelOne(r, tv, row)
		case stepRelMany:
			ok = s.writeRelMany(r, tv, row)
		default:
			if parent == nil {
				parent = &rowObj{tv: tv, row: row}
			}
			ok = r.writeField(s.pf, rp.obj, parent)
		}
		if !ok {
			return false
		}
		buf = r.buf
	}
	r.buf = append(buf, '}')
	return true
}

// writeRelOne writes a to-one relation of row: the first related row, or
// null (relResolver and run.complete).
func (s *rowStep) writeRelOne(r *run, tv *tableView, row int32) bool {
	target := tv.v.tableView(s.rel.to)
	to := tv.relatedOne(s.rel, target, row)
	if to < 0 {
		r.buf = append(r.buf, "null"...)
		return true
	}
	n := r.pushKey(s.pf.key)
	start := len(r.buf)
	ok := r.settle(s.pf.info.out, start, s.child.write(r, target, to))
	r.path = r.path[:n]
	return ok
}

// writeRelMany writes a to-many relation of row: the related rows.
func (s *rowStep) writeRelMany(r *run, tv *tableView, row int32) bool {
	target, rows := tv.relatedRows(s.rel, row)
	n := r.pushKey(s.pf.key)
	start := len(r.buf)
	ok := r.settle(s.pf.info.out, start, s.child.writeRows(r, s.pf.info.out, target, rowList{rows: rows}, 0, len(rows)))
	r.path = r.path[:n]
	return ok
}

// writeRows writes rows lo..hi-1 of l as the list type t of objects of rp
// (run.list and run.complete of each item).
func (rp *rowPlan) writeRows(r *run, t *outType, tv *tableView, l rowList, lo, hi int) bool {
	return r.listItems(hi-lo, func(i int) bool {
		start := len(r.buf)
		return r.settle(t.elem, start, rp.write(r, tv, l.at(lo+i)))
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
	if v.Kind == dataset.Number { // canonKey, in a buffer that stays here
		var scratch [32]byte
		return target.firstWhere(rf.toAttr, string(appendNum(scratch[:0], v.Num)))
	}
	k, ok := canonKey(v)
	if !ok {
		return -1
	}
	return target.firstWhere(rf.toAttr, k)
}
