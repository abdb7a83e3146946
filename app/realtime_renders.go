package app

import (
	"context"
	"sync"

	"github.com/mockgql/mockgql/actors"
)

// renders shares the rendering of one event among the subscriptions of a
// node that run the same request: a thousand subscribers of one document
// cost one render per event, not a thousand. It keeps the last
// renderCacheSize renderings (requests and results, each bounded by
// --sub-message-bytes and the runtime's response bounds). Safe for
// concurrent use.
type renders struct {
	mu    sync.Mutex
	byKey map[renderKey]*rendering
	order []renderKey // oldest first, for eviction
}

// renderCacheSize is how many renderings a node keeps.
const renderCacheSize = 256

type renderKey struct {
	project, activation string
	seq                 int64
	body                string
}

// rendering is one event rendered for one request, once.
type rendering struct {
	done chan struct{}
	out  []byte
	ok   bool
	err  error
}

// render returns the rendering of ev for body, making it (through
// grains) when no other subscription made or is making it.
func (r *renders) render(ctx context.Context, grains *actors.Client, projectID string, ev actors.RowEvent, body []byte) ([]byte, bool, error) {
	k := renderKey{projectID, ev.Activation, ev.Seq, string(body)}
	r.mu.Lock()
	if r.byKey == nil {
		r.byKey = map[renderKey]*rendering{}
	}
	e, found := r.byKey[k]
	if !found {
		e = &rendering{done: make(chan struct{})}
		r.byKey[k] = e
		r.order = append(r.order, k)
		if len(r.order) > renderCacheSize {
			delete(r.byKey, r.order[0])
			r.order = r.order[1:]
		}
	}
	r.mu.Unlock()
	if !found {
		e.out, e.ok, e.err = grains.RenderEvent(ctx, projectID, ev, body)
		close(e.done)
		if e.err != nil { // a failure (a deadline, a node away) is not shared with later callers
			r.mu.Lock()
			if r.byKey[k] == e {
				delete(r.byKey, k)
			}
			r.mu.Unlock()
		}
		return e.out, e.ok, e.err
	}
	select {
	case <-e.done:
		return e.out, e.ok, e.err
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
}
