package answer

import "github.com/mockgql/mockgql/engine"

// mutation is the root value of a running mutation: it stacks the changes
// of each root field on a private copy of the overlay state, so later
// fields (and the returned rows) see earlier ones, while the overlay itself
// stays as it was until the caller applies the changes.
type Mutation struct {
	Env  *engine.Env
	Pool engine.Pool // the runtime's pool (Runtime.Pool)
	Ov   *engine.Overlay
	Base *engine.OverlayState // the snapshot the mutation started from
	St   *engine.OverlayState // base plus log
	Log  []engine.Change
}

// View returns a View of the current state. Only the published snapshot
// may use the shared cache.
func (m *Mutation) View() *engine.View {
	return engine.NewView(m.Env, m.Pool, m.Ov, m.St, m.St == m.Base)
}

func (m *Mutation) Apply(c engine.Change) {
	m.St = m.St.With([]engine.Change{c})
	m.Log = append(m.Log, c)
}

// Changes returns one Change per row, the latest, in the order of last change.
func (m *Mutation) Changes() []engine.Change {
	type key struct{ t, r string }
	last := map[key]int{}
	for i, c := range m.Log {
		last[key{c.TableID, c.RowID}] = i
	}
	var out []engine.Change
	for i, c := range m.Log {
		if last[key{c.TableID, c.RowID}] == i {
			out = append(out, c)
		}
	}
	return out
}
