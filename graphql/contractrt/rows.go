package contractrt

import (
	"context"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/internal/answer"
	"github.com/mockgql/mockgql/model"
)

// ctRows is an ordered list of rows of one or several tables: the rows of
// an entity, or of every implementation of an interface (or member of a
// union) one table after the other, tables in name order.
type ctRows struct {
	parts []ctPart
	n     int
}

type ctPart struct {
	tv *engine.TableView
	l  engine.RowList
}

func (c *ctRows) add(tv *engine.TableView, l engine.RowList) {
	c.parts = append(c.parts, ctPart{tv: tv, l: l})
	c.n += l.Len()
}

// at returns the row at position i.
func (c *ctRows) at(i int) *answer.RowObj {
	for _, p := range c.parts {
		if i < p.l.Len() {
			return &answer.RowObj{TV: p.tv, Row: p.l.At(i)}
		}
		i -= p.l.Len()
	}
	return nil
}

// objects returns the rows at positions lo..hi-1 as row objects.
func (c *ctRows) objects(lo, hi int) []any {
	out := make([]any, 0, max(hi-lo, 0))
	for _, p := range c.parts {
		n := p.l.Len()
		if lo < n && hi > 0 {
			out = append(out, answer.Objects(p.tv, p.l, max(lo, 0), min(hi, n))...)
		}
		lo, hi = lo-n, hi-n
	}
	return out
}

// pos returns the position of the row with the Relay cursor c, or an error.
func (c *ctRows) pos(cursor string) (int, error) {
	id, err := answer.DecodeCursor(cursor)
	if err != nil {
		return 0, err
	}
	i := 0
	for _, p := range c.parts {
		if r := p.tv.RowByID(id); r >= 0 {
			for k := 0; k < p.l.Len(); k++ {
				if p.l.At(k) == r {
					return i + k, nil
				}
			}
		}
		i += p.l.Len()
	}
	return 0, answer.CursorGone(cursor)
}

// tablesOf returns the tables of the entity (or of each entity of the
// interface or union) typ, in name order.
func (ct *Runtime) tablesOf(typ string) []*engine.Table {
	if t := ct.tables[typ]; t != nil {
		return []*engine.Table{t}
	}
	var out []*engine.Table
	for _, e := range ct.plan.Abstract[typ] {
		if t := ct.tables[e]; t != nil {
			out = append(out, t)
		}
	}
	return out
}

// selectRows returns the rows of rf's entity (each table of an interface
// or union, its arguments read against that table) that args select, in
// order.
func (rt *Runtime) selectRows(ctx context.Context, v *engine.View, rf *contract.RootField, args map[string]any) (*ctRows, error) {
	out := &ctRows{}
	tables := rt.tablesOf(rf.Entity)
	for _, t := range tables {
		tv := v.TableView(t)
		if tv.NotReady != nil {
			return nil, tv.NotReady
		}
		q, err := rt.readQuery(t, rf, args)
		if err != nil {
			return nil, err
		}
		q.paged = len(tables) == 1 && (rf.Shape == contract.ShapeList || rf.Shape == contract.ShapePage)
		l, err := q.rows(ctx, tv)
		if err != nil {
			return nil, err
		}
		out.add(tv, l)
	}
	return out, nil
}

// readRootQuery reads the arguments of rf against its first table, for
// what applies to all: paging.
func (rt *Runtime) readRootQuery(rf *contract.RootField, args map[string]any) (*ctQuery, error) {
	tables := rt.tablesOf(rf.Entity)
	if len(tables) == 0 {
		return nil, model.Errorf(model.CodeNotReady, "%s serves no table of rows", rf.Name)
	}
	return rt.readQuery(tables[0], rf, args)
}

// ctWindow is the part of a list of rows a field serves, and how it was
// cut: the Relay arguments, or a page.
type ctWindow struct {
	rows       *ctRows
	lo, hi     int
	page, size int
}

// windowOf cuts rows by q's paging arguments and args' Relay ones.
func (rt *Runtime) windowOf(rows *ctRows, q *ctQuery, args map[string]any) (*ctWindow, error) {
	w := &ctWindow{rows: rows, page: max(q.page, 1), size: q.size}
	if q.relay {
		ca, err := answer.ReadConnArgs(args, rt.opt.MaxPageSize)
		if err != nil {
			return nil, err
		}
		w.lo, w.hi, err = ca.Cut(rows.n, rows.pos)
		return w, err
	}
	w.lo, w.hi = q.bounds(rows.n)
	if w.size == 0 && q.limit >= 0 {
		w.size = q.limit
	}
	return w, nil
}
