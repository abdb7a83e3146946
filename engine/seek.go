package engine

import (
	"context"
	"slices"
)

// Window is a Relay window of a Query's rows: the rows after the row whose
// id is After and before the one whose id is Before ("" for either: from
// the start, to the end), then the first First of them, then the last Last
// (a negative count is not given).
type Window struct {
	After, Before string
	First, Last   int
}

// Seeked is the rows of a Window, in the query's order, with what a
// connection's pageInfo says: Total matches, and whether matches lie
// before (HasPrev) and after (HasNext) the rows.
type Seeked struct {
	Rows             []int32
	Total            int
	HasPrev, HasNext bool
}

// CursorGoneError is Seek's refusal of a window whose After (Before false)
// or Before row no longer exists or no longer matches the query.
type CursorGoneError struct{ Before bool }

func (e *CursorGoneError) Error() string {
	if e.Before {
		return "the before row is gone"
	}
	return "the after row is gone"
}

// Seek serves w from the indexes: the rows of After and Before are found
// by id and placed in the query's order (their keys' ranks and row number
// locate them), and the rows are read from there, forwards from After (or
// the start) when First is given, else backwards from Before (or the end)
// for Last, rather than listing every match. ok is false when the indexes
// do not cover pq (the caller lists All and cuts the window itself).
func (pq *Query) Seek(ctx context.Context, tv *TableView, w Window) (res Seeked, ok bool, err error) {
	s, ok, err := pq.indexedSet(ctx, tv)
	if err != nil || !ok {
		return Seeked{}, false, err
	}
	defer s.release()
	a, b := int32(-1), int32(-1)
	if w.After != "" {
		if a = seekRow(tv, &s, w.After); a < 0 {
			return Seeked{}, true, &CursorGoneError{}
		}
	}
	if w.Before != "" {
		if b = seekRow(tv, &s, w.Before); b < 0 {
			return Seeked{}, true, &CursorGoneError{Before: true}
		}
	}
	order := pq.Compare(tv)
	if a >= 0 && b >= 0 && order(b, a) <= 0 {
		// Before is not after After: no row lies between them.
		next := pq.afterMembers(tv, &s, a, 1)
		return Seeked{Total: s.total(), HasPrev: true, HasNext: len(next) > 0}, true, nil
	}
	if w.First >= 0 {
		return pq.seekForward(tv, &s, w, a, b), true, nil
	}
	rows := pq.beforeMembers(tv, &s, b, w.Last+1)
	if a >= 0 {
		i, _ := slices.BinarySearchFunc(rows, a, order)
		if i < len(rows) && rows[i] == a {
			i++
		}
		rows = rows[i:]
	}
	n := min(w.Last, len(rows))
	return Seeked{Rows: rows[len(rows)-n:], Total: s.total(), HasPrev: a >= 0 || len(rows) > n, HasNext: b >= 0}, true, nil
}

// seekForward serves a window with First: the first First+1 matches
// after row a (a < 0: from the start), cut at row b (b >= 0), then their
// last Last. Matches lie after the rows when b is set (b itself does) or
// the rows did not take every row read.
func (pq *Query) seekForward(tv *TableView, s *powerSet, w Window, a, b int32) Seeked {
	var rows []int32
	if a >= 0 {
		rows = pq.afterMembers(tv, s, a, w.First+1)
	} else {
		rows = pq.rowsOf(tv, s, 0, w.First+1).Rows
	}
	if b >= 0 {
		i, _ := slices.BinarySearchFunc(rows, b, pq.Compare(tv))
		rows = rows[:i]
	}
	page := rows[:min(w.First, len(rows))]
	hasNext := b >= 0 || len(rows) > len(page)
	hi := len(page)
	if w.Last >= 0 {
		page = page[max(0, hi-w.Last):]
	}
	return Seeked{Rows: page, Total: s.total(), HasPrev: a >= 0 || len(page) < hi, HasNext: hasNext}
}

// seekRow returns the row whose id is id if it matches (a dataset row
// without a record in the set's bitset, else among its live rows), or -1.
func seekRow(tv *TableView, s *powerSet, id string) int32 {
	r := tv.RowByID(id)
	switch {
	case r < 0:
	case tv.Unchanged(r):
		if s.has(r) {
			return r
		}
	case slices.Contains(s.Live, r):
		return r
	}
	return -1
}
