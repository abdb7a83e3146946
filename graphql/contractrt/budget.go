package contractrt

import (
	"context"
	"errors"
	"hash/fnv"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/model"
)

// The compile budget of contract projects (docs/reference/bounds.md,
// "Imported GraphQL schemas"). The import bounds the values a project's
// rows hold (contract.Plan.CheckCells); the compile checks them again,
// for projects stored before those bounds, and bounds what it makes as
// it goes: the bytes of generated rows, and the caller's deadline. A
// compile that fails is remembered for the model version, so a runtime
// call does not start it again; compiles wait for one of a few slots of
// the node (Compiles), so that many projects' first calls at once do not
// hold a compile's memory each.

// MaxGeneratedBytes bounds the generated rows of a contract project, as
// the NDJSON text they are read from: the compile refuses past it with
// LIMIT_REACHED naming the type.
const MaxGeneratedBytes = 128 << 20

// maxFailedCompiles bounds the failures remembered; past it they are
// forgotten all at once (each is a few hundred bytes).
const maxFailedCompiles = 1024

// Compiles is a node's budget of contract compiles: the slots they share
// and the failures remembered per model version. A node makes one and
// shares it with every runtime it compiles (Options.Compiles), as it
// shares its query cache. It is safe for concurrent use.
type Compiles struct {
	slots  chan struct{}
	mu     sync.Mutex
	failed map[compileKey]error
	runs   atomic.Int64
}

// NewCompiles returns a budget of slots compiles at once (at least 1).
func NewCompiles(slots int) *Compiles {
	return &Compiles{slots: make(chan struct{}, max(slots, 1)), failed: map[compileKey]error{}}
}

// DefaultCompileSlots is the compiles a node runs at once: half its
// processors, at least 2 (a compile at the bounds takes a few CPU seconds
// and a hundred megabytes or so).
func DefaultCompileSlots() int { return max(2, runtime.GOMAXPROCS(0)/2) }

// Runs returns how many contract compiles ran, not counting those
// answered from a remembered failure.
func (c *Compiles) Runs() int64 { return c.runs.Load() }

// compileKey names a model version of a project: its ID and version, and
// a hash of its document and row settings, so that two projects that
// share an ID (tests, a project deleted and made again) are told apart.
type compileKey struct {
	project string
	version int64
	doc     uint64
}

// keyOf is the compileKey of p, a contract project.
func keyOf(p *model.Project) compileKey {
	h := fnv.New64a()
	h.Write([]byte(p.Contract.Document))
	for _, t := range p.Contract.Tables {
		h.Write([]byte{0})
		h.Write([]byte(t.Type + "\x00" + strconv.Itoa(t.Rows) + "\x00" + t.ImportCode))
	}
	return compileKey{p.ID, p.Version, h.Sum64()}
}

// failure returns the error of a failed compile of k, or nil.
func (c *Compiles) failure(k compileKey) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.failed[k]
}

// remember keeps err as the answer of every compile of k.
func (c *Compiles) remember(k compileKey, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.failed) >= maxFailedCompiles {
		clear(c.failed)
	}
	c.failed[k] = err
}

// transient reports whether err says that ctx ended rather than that the
// model version cannot compile.
func transient(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		model.ErrorCode(err) == model.CodeQueryTimeout
}

// errCompileTimeout is the refusal of a compile that did not get a slot,
// or did not finish, within its caller's deadline.
func errCompileTimeout() error {
	return model.Errorf(model.CodeQueryTimeout, "the project's schema could not be compiled within the request's time limit; retry")
}

// Compile builds the runtime of the contract project p in one of c's
// slots within ctx, remembering a failure for p's model version; tables
// are the tables package graphql compiled from p's model and env the
// graphql.Runtime's query cache. A nil c gives the compile a budget of
// its own (tests, one-off compiles).
func (c *Compiles) Compile(ctx context.Context, p *model.Project, tables []*engine.Table, env *engine.Env, opt Options) (*Runtime, error) {
	if c == nil {
		c = NewCompiles(1)
	}
	k := keyOf(p)
	if err := c.failure(k); err != nil {
		return nil, err
	}
	select {
	case c.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, errCompileTimeout()
	}
	defer func() { <-c.slots }()
	if err := c.failure(k); err != nil { // one that held the slot failed meanwhile
		return nil, err
	}
	c.runs.Add(1)
	rt, err := compile(ctx, p, tables, env, opt)
	if err != nil && !transient(ctx, err) {
		c.remember(k, err)
	}
	return rt, err
}
