package contractrt

import (
	"strconv"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/graphql/internal/answer"
)

// A contract project's list, page and connection root fields are written directly, as
// a table project's LIST operations are (graphql/runtime_root.go): the arguments
// are read and the rows selected as queryResolver does (readQuery, rows,
// windowOf), then the items are written by their row plan and the page's
// counts from the window, without the maps and row objects of fill. What
// the plans do not cover (other shapes, interfaces and unions, wrapper
// fields other than rows, edges, page info and counts, arguments refused)
// goes through the resolvers, which define the behaviour; the direct
// writer writes the same bytes (TestContractDirectRoot).

// RootPlan is the root selection of a contract project's query compiled
// for direct writing: one step per root field, in plan order.
type RootPlan struct {
	rt    *Runtime
	steps []ctRootStep
}

// ctRootStep writes one root field: a list (rows) or a page (page) of the
// rows of t; rf nil: the resolver writes it.
type ctRootStep struct {
	rf   *contract.RootField
	t    *engine.Table
	rows *answer.RowPlan
	page *ctWrapPlan
	// static is the query of constant arguments args, read once
	// (ctQuery.prepare); nil: read per request.
	static *ctQuery
	args   map[string]any
}

// contractRoot compiles the root selection sp of a contract project.
func (rt *Runtime) contractRoot(sp *exec.Plan) *RootPlan {
	rp := &RootPlan{rt: rt, steps: make([]ctRootStep, len(sp.Fields()))}
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
	for _, q := range rt.plan.Queries {
		if q.Name == pf.Name() {
			rf = q
		}
	}
	if rf == nil || rf.Shape != contract.ShapeList && rf.Shape != contract.ShapePage && rf.Shape != contract.ShapeConnection {
		return s
	}
	tables := rt.tablesOf(rf.Entity)
	if len(tables) != 1 || rt.tables[rf.Entity] == nil {
		return s
	}
	t := tables[0]
	switch rf.Shape {
	case contract.ShapeList:
		if s.rows, _ = pf.Child().Direct().(*answer.RowPlan); s.rows == nil || s.rows.T != t || pf.Type().Kind() != exec.KindList {
			return ctRootStep{}
		}
	default:
		if s.page, _ = pf.Child().Direct().(*ctWrapPlan); s.page == nil || s.page.t != nil && s.page.t != t {
			return ctRootStep{}
		}
	}
	s.rf, s.t = rf, t
	if args, _, err := pf.ConstArgs(); err == nil && !pf.Dynamic() {
		if q, err := rt.readQuery(t, rf, args); err == nil {
			q.paged = rf.Shape != contract.ShapeConnection || q.firstOnly()
			if q.prepare() {
				s.static, s.args = q, args
			}
		}
	}
	return s
}

