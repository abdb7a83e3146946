package graphql

import (
	"context"
	"encoding/base64"
	"strings"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// This file serves the Relay connection field of a LIST operation with
// the relay option (<op>Connection). A cursor is the base64url text of
// "row:" and the row's id: it names the row, not a position, so it stays
// valid while other rows are added, changed or deleted. The window is
// the rows after `after` and before `before`, then the first `first` of
// them, then the last `last`; hasPreviousPage and hasNextPage tell
// whether matching rows lie before and after the edges served.

const cursorPrefix = "row:"

func encodeCursor(id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + id))
}

func decodeCursor(c string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || !strings.HasPrefix(string(b), cursorPrefix) {
		return "", model.Errorf(model.CodeBadUserInput, "cursor %q is not a cursor of this API", clip(c))
	}
	return string(b[len(cursorPrefix):]), nil
}

func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}

// connArgs are the Relay arguments; -1 means absent.
type connArgs struct {
	first, last   int
	after, before string
}

func (rt *Runtime) readConnArgs(args map[string]any) (connArgs, error) {
	a := connArgs{first: -1, last: -1}
	for _, k := range []string{"first", "last"} {
		v, ok := args[k].(int)
		if !ok {
			continue
		}
		if v < 0 {
			return a, model.Errorf(model.CodeBadUserInput, "%s must not be negative", k)
		}
		v = min(v, rt.opt.MaxPageSize)
		if k == "first" {
			a.first = v
		} else {
			a.last = v
		}
	}
	if a.first < 0 && a.last < 0 {
		a.first = 20
	}
	a.after, _ = args["after"].(string)
	a.before, _ = args["before"].(string)
	return a, nil
}

// connectionResolver serves <op>Connection.
func (rt *Runtime) connectionResolver(o *operation) exec.Resolver {
	return func(ctx context.Context, f *exec.Field) (any, error) {
		ca, err := rt.readConnArgs(f.Args)
		if err != nil {
			return nil, err
		}
		tv := rootView(f).TableView(o.t)
		if tv.NotReady != nil {
			f.Report(tv.NotReady)
			return connectionValue(tv, engine.RowList{Rows: []int32{}}, 0, 0), nil
		}
		pq, err := o.powerQuery(f.Args)
		if err != nil {
			return nil, err
		}
		if ca.after == "" && ca.before == "" && ca.last < 0 && pq.Simple() {
			rows, err := firstRows(ctx, pq.List, tv, ca.first)
			if err != nil {
				return nil, err
			}
			return connectionValue(tv, rows, 0, min(ca.first, rows.Len())), nil
		}
		if v, ok, err := ca.seek(ctx, tv, pq); ok || err != nil {
			return v, err
		}
		rows, err := pq.All(ctx, tv)
		if err != nil {
			return nil, err
		}
		lo, hi, err := ca.window(tv, rows)
		if err != nil {
			return nil, err
		}
		return connectionValue(tv, rows, lo, hi), nil
	}
}

// seek serves the window from the indexes (engine.Query.Seek); ok is
// false when the indexes do not cover pq.
func (ca connArgs) seek(ctx context.Context, tv *engine.TableView, pq *engine.Query) (map[string]any, bool, error) {
	w := engine.Window{First: ca.first, Last: ca.last}
	var err error
	if ca.after != "" {
		if w.After, err = decodeCursor(ca.after); err != nil {
			return nil, true, err
		}
	}
	if ca.before != "" {
		if w.Before, err = decodeCursor(ca.before); err != nil {
			return nil, true, err
		}
	}
	res, ok, err := pq.Seek(ctx, tv, w)
	if gone, isGone := err.(*engine.CursorGoneError); isGone {
		if gone.Before {
			return nil, true, cursorGone(ca.before)
		}
		return nil, true, cursorGone(ca.after)
	}
	if err != nil || !ok {
		return nil, ok, err
	}
	return connectionOf(tv, res.Rows, res.Total, res.HasPrev, res.HasNext), true, nil
}

func cursorGone(c string) error {
	return model.Errorf(model.CodeBadUserInput, "the row of cursor %q was deleted or no longer matches; start again without after/before", clip(c))
}

// firstRows returns the list with at least its first n rows at hand.
func firstRows(ctx context.Context, q *engine.ListQuery, tv *engine.TableView, n int) (engine.RowList, error) {
	if n == 0 {
		n = 1 // page size 0 means the default; one row costs nothing
	}
	return tv.PageRows(ctx, q, 1, n)
}

// window applies after, before, first and last to rows.
func (ca connArgs) window(tv *engine.TableView, rows engine.RowList) (lo, hi int, err error) {
	return ca.cut(rows.Len(), func(c string) (int, error) { return cursorPos(tv, rows, c) })
}

// cut applies after, before, first and last to n rows, pos finding the
// position of a cursor's row.
func (ca connArgs) cut(n int, pos func(cursor string) (int, error)) (lo, hi int, err error) {
	lo, hi = 0, n
	if ca.after != "" {
		p, err := pos(ca.after)
		if err != nil {
			return 0, 0, err
		}
		lo = p + 1
	}
	if ca.before != "" {
		if hi, err = pos(ca.before); err != nil {
			return 0, 0, err
		}
	}
	hi = max(lo, hi)
	if ca.first >= 0 {
		hi = min(hi, lo+ca.first)
	}
	if ca.last >= 0 {
		lo = max(lo, hi-ca.last)
	}
	return lo, hi, nil
}

// cursorPos is the position in rows of the cursor's row.
func cursorPos(tv *engine.TableView, rows engine.RowList, c string) (int, error) {
	id, err := decodeCursor(c)
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
	return 0, cursorGone(c)
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
	nodes := objects(tv, engine.RowList{Rows: rows}, 0, len(rows))
	edges := make([]any, len(nodes))
	var start, end any
	for i, n := range nodes {
		c := encodeCursor(tv.ID(n.(*rowObj).row))
		edges[i] = map[string]any{"cursor": c, "node": n}
		if i == 0 {
			start = c
		}
		end = c
	}
	info := map[string]any{"hasPreviousPage": hasPrev, "hasNextPage": hasNext, "startCursor": start, "endCursor": end}
	return map[string]any{"edges": edges, "pageInfo": info, "totalCount": total}
}
