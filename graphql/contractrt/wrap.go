package contractrt

import (
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/internal/answer"
)

// This file fills the types a contract project wraps around rows
// (contract.Wrapper): connections with edges and page info, page wrappers
// (items|results|nodes|data, total|count|totalCount, info|pageInfo),
// aggregates (count, sum, avg, min, max) and mutation payloads
// ({ book: Book, errors }, { affected_rows returning }). Each field of the
// wrapper is filled by its type and folded name; a field it does not
// recognise is generated.

// fill returns the value of the wrapper type d around the window w.
func (rt *Runtime) fill(v *engine.View, d *ast.Definition, w *ctWindow, seed uint64, depth int) map[string]any {
	m := map[string]any{"__typename": d.Name}
	for _, fd := range d.Fields {
		if x, ok := rt.fillField(v, d, fd, w, seed, depth); ok {
			m[fd.Name] = x
		} else {
			m[fd.Name] = rt.genLazy(v, d.Name, fd, seed, depth+1)
		}
	}
	return m
}

// fillField returns the value of fd in a wrapper around w; false when the
// field is not recognised.
func (rt *Runtime) fillField(v *engine.View, owner *ast.Definition, fd *ast.FieldDefinition, w *ctWindow, seed uint64, depth int) (any, bool) {
	d := rt.schema.Types[fd.Type.Name()]
	if d == nil {
		return nil, false
	}
	list := fd.Type.Elem != nil
	if list && d.Kind == ast.Object && (contract.ErrorListField(fd.Name) || contract.WarningListField(fd.Name)) {
		return []any{}, true // a write that succeeded refused nothing and warns of nothing
	}
	if x, ok := w.relatedRow(rt.tablesOf(d.Name), list); ok {
		return x, true
	}
	switch {
	case len(rt.tablesOf(d.Name)) > 0 && list:
		return w.rows.objects(w.lo, w.hi), true
	case len(rt.tablesOf(d.Name)) > 0:
		if w.hi > w.lo {
			return w.rows.at(w.lo), true
		}
		return nil, !fd.Type.NonNull
	case rt.wrapperKind(d.Name) == "edge" && list:
		return rt.edges(v, d, w, seed, depth), true
	case d.Kind == ast.Object && depth < maxGenDepth && isAggregateOp(fold(fd.Name)):
		return rt.aggregateOp(d, w, fold(fd.Name)), true
	case d.Kind == ast.Object && depth < maxGenDepth && (rt.wrapperKind(d.Name) != "" || fold(fd.Name) == "aggregate"):
		return rt.fill(v, d, w, mix(seed, fd.Name), depth+1), true
	case d.Kind == ast.Scalar && !list:
		return w.scalar(fold(fd.Name), d.Name)
	}
	return nil, false
}

// wrapperKind is the kind of the wrapper type name, or "".
func (rt *Runtime) wrapperKind(name string) string {
	for _, w := range rt.plan.Wrappers {
		if w.Type == name {
			return w.Kind
		}
	}
	return ""
}

// edges returns the edges of w: a cursor and a node per row.
func (rt *Runtime) edges(v *engine.View, d *ast.Definition, w *ctWindow, seed uint64, depth int) []any {
	out := make([]any, 0, w.hi-w.lo)
	for i := w.lo; i < w.hi; i++ {
		row := w.rows.at(i)
		one := &ctWindow{rows: w.rows, lo: i, hi: i + 1, page: w.page, size: w.size}
		m := map[string]any{"__typename": d.Name}
		for _, fd := range d.Fields {
			switch fold(fd.Name) {
			case "cursor":
				m[fd.Name] = answer.EncodeCursor(row.TV.ID(row.Row))
			case "node":
				m[fd.Name] = row
			default:
				if x, ok := rt.fillField(v, d, fd, one, seed, depth+1); ok {
					m[fd.Name] = x
				} else {
					m[fd.Name] = rt.genLazy(v, d.Name, fd, mix(seed, row.TV.ID(row.Row)), depth+1)
				}
			}
		}
		out = append(out, m)
	}
	return out
}

