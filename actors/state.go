package actors

import (
	"encoding/json"
	"fmt"

	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/persistence"
)

// loadJSON reads the grain's checkpoint into v; found is false when there
// is none yet.
func (g *grain) loadJSON(v any) (found bool, err error) {
	b, err := g.env.Store.Get(g.kind, g.id)
	if err != nil || b == nil {
		return false, err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return false, fmt.Errorf("checkpoint %s/%s: %w", g.kind, g.id, err)
	}
	return true, nil
}

// saveJSON writes v as the grain's checkpoint, together with extra puts, in
// one durable transaction. A nil v deletes the checkpoint.
func (g *grain) saveJSON(v any, extra ...persistence.Put) error {
	put := persistence.Put{Kind: g.kind, ID: g.id}
	if b, ok := v.(encoded); ok {
		put.Value = b
	} else if v != nil {
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("checkpoint %s/%s: %w", g.kind, g.id, err)
		}
		put.Value = b
	}
	puts := append([]persistence.Put{put}, extra...)
	var err error
	if dw, ok := g.env.Store.(deadlineWriter); ok && !g.deadline.IsZero() {
		err = dw.WriteBy(g.deadline, puts...)
	} else {
		err = g.env.Store.Write(puts...)
	}
	if me := model.AsError(err); me != nil && me.Code == model.CodeUnavailable {
		g.stale = true
	}
	return err
}

// encoded is a checkpoint encoded already; saveJSON stores it as it is.
type encoded []byte

// commit saves next as the checkpoint and, only if that succeeded, makes it
// the grain's state through set. On failure the state stays as it was.
func commit[T any](g *grain, next T, set func(T), extra ...persistence.Put) error {
	if err := g.saveJSON(next, extra...); err != nil {
		return err
	}
	set(next)
	return nil
}

// clone deep-copies a JSON-shaped value.
func clone[T any](v T) T {
	b, err := json.Marshal(v)
	if err != nil {
		panic("clone: " + err.Error())
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		panic("clone: " + err.Error())
	}
	return out
}
