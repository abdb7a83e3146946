package graphql

import (
	"strconv"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/graphql/exec"
)

// A contract project's list and page root fields are written directly, as
// a table project's LIST operations are (runtime_root.go): the arguments
// are read and the rows selected as queryResolver does (readQuery, rows,
// windowOf), then the items are written by their row plan and the page's
// counts from the window, without the maps and row objects of fill. What
// the plans do not cover (other shapes, interfaces and unions, wrapper
// fields other than items and Int or Boolean counts, arguments refused)
// goes through the resolvers, which define the behaviour; the direct
// writer writes the same bytes (TestContractDirectRoot).

// ctRootPlan is the root selection of a contract project's query compiled
// for direct writing: one step per root field, in plan order.
type ctRootPlan struct {
	rt    *Runtime
	steps []ctRootStep
}

// ctRootStep writes one root field: a list (rows) or a page (page) of the
// rows of t; rf nil: the resolver writes it.
type ctRootStep struct {
	rf   *contract.RootField
	t    *table
	rows *rowPlan
	page *ctPagePlan
	// static is the query of constant arguments args, read once
	// (ctQuery.prepare); nil: read per request.
	static *ctQuery
	args   map[string]any
}

// contractRoot compiles the root selection sp of a contract project.
func (rt *Runtime) contractRoot(sp *exec.Plan) *ctRootPlan {
	rp := &ctRootPlan{rt: rt, steps: make([]ctRootStep, len(sp.Fields()))}
	for i, pf := range sp.Fields() {
		rp.steps[i] = rt.contractRootStep(pf)
	}
	return rp
}

// contractRootStep compiles the root field pf; a step without rf when the
// direct writer does not cover it.
func (rt *Runtime) contractRootStep(pf *exec.PlannedField) ctRootStep {
	var s ctRootStep
	if pf.Type() == nil || pf.Child() == nil {
		return s
	}
	var rf *contract.RootField
	for _, q := range rt.contract.plan.Queries {
		if q.Name == pf.Name() {
			rf = q
		}
	}
	if rf == nil || rf.Shape != contract.ShapeList && rf.Shape != contract.ShapePage {
		return s
	}
	tables := rt.contract.tablesOf(rf.Entity)
	if len(tables) != 1 || rt.contract.tables[rf.Entity] == nil {
		return s
	}
	t := tables[0]
	switch rf.Shape {
	case contract.ShapeList:
		if s.rows, _ = pf.Child().Direct().(*rowPlan); s.rows == nil || s.rows.t != t || pf.Type().Kind() != exec.KindList {
			return ctRootStep{}
		}
	case contract.ShapePage:
		if s.page, _ = pf.Child().Direct().(*ctPagePlan); s.page == nil || s.page.items != nil && s.page.items.t != t {
			return ctRootStep{}
		}
	}
	s.rf, s.t = rf, t
	if args, _, err := pf.ConstArgs(); err == nil && !pf.Dynamic() {
		if q, err := rt.readQuery(t, rf, args); err == nil {
			q.paged = true
			if q.prepare() {
				s.static, s.args = q, args
			}
		}
	}
	return s
}

// writeRoot writes root field i of sp by the step of rp, or declines
// (nothing written) for the resolver to answer: a step it does not cover,
// a table not ready, arguments refused, a window that fails.
func (v *view) writeContractRoot(w *exec.Writer, rp *ctRootPlan, sp *exec.Plan, i int) (ok, handled bool) {
	s, pf := &rp.steps[i], sp.Fields()[i]
	if s.rf == nil || rp.rt != v.rt {
		return false, false
	}
	tv := v.tableView(s.t)
	if tv.notReady != nil {
		return false, false
	}
	rt := v.rt
	q, args, err := s.query(w, pf, rt)
	if err != nil {
		return false, false
	}
	l, err := q.rows(w.Context(), tv)
	if err != nil {
		return false, false
	}
	if q.limit < 0 && !q.relay {
		q.limit = rt.opt.MaxPageSize
	}
	rows := &ctRows{}
	rows.add(tv, l)
	win, err := rt.windowOf(rows, q, args)
	if err != nil {
		return false, false
	}
	n := w.PushKey(pf.Key())
	start := len(w.Buf())
	if s.page != nil {
		ok = s.page.write(w, tv, l, win)
	} else {
		ok = s.rows.writeRows(w, pf.Type(), tv, l, win.lo, win.hi)
	}
	ok = w.Settle(pf.Type(), start, ok)
	w.PopKey(n)
	return ok, true
}

