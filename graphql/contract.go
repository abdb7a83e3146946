package graphql

import (
	"encoding/json"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/contractrt"
	"github.com/mockgql/mockgql/graphql/internal/answer"
	"github.com/mockgql/mockgql/graphql/internal/gen"
	"github.com/mockgql/mockgql/model"
)

// The names below are the runtime's API for what its parts own: events
// and subscription targets (package answer, shared by the table and the
// contract runtime), the budget of contract compiles (package contractrt)
// and the generators of fake values (package gen).

type (
	// Event is a change of one row, to be rendered for subscribers.
	Event = answer.Event
	// EventKind is what happened to a row.
	EventKind = answer.EventKind
	// SubTarget is what a prepared subscription follows.
	SubTarget = answer.SubTarget
	// Compiles is a node's budget of contract compiles.
	Compiles = contractrt.Compiles
	// GeneratorInfo describes a generator kind for the board.
	GeneratorInfo = gen.GeneratorInfo
	// GeneratorOption describes an option of a generator kind.
	GeneratorOption = gen.GeneratorOption
)

// The kinds of events.
const (
	EventCreated   = answer.EventCreated
	EventUpdated   = answer.EventUpdated
	EventDeleted   = answer.EventDeleted
	EventGenerated = answer.EventGenerated
)

// MaxGeneratedBytes is the default bound of a contract project's
// generated rows (Options.MaxGeneratedBytes).
const MaxGeneratedBytes = contractrt.MaxGeneratedBytes

// NewCompiles returns a budget of slots concurrent contract compiles.
func NewCompiles(slots int) *Compiles { return contractrt.NewCompiles(slots) }

// DefaultCompileSlots is the number of compile slots of a node.
func DefaultCompileSlots() int { return contractrt.DefaultCompileSlots() }

// Pool returns the pool a request of rt reads: pool, behind the generated
// datasets of a contract project. Callers outside the runtime that read a
// contract project's tables (previews, exports) use it too.
func (rt *Runtime) Pool(pool engine.Pool) engine.Pool {
	if rt.contract == nil {
		return pool
	}
	return rt.contract.Pool(pool)
}

// CheckGenerator refuses a generator that cannot run (gen.CheckGenerator).
func CheckGenerator(g *model.Generator) error { return gen.CheckGenerator(g) }

// GeneratorKinds lists the generator kinds (gen.GeneratorKinds).
func GeneratorKinds() []string { return gen.GeneratorKinds() }

// GeneratorCatalog describes the generator kinds (gen.GeneratorCatalog).
func GeneratorCatalog() []GeneratorInfo { return gen.GeneratorCatalog() }

// GeneratorPreview returns the values g gives the first n records
// (gen.GeneratorPreview).
func GeneratorPreview(g *model.Generator, n int) ([]json.RawMessage, error) {
	return gen.GeneratorPreview(g, n)
}

// Values returns a generator kind's value for a seed (gen.Values).
func Values(kind string, options map[string]any, seed uint64) (any, error) {
	return gen.Values(kind, options, seed)
}