// scalar returns the scalar field named n (folded) of a wrapper around w:
// counts, page numbers, page flags and cursors; false for others.
func (w *ctWindow) scalar(n, typ string) (any, bool) {
	numeric := typ == "Int" || typ == "Float"
	size := w.size
	if size <= 0 {
		size = max(w.hi-w.lo, 1)
	}
	switch {
	case numeric && (n == "total" || n == "count" || n == "totalcount" || n == "totalitems" || n == "totalresults" ||
		n == "totalrecords" || n == "totalelements" || n == "affectedrows" || n == "all"):
		return w.rows.n, true
	case numeric && (n == "page" || n == "currentpage" || n == "pagenumber"):
		return w.page, true
	case numeric && (n == "pagesize" || n == "perpage" || n == "limit" || n == "size"):
		return size, true
	case numeric && (n == "offset" || n == "skip"):
		return w.lo, true
	case numeric && (n == "totalpages" || n == "pagecount" || n == "lastpage" || n == "pages"):
		return (w.rows.n + size - 1) / size, true
	case typ == "Boolean" && (n == "hasnextpage" || n == "hasmore" || n == "hasnext"):
		return w.hi < w.rows.n, true
	case typ == "Boolean" && (n == "haspreviouspage" || n == "hasprevious" || n == "hasprev"):
		return w.lo > 0, true
	case typ == "Boolean" && (n == "success" || n == "ok"):
		return true, true
	case n == "startcursor" || n == "endcursor":
		return w.cursor(n == "endcursor"), true
	case numeric && (n == "next" || n == "nextpage"):
		if w.page*size < w.rows.n {
			return w.page + 1, true
		}
		return nil, true
	case numeric && (n == "prev" || n == "previous" || n == "prevpage" || n == "previouspage"):
		if w.page > 1 {
			return w.page - 1, true
		}
		return nil, true
	case typ == "ID" && strings.HasSuffix(n, "id") && n != "clientmutationid":
		// deletedCustomerId: the key of the row written
		if w.hi > w.lo {
			row := w.rows.at(w.lo)
			return row.TV.ID(row.Row), true
		}
		return nil, true
	}
	return nil, false
}

// relatedRow returns, for a payload field of another table than the rows
// written (cartLinesAdd's cart: Cart, around the lines it added), the row
// the first written row's to-one relation names; false when the field is
// none such.
func (w *ctWindow) relatedRow(tables []*engine.Table, list bool) (any, bool) {
	if list || len(tables) != 1 || w.hi <= w.lo {
		return nil, false
	}
	ro := w.rows.at(w.lo)
	if ro.TV.Table == tables[0] {
		return nil, false
	}
	for _, rf := range ro.TV.Table.Rels {
		if !rf.List && rf.To == tables[0] {
			if target, rows := ro.TV.Related(rf, ro.Row); len(rows) > 0 {
				return &answer.RowObj{TV: target, Row: rows[0]}, true
			}
			return nil, true
		}
	}
	return nil, false
}

// cursor returns the cursor of the window's first or last row, or nil.
func (w *ctWindow) cursor(last bool) any {
	if w.hi <= w.lo {
		return nil
	}
	i := w.lo
	if last {
		i = w.hi - 1
	}
	row := w.rows.at(i)
	return answer.EncodeCursor(row.TV.ID(row.Row))
}

func isAggregateOp(n string) bool {
	switch n {
	case "sum", "avg", "min", "max", "average", "count":
		return true
	}
	return false
}

// aggregateOp returns the object of an aggregate operator (sum, avg, min,
// max, count): each of its fields is the operator over the rows' values of
// the field of the same name; count's fields count non-null values, its
// _all (folded "all") counts rows.
func (rt *Runtime) aggregateOp(d *ast.Definition, w *ctWindow, op string) map[string]any {
	m := map[string]any{"__typename": d.Name}
	for _, fd := range d.Fields {
		name := fold(fd.Name)
		if op == "count" && name == "all" {
			m[fd.Name] = w.rows.n
			continue
		}
		m[fd.Name] = w.rows.aggregate(name, op, fd.Type.Name())
	}
	return m
}

// aggregate applies op to the values of the attribute folded name over
// every row; nil when no row has a number (count: the non-null values).
func (c *ctRows) aggregate(name, op, typ string) any {
	var sum, lo, hi float64
	n := 0
	for _, p := range c.parts {
		a := foldedAttr(p.tv.Table, name)
		if a == nil {
			continue
		}
		for i := 0; i < p.l.Len(); i++ {
			x := p.tv.Value(a, p.l.At(i))
			if op == "count" && x.Kind != dataset.Null {
				n++
				continue
			}
			if x.Kind != dataset.Number {
				continue
			}
			if n == 0 || x.Num < lo {
				lo = x.Num
			}
			if n == 0 || x.Num > hi {
				hi = x.Num
			}
			sum += x.Num
			n++
		}
	}
	return aggregateValue(op, typ, n, sum, lo, hi)
}

func aggregateValue(op, typ string, n int, sum, lo, hi float64) any {
	if op == "count" {
		return n
	}
	if n == 0 {
		return nil
	}
	var f float64
	switch op {
	case "sum":
		f = sum
	case "min":
		f = lo
	case "max":
		f = hi
	default:
		f = sum / float64(n)
	}
	if typ == "Int" {
		return int(f)
	}
	return f
}

// mutated is the window of the rows a mutation wrote.
func mutated(rows []*answer.RowObj) *ctWindow {
	out := &ctRows{}
	for _, r := range rows {
		out.add(r.TV, engine.RowList{Rows: []int32{r.Row}})
	}
	return &ctWindow{rows: out, lo: 0, hi: out.n, page: 1, size: out.n}
}
