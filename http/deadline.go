package http

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// deadlineContext is context.WithDeadline made on first need: until
// something waits on Done (a grain call, a child context), it is the
// parent with a deadline that Err checks against the clock, so a request
// answered without waiting (a cached answer, checks made from this node's
// snapshots) sets no timer and registers no child with the connection's
// context (issue 33: 6% of a repeated query's CPU). It stands for the
// context WithDeadline would give: the same Deadline, Err Canceled or
// DeadlineExceeded whenever that one's would be, Done closing when that
// one's would. Safe for concurrent use.
type deadlineContext struct {
	context.Context // the parent: Value
	deadline        time.Time
	mu              sync.Mutex // making real
	real            atomic.Pointer[madeContext]
	stopped         atomic.Bool
}

// madeContext is the timer-backed context, made by Done.
type madeContext struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// withDeadline returns a context that ends at d, or with parent, and its
// cancel function, which must be called.
func withDeadline(parent context.Context, d time.Time) (*deadlineContext, context.CancelFunc) {
	c := &deadlineContext{Context: parent, deadline: d}
	return c, c.stop
}

// Deadline implements context.Context.
func (c *deadlineContext) Deadline() (time.Time, bool) { return c.deadline, true }

// Done implements context.Context.
func (c *deadlineContext) Done() <-chan struct{} { return c.make().Done() }

// AfterFunc lets context.WithCancel and its kind, given c as the parent,
// follow it without a goroutine of their own (context.AfterFunc).
func (c *deadlineContext) AfterFunc(f func()) func() bool { return context.AfterFunc(c.make(), f) }

// make returns the timer-backed context, making it on first use.
func (c *deadlineContext) make() context.Context {
	if r := c.real.Load(); r != nil {
		return r.ctx
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if r := c.real.Load(); r != nil {
		return r.ctx
	}
	ctx, cancel := context.WithDeadline(c.Context, c.deadline)
	if c.stopped.Load() {
		cancel()
	}
	c.real.Store(&madeContext{ctx, cancel})
	return ctx
}

// Err implements context.Context.
func (c *deadlineContext) Err() error {
	if r := c.real.Load(); r != nil {
		return r.ctx.Err()
	}
	if err := c.Context.Err(); err != nil {
		return err
	}
	if !time.Now().Before(c.deadline) {
		return context.DeadlineExceeded
	}
	if c.stopped.Load() {
		return context.Canceled
	}
	return nil
}

// stop cancels c, as WithDeadline's cancel function does.
func (c *deadlineContext) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopped.Store(true)
	if r := c.real.Load(); r != nil {
		r.cancel()
	}
}
