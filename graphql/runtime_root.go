package graphql

import (
	"strconv"

	"github.com/mockgql/mockgql/model"
)

// rootPlan is the root selection of a query compiled for direct writing:
// one step per root field, in plan order. It is immutable and shared.
type rootPlan struct {
	rt    *Runtime
	steps []rootStep
}

// rootStep writes one root field: a LIST or SINGLE operation, or nothing
// (op nil: the resolver writes it).
type rootStep struct {
	op     *operation
	page   *pagePlan // LIST
	row    *rowPlan  // SINGLE
	static *opArgs   // the arguments when they are constants; nil: per request
}

// opArgs are the arguments of an operation as its resolver reads them.
type opArgs struct {
	q          *listQuery // LIST
	page, size int        // LIST
	id         string     // SINGLE
}

// rootPlan compiles the root selection of a query.
func (d *directTypes) rootPlan(sp *selectionPlan) *rootPlan {
	rp := &rootPlan{rt: d.rt, steps: make([]rootStep, len(sp.fields))}
	for i, pf := range sp.fields {
		rp.steps[i] = d.rootStep(pf)
	}
	return rp
}

// rootStep compiles a root field; a step without op when it is not an
// operation or its constant arguments are refused (the resolver reports it).
func (d *directTypes) rootStep(pf *plannedField) rootStep {
	var s rootStep
	if pf.info == nil || pf.child == nil || pf.argsErr != nil {
		return s
	}
	o := d.ops[pf.info.def.Name]
	switch {
	case o == nil, o.kind == model.OpAggregate, o.where || o.orderBy:
		return s // the resolvers serve the opt-in arguments
	case o.kind == model.OpList:
		if s.page, _ = pf.child.direct.(*pagePlan); s.page == nil {
			return s
		}
	default:
		if s.row, _ = pf.child.direct.(*rowPlan); s.row == nil || pf.info.out.nonNull {
			return s
		}
	}
	if !pf.dynamic {
		a, err := d.rt.opArgs(o, pf.args, pf.extra)
		if err != nil {
			return s
		}
		s.static = &a
	}
	s.op = o
	return s
}

// opArgs reads the arguments of a LIST or SINGLE operation as
// listResolver and singleResolver do, with the same errors.
func (rt *Runtime) opArgs(o *operation, args, extra map[string]any) (opArgs, error) {
	var a opArgs
	if o.kind != model.OpList {
		a.id, _ = args["id"].(string)
		return a, nil
	}
	if err := o.checkExtra(extra); err != nil {
		return a, err
	}
	a.page, a.size = rt.paging(args)
	q, err := o.listQuery(args)
	a.q = q
	return a, err
}

// writeRootField makes the view a directRoot: operations whose table is
// ready and whose arguments are accepted are written directly.
func (v *view) writeRootField(r *run, sp *selectionPlan, i int) (ok, handled bool) {
	rp, _ := sp.direct.(*rootPlan)
	if rp == nil || rp.rt != v.rt || rp.steps[i].op == nil {
		return false, false
	}
	s, pf := &rp.steps[i], sp.fields[i]
	a := s.static
	if a == nil {
		args, extra, err := r.args(pf)
		if err != nil {
			return false, false
		}
		dyn, err := v.rt.opArgs(s.op, args, extra)
		if err != nil {
			return false, false
		}
		a = &dyn
	}
	tv := v.tableView(s.op.t)
	if tv.notReady != nil {
		return false, false // the resolver reports it
	}
	if s.op.kind == model.OpList {
		return s.writeList(r, tv, pf, a)
	}
	return s.writeSingle(r, tv, pf, a), true
}

// writeList writes a page of a LIST operation (listResolver). A failed
// scan (the context ended) is left to the resolver to report.
func (s *rootStep) writeList(r *run, tv *tableView, pf *plannedField, a *opArgs) (ok, handled bool) {
	rows, err := tv.pageRows(r.ctx, a.q, a.page, a.size)
	if err != nil {
		return false, false
	}
	lo, hi := page(rows.len(), a.page, a.size)
	n := r.pushKey(pf.key)
	start := len(r.buf)
	ok = r.settle(pf.info.out, start, s.page.write(r, tv, rows, lo, hi, a))
	r.path = r.path[:n]
	return ok, true
}

// writeSingle writes the row of a SINGLE operation, or null
// (singleResolver).
func (s *rootStep) writeSingle(r *run, tv *tableView, pf *plannedField, a *opArgs) bool {
	row := tv.rowByID(a.id)
	if row < 0 {
		r.buf = append(r.buf, "null"...)
		return true
	}
	n := r.pushKey(pf.key)
	start := len(r.buf)
	ok := r.settle(pf.info.out, start, s.row.write(r, tv, row))
	r.path = r.path[:n]
	return ok
}

// pagePlan is a selection of a page type compiled for direct writing.
type pagePlan struct {
	obj   *objectType
	steps []pageStep
}

// pageStep writes one response key of a page.
type pageStep struct {
	kind    pageStepKind
	keyJSON string
	pf      *plannedField
	items   *rowPlan // pageItems
}

type pageStepKind uint8

const (
	pageTypename pageStepKind = iota
	pageItems
	pageTotal
	pageNumber
	pageSize
)

// compilePagePlan compiles sp, a selection of the page type obj; nil when
// it selects a field the page writer does not know.
func compilePagePlan(obj *objectType, sp *selectionPlan) *pagePlan {
	pp := &pagePlan{obj: obj, steps: make([]pageStep, len(sp.fields))}
	for i, pf := range sp.fields {
		s := pageStep{keyJSON: pf.keyJSON, pf: pf}
		switch {
		case pf.info == nil:
			s.kind = pageTypename
		case pf.info.def.Name == "items" && pf.child != nil:
			s.kind = pageItems
			if s.items, _ = pf.child.direct.(*rowPlan); s.items == nil || pf.info.out.kind != kindList {
				return nil
			}
		case pf.info.def.Name == "total":
			s.kind = pageTotal
		case pf.info.def.Name == "page":
			s.kind = pageNumber
		case pf.info.def.Name == "pageSize":
			s.kind = pageSize
		default:
			return nil
		}
		pp.steps[i] = s
	}
	return pp
}

// write writes the page of rows lo..hi-1 of rows, as run.object writes the
// map of pageValue. The numbers fit an Int: row numbers are int32, page
// and pageSize come from Int arguments.
func (pp *pagePlan) write(r *run, tv *tableView, rows rowList, lo, hi int, a *opArgs) bool {
	buf := append(r.buf, '{')
	for i := range pp.steps {
		s := &pp.steps[i]
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, s.keyJSON...)
		switch s.kind {
		case pageTypename:
			buf = append(buf, pp.obj.nameJSON...)
		case pageTotal:
			buf = strconv.AppendInt(buf, int64(rows.len()), 10)
		case pageNumber:
			buf = strconv.AppendInt(buf, int64(a.page), 10)
		case pageSize:
			buf = strconv.AppendInt(buf, int64(a.size), 10)
		case pageItems:
			r.buf = buf
			n := r.pushKey(s.pf.key)
			start := len(r.buf)
			ok := r.settle(s.pf.info.out, start, s.items.writeRows(r, s.pf.info.out, tv, rows, lo, hi))
			r.path = r.path[:n]
			if !ok {
				return false
			}
			buf = r.buf
		}
	}
	r.buf = append(buf, '}')
	return true
}