// query returns the query of the step's arguments and the arguments: a
// copy of the static one, or read from the request's.
func (s *ctRootStep) query(w *exec.Writer, pf *exec.PlannedField, rt *Runtime) (*ctQuery, map[string]any, error) {
	if s.static != nil {
		q := *s.static
		return &q, s.args, nil
	}
	args, _, err := w.Args(pf)
	if err != nil {
		return nil, nil, err
	}
	q, err := rt.readQuery(s.t, s.rf, args)
	if err != nil {
		return nil, nil, err
	}
	q.paged = true
	return q, args, nil
}

// ctPagePlan is a selection of a contract page wrapper compiled for
// direct writing: __typename, the list of rows and counts.
type ctPagePlan struct {
	obj   *exec.ObjectType
	steps []ctPageStep
	items *rowPlan // the rows' plan, when selected
}

// ctPageStep writes one response key of a page wrapper: __typename
// (typename), the rows (items), or a count or flag of the window named
// by its folded field name (scalar, of the type typ).
type ctPageStep struct {
	keyJSON  string
	pf       *exec.PlannedField
	typename bool
	items    *rowPlan
	scalar   string
	typ      string
}

// compilePage compiles sp, a selection of the page wrapper obj; nil when
// it selects a field the writer does not cover.
func (rt *Runtime) compilePage(obj *exec.ObjectType, sp *exec.Plan) *ctPagePlan {
	pp := &ctPagePlan{obj: obj, steps: make([]ctPageStep, len(sp.Fields()))}
	for i, pf := range sp.Fields() {
		s := ctPageStep{keyJSON: pf.KeyJSON(), pf: pf}
		fd := obj.Def().Fields.ForName(pf.Name())
		switch {
		case pf.Type() == nil:
			s.typename = true
		case fd == nil:
			return nil
		case pf.Child() != nil:
			items, _ := pf.Child().Direct().(*rowPlan)
			if items == nil || pf.Type().Kind() != exec.KindList || pp.items != nil && pp.items.t != items.t {
				return nil
			}
			s.items, pp.items = items, items
		default:
			s.scalar, s.typ = fold(fd.Name), fd.Type.Name()
			if _, known := (&ctWindow{rows: &ctRows{}}).scalar(s.scalar, s.typ); !known || s.typ != "Int" && s.typ != "Boolean" {
				return nil // cursors, generated values and other types: the resolver
			}
		}
		pp.steps[i] = s
	}
	return pp
}

// write writes the page around the window win of the rows l of tv, as
// the executor writes the map of fill.
func (pp *ctPagePlan) write(w *exec.Writer, tv *tableView, l rowList, win *ctWindow) bool {
	buf := append(w.Buf(), '{')
	for i := range pp.steps {
		s := &pp.steps[i]
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, s.keyJSON...)
		switch {
		case s.typename:
			buf = append(buf, pp.obj.NameJSON()...)
		case s.items != nil:
			w.SetBuf(buf)
			n := w.PushKey(s.pf.Key())
			start := len(w.Buf())
			ok := w.Settle(s.pf.Type(), start, s.items.writeRows(w, s.pf.Type(), tv, l, win.lo, win.hi))
			w.PopKey(n)
			if !ok {
				return false
			}
			buf = w.Buf()
		default:
			switch x, _ := win.scalar(s.scalar, s.typ); x := x.(type) {
			case int:
				buf = strconv.AppendInt(buf, int64(x), 10)
			case bool:
				buf = strconv.AppendBool(buf, x)
			default:
				buf = append(buf, "null"...)
			}
		}
	}
	w.SetBuf(append(buf, '}'))
	return true
}
