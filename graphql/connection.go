package graphql

import (
	"context"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/graphql/internal/answer"
)

// This file serves the Relay connection field of a LIST operation with
// the relay option (<op>Connection). A cursor is the base64url text of
// "row:" and the row's id: it names the row, not a position, so it stays
// valid while other rows are added, changed or deleted. The window is
// the rows after `after` and before `before`, then the first `first` of
// them, then the last `last`; hasPreviousPage and hasNextPage tell
// whether matching rows lie before and after the edges served.

// connectionResolver serves <op>Connection.
func (rt *Runtime) connectionResolver(o *operation) exec.Resolver {
	return func(ctx context.Context, f *exec.Field) (any, error) {
		ca, err := answer.ReadConnArgs(f.Args, rt.opt.MaxPageSize)
		if err != nil {
			return nil, err
		}
		tv := answer.RootView(f).TableView(o.t)
		if tv.NotReady != nil {
			f.Report(tv.NotReady)
			return connectionValue(tv, engine.RowList{Rows: []int32{}}, 0, 0), nil
		}
		pq, err := o.powerQuery(f.Args)
		if err != nil {
			return nil, err
		}
		if ca.After == "" && ca.Before == "" && ca.Last < 0 && pq.Simple() {
			rows, err := firstRows(ctx, pq.List, tv, ca.First)
			if err != nil {
				return nil, err
			}
			return connectionValue(tv, rows, 0, min(ca.First, rows.Len())), nil
		}
		if v, ok, err := seek(ca, ctx, tv, pq); ok || err != nil {
			return v, err
		}
		rows, err := pq.All(ctx, tv)
		if err != nil {
			return nil, err
		}
		lo, hi, err := window(ca, tv, rows)
		if err != nil {
			return nil, err
		}
		return connectionValue(tv, rows, lo, hi), nil
	}
}

// seek serves the window from the indexes (engine.Query.Seek); ok is
// false when the indexes do not cover pq.
func seek(ca answer.ConnArgs, ctx context.Context, tv *engine.TableView, pq *engine.Query) (map[string]any, bool, error) {
	w := engine.Window{First: ca.First, Last: ca.Last}
	var err error
	if ca.After != "" {
		if w.After, err = answer.DecodeCursor(ca.After); err != nil {
			return nil, true, err
		}
	}
	if ca.Before != "" {
		if w.Before, err = answer.DecodeCursor(ca.Before); err != nil {
			return nil, true, err
		}
	}
	res, ok, err := pq.Seek(ctx, tv, w)
	if gone, isGone := err.(*engine.CursorGoneError); isGone {
		if gone.Before {
			return nil, true, answer.CursorGone(ca.Before)
		}
		return nil, true, answer.CursorGone(ca.After)
	}
	if err != nil || !ok {
		return nil, ok, err
	}
	return connectionOf(tv, res.Rows, res.Total, res.HasPrev, res.HasNext), true, nil
}

// firstRows returns the list with at least its first n rows at hand.
func firstRows(ctx context.Context, q *engine.ListQuery, tv *engine.TableView, n int) (engine.RowList, error) {
	if n == 0 {
		n = 1 // page size 0 means the default; one row costs nothing
	}
	return tv.PageRows(ctx, q, 1, n)
}

// window applies after, before, first and last to rows.
func window(ca answer.ConnArgs, tv *engine.TableView, rows engine.RowList) (lo, hi int, err error) {
	return ca.Cut(rows.Len(), func(c string) (int, error) { return cursorPos(tv, rows, c) })
}

// cursorPos is the position in rows of the cursor's row.
func cursorPos(tv *engine.TableView, rows engine.RowList, c string) (int, error) {
	id, err := answer.DecodeCursor(c)
	if err != nil {
		return 0, err
	}
	if r := tv.RowByID(id); r >= 0 {
		for i := 0; i < rows.Len(); i++ {
			if rows.At(i) == r {
				return i, nil
			}
		}
	}
	return 0, answer.CursorGone(c)
}

// connectionValue is the connection of rows lo..hi-1 of rows.
func connectionValue(tv *engine.TableView, rows engine.RowList, lo, hi int) map[string]any {
	page := make([]int32, 0, hi-lo)
	for i := lo; i < hi; i++ {
		page = append(page, rows.At(i))
	}
	return connectionOf(tv, page, rows.Len(), lo > 0, hi < rows.Len())
}

// connectionOf is the connection of the edges of rows, total matches.
func connectionOf(tv *engine.TableView, rows []int32, total int, hasPrev, hasNext bool) map[string]any {
	nodes := answer.Objects(tv, engine.RowList{Rows: rows}, 0, len(rows))
	edges := make([]any, len(nodes))
	var start, end any
	for i, n := range nodes {
		c := answer.EncodeCursor(tv.ID(n.(*answer.RowObj).Row))
		edges[i] = map[string]any{"cursor": c, "node": n}
		if i == 0 {
			start = c
		}
		end = c
	}
	info := map[string]any{"hasPreviousPage": hasPrev, "hasNextPage": hasNext, "startCursor": start, "endCursor": end}
	return map[string]any{"edges": edges, "pageInfo": info, "totalCount": total}
}
