package graphql

import (
	"context"
	"encoding/base64"
	"slices"
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

// seek serves the window from the indexes: the cursors' rows are found
// by id and placed in the query's order (their keys' ranks and row number
// locate them), and the page is read from there, forwards from after (or
// the start) when first is given, else backwards from before (or the end)
// for last, rather than listing every match. ok is false when the
// indexes do not cover pq.
func (ca connArgs) seek(ctx context.Context, tv *engine.TableView, pq *engine.Query) (map[string]any, bool, error) {
	s, ok, err := pq.IndexedSet(ctx, tv)
	if err != nil || !ok {
		return nil, false, err
	}
	defer s.Release()
	a, b := int32(-1), int32(-1)
	if ca.after != "" {
		if a, err = cursorRow(tv, &s, ca.after); err != nil {
			return nil, true, err
		}
	}
	if ca.before != "" {
		if b, err = cursorRow(tv, &s, ca.before); err != nil {
			return nil, true, err
		}
	}
	order := pq.Compare(tv)
	if a >= 0 && b >= 0 && order(b, a) <= 0 {
		// before is not after after: no row lies between them.
		next := pq.AfterMembers(tv, &s, a, 1)
		return connectionOf(tv, nil, s.Total(), true, len(next) > 0), true, nil
	}
	if ca.first >= 0 {
		return ca.seekForward(tv, &s, pq, a, b), true, nil
	}
	rows := pq.BeforeMembers(tv, &s, b, ca.last+1)
	if a >= 0 {
		i, _ := slices.BinarySearchFunc(rows, a, order)
		if i < len(rows) && rows[i] == a {
			i++
		}
		rows = rows[i:]
	}
	n := min(ca.last, len(rows))
	return connectionOf(tv, rows[len(rows)-n:], s.Total(), a >= 0 || len(rows) > n, b >= 0), true, nil
}

// seekForward serves a window with first: the first first+1 matches
// after row a (a < 0: from the start), cut at row b (b >= 0), then their
// last last. Matches lie after the page when b is set (b itself does) or
// the page did not take every row read.
func (ca connArgs) seekForward(tv *engine.TableView, s *engine.PowerSet, pq *engine.Query, a, b int32) map[string]any {
	var rows []int32
	if a >= 0 {
		rows = pq.AfterMembers(tv, s, a, ca.first+1)
	} else {
		rows = pq.RowsOf(tv, s, 0, ca.first+1).Rows
	}
	if b >= 0 {
		i, _ := slices.BinarySearchFunc(rows, b, pq.Compare(tv))
		rows = rows[:i]
	}
	page := rows[:min(ca.first, len(rows))]
	hasNext := b >= 0 || len(rows) > len(page)
	hi := len(page)
	if ca.last >= 0 {
		page = page[max(0, hi-ca.last):]
	}
	return connectionOf(tv, page, s.Total(), a >= 0 || len(page) < hi, hasNext)
}

// cursorRow returns the row of cursor c, which must match: a dataset row
// without a record in the set's bitset, else among its live rows.
func cursorRow(tv *engine.TableView, s *engine.PowerSet, c string) (int32, error) {
	id, err := decodeCursor(c)
	if err != nil {
		return 0, err
	}
	r := tv.RowByID(id)
	switch {
	case r < 0:
	case tv.Unchanged(r):
		if s.Has(r) {
			return r, nil
		}
	case slices.Contains(s.Live, r):
		return r, nil
	}
	return 0, cursorGone(c)
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
