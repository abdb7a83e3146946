package exec

import (
	"fmt"
	"sync/atomic"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/mockgql/mockgql/model"
)

// Bounds limit what one request may cost the node that runs it, whoever
// sends it: the bytes of its data, the list items it completes (the work
// of a relation fan-out, which the query timeout bounds in time but not in
// memory) and the errors it reports. A node shares one Bounds, and its
// Budget, between every executor it runs. The zero value takes the
// defaults below and has no Budget.
type Bounds struct {
	// MaxResponseBytes limits the data a response carries. 0 means
	// DefaultMaxResponseBytes.
	MaxResponseBytes int
	// MaxItems limits the list items (rows, related rows, values) one
	// request completes. 0 means DefaultMaxItems.
	MaxItems int
	// MaxErrors limits the errors of a response, validation errors
	// included: validation stops at the limit, and field errors past it
	// are summed up in one last error. 0 means DefaultMaxErrors.
	MaxErrors int
	// Budget, when set, is the node's budget of response bytes being
	// written at once, shared by every request of the node.
	Budget *Budget
	// DocumentBounds limit the document of a request before it is
	// validated (validate_budget.go); zero fields take the defaults.
	DocumentBounds
}

// Default bounds of a request.
const (
	DefaultMaxResponseBytes = 8 << 20
	DefaultMaxItems         = 100_000
	DefaultMaxErrors        = 50
	// DefaultBudgetBytes is the node's Budget of response bytes being
	// written at once that `mockgql serve` makes unless told otherwise.
	DefaultBudgetBytes = 256 << 20
	// MaxMessageBytes is the longest error message sent: messages may
	// quote what the client sent.
	MaxMessageBytes = 512
	// budgetChunk is how much a request takes from the Budget at a time,
	// and freeBytes what it may write before it takes any: most answers
	// never touch the shared counter.
	budgetChunk = 256 << 10
	freeBytes   = 32 << 10
)

// withDefaults fills the zero fields of b.
func (b Bounds) withDefaults() Bounds {
	if b.MaxResponseBytes <= 0 {
		b.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if b.MaxItems <= 0 {
		b.MaxItems = DefaultMaxItems
	}
	if b.MaxErrors <= 0 {
		b.MaxErrors = DefaultMaxErrors
	}
	b.DocumentBounds = b.DocumentBounds.withDefaults()
	return b
}

// Budget is a node's budget of response bytes in flight: every execution
// takes from it, in chunks, as its data grows past a small free allowance,
// and gives everything back when it ends, or, for an answer written to a
// client afterwards (ExecuteHeld, HoldAnswer), once it has been written. An execution that cannot take
// more is refused UNAVAILABLE (retry shortly), so N concurrent large
// answers cannot hold more than the budget (plus the free allowance of
// each). Safe for concurrent use.
type Budget struct {
	size int64
	left atomic.Int64
}

// NewBudget returns a budget of size bytes.
func NewBudget(size int64) *Budget {
	b := &Budget{size: size}
	b.left.Store(size)
	return b
}

// Size is the budget's size in bytes.
func (b *Budget) Size() int64 { return b.size }

// InUse is the number of bytes taken now.
func (b *Budget) InUse() int64 { return b.size - b.left.Load() }

// take takes n bytes, or nothing and false when fewer are left.
func (b *Budget) take(n int64) bool {
	if b.left.Add(-n) < 0 {
		b.left.Add(n)
		return false
	}
	return true
}

// give returns n bytes taken before.
func (b *Budget) give(n int64) { b.left.Add(n) }

// Give returns n bytes an answer held (Result.Held, HoldAnswer) once it
// has been written. It implements model.Lender.
func (b *Budget) Give(n int64) { b.give(n) }

// HoldAnswer takes the bytes of an answer of n bytes made elsewhere (by
// another node, or a grain's execution that gave its own back), past the
// free allowance every answer has, even when fewer are left: the answer
// exists already, and refusing it could lose a mutation's result. Held
// answers leave less for executions, which are refused while the Budget is
// spent. It returns the bytes taken, to give back once it is written.
func (b *Budget) HoldAnswer(n int) int64 {
	if n <= freeBytes {
		return 0
	}
	held := int64(n - freeBytes)
	b.left.Add(-held)
	return held
}

// tooLarge is the error of an execution that ran past a bound: it unwinds
// the execution as the end of its context does (run.ctxErr), and Execute
// returns it. The HTTP layer answers it 413 PAYLOAD_TOO_LARGE.
func tooLarge(what string, limit int) error {
	return &model.Error{Code: model.CodePayloadTooLarge,
		Message: fmt.Sprintf("the response would %s; narrow the query (smaller pageSize, fewer aliases or nested relations)", what),
		Extra:   map[string]any{"limit": limit}}
}

// overBound is called once len(r.buf) passed r.bound: it refuses a
// response over MaxResponseBytes, else takes another chunk of the Budget
// (refusing when the node has none left) and moves r.bound. It returns
// false, with r.ctxErr set, when execution must stop.
func (r *run) overBound() bool {
	b := &r.p.ex.Bounds
	n := len(r.buf)
	if n > b.MaxResponseBytes {
		r.ctxErr = tooLarge(fmt.Sprintf("exceed %d bytes (the node's --max-response-bytes)", b.MaxResponseBytes), b.MaxResponseBytes)
		return false
	}
	if b.Budget == nil {
		r.bound = b.MaxResponseBytes
		return true
	}
	need := int64(n-freeBytes-r.taken) + budgetChunk
	need -= need % budgetChunk
	if !b.Budget.take(need) {
		r.ctxErr = &model.Error{Code: model.CodeUnavailable, RetryAfter: 1,
			Message: "this node is writing as many large answers as it may at once; retry shortly"}
		return false
	}
	r.taken += int(need)
	r.bound = min(freeBytes+r.taken, b.MaxResponseBytes)
	return true
}

// tooManyItems stops an execution that completed more than MaxItems list items.
func (r *run) tooManyItems() bool {
	b := &r.p.ex.Bounds
	r.ctxErr = tooLarge(fmt.Sprintf("list more than %d items (the node's --max-response-items)", b.MaxItems), b.MaxItems)
	return false
}

// giveBack returns what the execution took from the Budget.
func (r *run) giveBack() {
	if r.taken > 0 {
		r.p.ex.Bounds.Budget.give(int64(r.taken))
		r.taken = 0
	}
}

// fieldErrorRoom reports whether a field error may still be added to r's
// errors; when not, it counts it as left out, keeping the code of the
// first one left out.
func (r *run) fieldErrorRoom(code model.Code) bool {
	if len(r.errs) < r.p.ex.Bounds.MaxErrors-1 {
		return true
	}
	if r.omitted == 0 {
		r.omittedCode = code
	}
	r.omitted++
	return false
}

// omittedError sums up n errors left out of a response that carries at
// most max, the first of them with code.
func omittedError(n int, code model.Code, max int) *gqlerror.Error {
	return &gqlerror.Error{
		Message:    fmt.Sprintf("%d more errors left out: a response carries at most %d", n, max),
		Extensions: map[string]any{"code": code, "omitted": n},
	}
}