// WriteRoot writes root field i of sp by the step of rp, or declines
// (nothing written) for the resolver to answer: a step it does not cover,
// a table not ready, arguments refused, a window that fails.
func (rp *RootPlan) WriteRoot(w *exec.Writer, v *engine.View, sp *exec.Plan, i int) (ok, handled bool) {
	s, pf := &rp.steps[i], sp.Fields()[i]
	if s.rf == nil || rp.rt.env != v.Env() {
		return false, false
	}
	tv := v.TableView(s.t)
	if tv.NotReady != nil {
		return false, false
	}
	rt := rp.rt
	q, args, err := s.query(w, pf, rt)
	if err != nil {
		return false, false
	}
	l, err := q.rows(w.Context(), tv)
	if err != nil {
		return false, false
	}
	if s.rf.Shape != contract.ShapeConnection && q.limit < 0 && !q.relay {
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
		ok = s.rows.WriteRows(w, pf.Type(), tv, l, win.lo, win.hi)
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
	// A connection counts and finds cursors in all its rows, unless it
	// serves the first ones.
	q.paged = s.rf.Shape != contract.ShapeConnection || q.firstOnly()
	return q, args, nil
}

// ctWrapPlan is a selection of a wrapper a contract project fills around
// rows (a page, a connection, its page info) compiled for direct
// writing: one step per response key.
type ctWrapPlan struct {
	obj   *exec.ObjectType
	steps []ctWrapStep
	t     *engine.Table // the table of the rows it writes; nil when it writes none
}

// ctWrapStep writes one response key of a wrapper: __typename, the rows
// (items), the edges (edge: a cursor and a node per row), a wrapper
// around the same window (inner), or a count, flag or cursor of the
// window named by its folded field name (scalar, of the type typ).
type ctWrapStep struct {
	keyJSON  string
	pf       *exec.PlannedField
	typename bool
	items    *answer.RowPlan
	edge     *ctEdgePlan
	inner    *ctWrapPlan
	scalar   string
	typ      string
}

// ctEdgePlan is a selection of an edge: __typename, cursor and node.
type ctEdgePlan struct {
	obj   *exec.ObjectType
	steps []ctEdgeStep
	t     *engine.Table
}

type ctEdgeStep struct {
	keyJSON  string
	pf       *exec.PlannedField
	typename bool
	cursor   bool
	node     *answer.RowPlan
}

// compileWrap compiles sp, a selection of the wrapper obj of kind kind
// (page, connection, pageInfo, edge); nil when it selects a field the
// writer does not cover (it then goes through fill).
func (rt *Runtime) compileWrap(obj *exec.ObjectType, sp *exec.Plan, kind string) any {
	if kind == "edge" {
		if ep := compileEdge(obj, sp); ep != nil {
			return ep
		}
		return nil
	}
	pp := &ctWrapPlan{obj: obj, steps: make([]ctWrapStep, len(sp.Fields()))}
	for i, pf := range sp.Fields() {
		s, ok := rt.wrapStep(obj, pf)
		if !ok {
			return nil
		}
		var t *engine.Table
		switch {
		case s.items != nil:
			t = s.items.T
		case s.edge != nil:
			t = s.edge.t
		case s.inner != nil:
			t = s.inner.t
		}
		if t != nil && pp.t != nil && t != pp.t {
			return nil
		}
		if t != nil {
			pp.t = t
		}
		pp.steps[i] = s
	}
	return pp
}

// wrapStep compiles the field pf of the wrapper obj as fill serves it.
func (rt *Runtime) wrapStep(obj *exec.ObjectType, pf *exec.PlannedField) (ctWrapStep, bool) {
	s := ctWrapStep{keyJSON: pf.KeyJSON(), pf: pf}
	if pf.Type() == nil {
		s.typename = true
		return s, true
	}
	fd := obj.Def().Fields.ForName(pf.Name())
	if fd == nil {
		return s, false
	}
	list := pf.Type().Kind() == exec.KindList
	if pf.Child() != nil {
		switch x := pf.Child().Direct().(type) {
		case *answer.RowPlan:
			s.items = x
			return s, list
		case *ctEdgePlan:
			s.edge = x
			return s, list && x.t != nil
		case *ctWrapPlan:
			n := fold(fd.Name)
			s.inner = x
			return s, !list && !isAggregateOp(n) && n != "aggregate" && rt.wrapperKind(fd.Type.Name()) != ""
		}
		return s, false
	}
	s.scalar, s.typ = fold(fd.Name), fd.Type.Name()
	_, known := (&ctWindow{rows: &ctRows{}}).scalar(s.scalar, s.typ)
	switch {
	case !known || list:
		return s, false // generated values: the resolver
	case s.typ == "Int" || s.typ == "Boolean":
		return s, true
	}
	// a cursor, which is null when the window is empty
	return s, (s.typ == "String" || s.typ == "ID") && !pf.Type().NonNull() && (s.scalar == "startcursor" || s.scalar == "endcursor")
}

// compileEdge compiles sp, a selection of the edge type obj: its cursor
// and node as edges fills them; nil for other fields.
func compileEdge(obj *exec.ObjectType, sp *exec.Plan) *ctEdgePlan {
	ep := &ctEdgePlan{obj: obj, steps: make([]ctEdgeStep, len(sp.Fields()))}
	for i, pf := range sp.Fields() {
		s := ctEdgeStep{keyJSON: pf.KeyJSON(), pf: pf}
		fd := obj.Def().Fields.ForName(pf.Name())
		switch {
		case pf.Type() == nil:
			s.typename = true
		case fd == nil:
			return nil
		case fold(fd.Name) == "cursor" && pf.Child() == nil && pf.Type().Kind() != exec.KindList:
			s.cursor = true
		case fold(fd.Name) == "node" && pf.Child() != nil:
			if s.node, _ = pf.Child().Direct().(*answer.RowPlan); s.node == nil || pf.Type().Kind() != exec.KindObject || ep.t != nil && ep.t != s.node.T {
				return nil
			}
			ep.t = s.node.T
		default:
			return nil
		}
		ep.steps[i] = s
	}
	return ep
}

// write writes the wrapper around the window win of the rows l of tv, as
// the executor writes the map of fill.
func (pp *ctWrapPlan) write(w *exec.Writer, tv *engine.TableView, l engine.RowList, win *ctWindow) bool {
	buf := append(w.Buf(), '{')
	for i := range pp.steps {
		s := &pp.steps[i]
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, s.keyJSON...)
		if s.typename {
			buf = append(buf, pp.obj.NameJSON()...)
			continue
		}
		if s.items == nil && s.edge == nil && s.inner == nil {
			buf = appendScalar(buf, win, s.scalar, s.typ)
			continue
		}
		w.SetBuf(buf)
		n := w.PushKey(s.pf.Key())
		start := len(w.Buf())
		var ok bool
		switch {
		case s.items != nil:
			ok = s.items.WriteRows(w, s.pf.Type(), tv, l, win.lo, win.hi)
		case s.edge != nil:
			ok = w.ListItems(win.hi-win.lo, func(i int) bool {
				start := len(w.Buf())
				return w.Settle(s.pf.Type().Elem(), start, s.edge.write(w, tv, l.At(win.lo+i)))
			})
		default:
			ok = s.inner.write(w, tv, l, win)
		}
		ok = w.Settle(s.pf.Type(), start, ok)
		w.PopKey(n)
		if !ok {
			return false
		}
		buf = w.Buf()
	}
	w.SetBuf(append(buf, '}'))
	return true
}

// appendScalar appends the count, flag or cursor n (folded) of the type
// typ of the window win, as fill's value of it is written.
func appendScalar(buf []byte, win *ctWindow, n, typ string) []byte {
	switch x, _ := win.scalar(n, typ); x := x.(type) {
	case int:
		return strconv.AppendInt(buf, int64(x), 10)
	case bool:
		return strconv.AppendBool(buf, x)
	case string:
		return exec.AppendString(buf, x)
	}
	return append(buf, "null"...)
}

// write writes the edge of row r of tv, as the executor writes the map
// of edges.
func (ep *ctEdgePlan) write(w *exec.Writer, tv *engine.TableView, r int32) bool {
	buf := append(w.Buf(), '{')
	for i := range ep.steps {
		s := &ep.steps[i]
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, s.keyJSON...)
		switch {
		case s.typename:
			buf = append(buf, ep.obj.NameJSON()...)
		case s.cursor:
			buf = exec.AppendString(buf, answer.EncodeCursor(tv.ID(r)))
		default:
			w.SetBuf(buf)
			n := w.PushKey(s.pf.Key())
			start := len(w.Buf())
			ok := w.Settle(s.pf.Type(), start, s.node.Write(w, tv, r))
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
