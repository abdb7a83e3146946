package graphql

import (
	"strconv"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/contractrt"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/graphql/internal/answer"
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
	page   *pagePlan       // LIST
	row    *answer.RowPlan // SINGLE
	static *opArgs         // the arguments when they are constants; nil: per request
}

// opArgs are the arguments of an operation as its resolver reads them.
type opArgs struct {
	q          *engine.ListQuery // LIST
	page, size int               // LIST
	id         string            // SINGLE
}

// rootPlan compiles the root selection of a query.
func (d *directTypes) rootPlan(sp *exec.Plan) *rootPlan {
	rp := &rootPlan{rt: d.rt, steps: make([]rootStep, len(sp.Fields()))}
	for i, pf := range sp.Fields() {
		rp.steps[i] = d.rootStep(pf)
	}
	return rp
}

// rootStep compiles a root field; a step without op when it is not an
// operation or its constant arguments are refused (the resolver reports it).
func (d *directTypes) rootStep(pf *exec.PlannedField) rootStep {
	var s rootStep
	args, extra, argsErr := pf.ConstArgs()
	if pf.Type() == nil || pf.Child() == nil || argsErr != nil {
		return s
	}
	o := d.ops[pf.Name()]
	switch {
	case o == nil, o.kind == model.OpAggregate, o.where || o.orderBy:
		return s // the resolvers serve the opt-in arguments
	case o.kind == model.OpList:
		if s.page, _ = pf.Child().Direct().(*pagePlan); s.page == nil {
			return s
		}
	default:
		if s.row, _ = pf.Child().Direct().(*answer.RowPlan); s.row == nil || pf.Type().NonNull() {
			return s
		}
	}
	if !pf.Dynamic() {
		a, err := d.rt.opArgs(o, args, extra)
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

// WriteRootField makes the view an exec.DirectRoot: operations whose table is
// ready and whose arguments are accepted are written directly.
func (root *queryRoot) WriteRootField(w *exec.Writer, sp *exec.Plan, i int) (ok, handled bool) {
	v := &root.v
	if cp, ok := sp.Direct().(*contractrt.RootPlan); ok {
		return cp.WriteRoot(w, v, sp, i)
	}
	rp, _ := sp.Direct().(*rootPlan)
	if rp == nil || &rp.rt.env != v.Env() || rp.steps[i].op == nil {
		return false, false
	}
	s, pf := &rp.steps[i], sp.Fields()[i]
	a := s.static
	if a == nil {
		args, extra, err := w.Args(pf)
		if err != nil {
			return false, false
		}
		dyn, err := rp.rt.opArgs(s.op, args, extra)
		if err != nil {
			return false, false
		}
		a = &dyn
	}
	tv := v.TableView(s.op.t)
	if tv.NotReady != nil {
		return false, false // the resolver reports it
	}
	if s.op.kind == model.OpList {
		return s.writeList(w, tv, pf, a)
	}
	return s.writeSingle(w, tv, pf, a), true
}

// writeList writes a page of a LIST operation (listResolver). A failed
// scan (the context ended) is left to the resolver to report.
func (s *rootStep) writeList(w *exec.Writer, tv *engine.TableView, pf *exec.PlannedField, a *opArgs) (ok, handled bool) {
	rows, err := tv.PageRows(w.Context(), a.q, a.page, a.size)
	if err != nil {
		return false, false
	}
	lo, hi := engine.PageBounds(rows.Len(), a.page, a.size)
	n := w.PushKey(pf.Key())
	start := len(w.Buf())
	ok = w.Settle(pf.Type(), start, s.page.write(w, tv, rows, lo, hi, a))
	w.PopKey(n)
	return ok, true
}

// writeSingle writes the row of a SINGLE operation, or null
// (singleResolver).
func (s *rootStep) writeSingle(w *exec.Writer, tv *engine.TableView, pf *exec.PlannedField, a *opArgs) bool {
	row := tv.RowByID(a.id)
	if row < 0 {
		w.SetBuf(append(w.Buf(), "null"...))
		return true
	}
	n := w.PushKey(pf.Key())
	start := len(w.Buf())
	ok := w.Settle(pf.Type(), start, s.row.Write(w, tv, row))
	w.PopKey(n)
	return ok
}

// pagePlan is a selection of a page type compiled for direct writing.
type pagePlan struct {
	obj   *exec.ObjectType
	steps []pageStep
}

// pageStep writes one response key of a page.
type pageStep struct {
	kind    pageStepKind
	keyJSON string
	pf      *exec.PlannedField
	items   *answer.RowPlan // pageItems
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
func compilePagePlan(obj *exec.ObjectType, sp *exec.Plan) *pagePlan {
	pp := &pagePlan{obj: obj, steps: make([]pageStep, len(sp.Fields()))}
	for i, pf := range sp.Fields() {
		s := pageStep{keyJSON: pf.KeyJSON(), pf: pf}
		switch {
		case pf.Type() == nil:
			s.kind = pageTypename
		case pf.Name() == "items" && pf.Child() != nil:
			s.kind = pageItems
			if s.items, _ = pf.Child().Direct().(*answer.RowPlan); s.items == nil || pf.Type().Kind() != exec.KindList {
				return nil
			}
		case pf.Name() == "total":
			s.kind = pageTotal
		case pf.Name() == "page":
			s.kind = pageNumber
		case pf.Name() == "pageSize":
			s.kind = pageSize
		default:
			return nil
		}
		pp.steps[i] = s
	}
	return pp
}

// write writes the page of rows lo..hi-1 of rows, as the executor (run.object in package exec) writes the
// map of pageValue. The numbers fit an Int: row numbers are int32, page
// and pageSize come from Int arguments.
func (pp *pagePlan) write(w *exec.Writer, tv *engine.TableView, rows engine.RowList, lo, hi int, a *opArgs) bool {
	buf := append(w.Buf(), '{')
	for i := range pp.steps {
		s := &pp.steps[i]
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, s.keyJSON...)
		switch s.kind {
		case pageTypename:
			buf = append(buf, pp.obj.NameJSON()...)
		case pageTotal:
			buf = strconv.AppendInt(buf, int64(rows.Len()), 10)
		case pageNumber:
			buf = strconv.AppendInt(buf, int64(a.page), 10)
		case pageSize:
			buf = strconv.AppendInt(buf, int64(a.size), 10)
		case pageItems:
			w.SetBuf(buf)
			n := w.PushKey(s.pf.Key())
			start := len(w.Buf())
			ok := w.Settle(s.pf.Type(), start, s.items.WriteRows(w, s.pf.Type(), tv, rows, lo, hi))
			w.PopKey(n)
			if !ok {
				return false
			}
			buf = w.Buf()
		}
	}
	w.SetBuf(append(buf, '}'))
	return true
}
