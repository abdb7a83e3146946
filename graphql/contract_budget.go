package graphql

import (
	"context"
	"errors"
	"hash/fnv"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/mockgql/mockgql/model"
)

// The compile budget of contract projects (docs/reference/bounds.md,
// "Imported GraphQL schemas"). The import bounds the values a project's
// rows hold (contract.Plan.CheckCells); the compile checks them again,
// for projects stored before those bounds, and bounds what it makes as
// it goes: the bytes of generated rows, and the caller's deadline. A
// compile that fails is remembered for the model version, so a runtime
// call does not start it again; compiles wait for one of a few slots of
// the process, so that many projects' first calls at once do not hold a
// compile's memory each.

// MaxGeneratedBytes bounds the generated rows of a contract project, as
// the NDJSON text they are read from: the compile refuses past it with
// LIMIT_REACHED naming the type.
const MaxGeneratedBytes = 128 << 20

// compileSlots bounds the contract compiles that run at once in the
// process.
var compileSlots = make(chan struct{}, max(2, runtime.GOMAXPROCS(0)/2))

// maxFailedCompiles bounds the failures remembered; past it they are
// forgotten all at once (each is a few hundred bytes).
const maxFailedCompiles = 1024

// compileKey names a model version of a project: its ID and version, and
// a hash of its document and row settings, so that two projects that
// share an ID (tests, a project deleted and made again) are told apart.
type compileKey struct {
	project string
	version int64
	doc     uint64
}

var failedCompiles = struct {
	sync.Mutex
	m map[compileKey]error
}{m: map[compileKey]error{}}

// compileRuns counts the contract compiles that ran (tests read it).
var compileRuns atomic.Int64

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

// rememberedFailure returns the error of a failed compile of k, or nil.
func rememberedFailure(k compileKey) error {
	failedCompiles.Lock()
	defer failedCompiles.Unlock()
	return failedCompiles.m[k]
}

// rememberFailure keeps err as the answer of every compile of k.
func rememberFailure(k compileKey, err error) {
	failedCompiles.Lock()
	defer failedCompiles.Unlock()
	if len(failedCompiles.m) >= maxFailedCompiles {
		clear(failedCompiles.m)
	}
	failedCompiles.m[k] = err
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

// compileContractBudgeted is compileContract in a slot, remembering a
// failure for p's model version.
func compileContractBudgeted(ctx context.Context, rt *Runtime, p *model.Project) error {
	k := keyOf(p)
	if err := rememberedFailure(k); err != nil {
		return err
	}
	select {
	case compileSlots <- struct{}{}:
	case <-ctx.Done():
		return errCompileTimeout()
	}
	defer func() { <-compileSlots }()
	if err := rememberedFailure(k); err != nil { // one that held the slot failed meanwhile
		return err
	}
	compileRuns.Add(1)
	err := compileContract(ctx, rt, p)
	if err != nil && !transient(ctx, err) {
		rememberFailure(k, err)
	}
	return err
}
