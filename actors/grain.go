package actors

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	protocluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/scheduler"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// behavior is the logic of one grain kind. All methods run on the grain's
// own goroutine, one message at a time.
type behavior interface {
	// load reads the grain's state from the store; called once on activation.
	load(g *grain) error
	// handle answers one request. Its type switch is the list of what the
	// kind can be asked. It returns the result (one of the closed set of
	// replies.go, put on the wire by resultOf; nil: none) or an error;
	// errDeferred means handle answers later through g.replyLater.
	handle(g *grain, c *call) (result, error)
}

// errDeferred is returned by handle when the answer is sent later.
var errDeferred = errors.New("reply deferred")

// call is one request being handled.
type call struct {
	ctx    actor.Context
	req    grainRequest
	hdr    *pb.Header // req's, never nil
	sender *actor.PID
}

// idleTick asks a grain whether it has been idle long enough to stop.
type idleTick struct{}

// flushTick asks a grain to checkpoint its counters.
type flushTick struct{}

// NotInfluenceReceiveTimeout keeps ticks from counting as activity.
func (flushTick) NotInfluenceReceiveTimeout() {}

// acquirer is a Store that must be told when a grain activates (the
// cluster's replicated store).
type acquirer interface {
	Acquire(kind, id string) error
	Release(kind, id string)
}

// flusher is a behavior with counters checkpointed lazily.
type flusher interface{ flush(*grain) }

// NotInfluenceReceiveTimeout keeps ticks from counting as activity.
func (idleTick) NotInfluenceReceiveTimeout() {}

// grain is the actor every kind shares: activation, loading, dispatch, the
// answer cache for retried calls, idle passivation and panic containment.
type grain struct {
	env      *Env
	kind, id string
	b        behavior
	loadErr  error
	lastUsed time.Time
	recent   replyCache
	// stale is set when a checkpoint found no majority: another node may
	// have taken the grain over, so this activation stops after the
	// current message and the next call activates it afresh.
	stale     bool
	stopTick  scheduler.CancelFunc
	stopFlush scheduler.CancelFunc
	// deadline is the deadline of the call being handled (zero: none); the
	// writes it makes end by it (saveJSON).
	deadline time.Time
}

func newGrain(env *Env, b behavior) *grain { return &grain{env: env, b: b} }

// Receive implements actor.Actor.
func (g *grain) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *protocluster.ClusterInit:
		g.activate(ctx, m.Identity)
	case grainRequest:
		g.lastUsed = g.env.Clock.Now()
		g.dispatch(ctx, m)
	case flushTick:
		if f, ok := g.b.(flusher); ok && g.loadErr == nil {
			f.flush(g)
		}
		if g.stale {
			ctx.Poison(ctx.Self()) // see saveJSON
		}
	case idleTick:
		if g.env.Clock.Now().Sub(g.lastUsed) >= g.env.Config.IdleAfter {
			ctx.Poison(ctx.Self())
		}
	case *actor.Stopped:
		if g.stopTick != nil {
			g.stopTick()
		}
		if g.stopFlush != nil {
			g.stopFlush()
		}
		if st, ok := g.b.(interface{ stopped(*grain) }); ok {
			st.stopped(g)
		}
		// After the final checkpoint: the node's next activation of this
		// grain (spawned once this one has terminated) acquires anew.
		if a, ok := g.env.Store.(acquirer); ok {
			a.Release(g.kind, g.id)
		}
		if g.env.Metrics != nil {
			g.env.Metrics.GrainPassivated(g.kind)
		}
	default:
		if h, ok := g.b.(interface{ other(*grain, actor.Context) }); ok {
			h.other(g, ctx)
		}
	}
}

func (g *grain) activate(ctx actor.Context, id *protocluster.ClusterIdentity) {
	g.kind, g.id = id.Kind, id.Identity
	g.lastUsed = g.env.Clock.Now()
	// In a cluster, take over the grain first: a new generation from a
	// majority of its replicas, and their most recent records.
	if a, ok := g.env.Store.(acquirer); ok {
		g.loadErr = a.Acquire(g.kind, g.id)
	}
	if g.loadErr == nil {
		g.loadErr = g.b.load(g)
	}
	if g.loadErr != nil {
		g.env.Log.Error("grain load failed", "kind", g.kind, "id", g.id, "err", g.loadErr)
	}
	if g.env.Config.IdleAfter > 0 {
		every := g.env.Config.IdleAfter / 4
		g.stopTick = scheduler.NewTimerScheduler(ctx).SendRepeatedly(every, every, ctx.Self(), idleTick{})
	}
	if _, ok := g.b.(flusher); ok && g.env.Config.FlushEvery > 0 {
		every := g.env.Config.FlushEvery
		g.stopFlush = scheduler.NewTimerScheduler(ctx).SendRepeatedly(every, every, ctx.Self(), flushTick{})
	}
	if g.env.Metrics != nil {
		g.env.Metrics.GrainActivated(g.kind)
	}
}

func (g *grain) dispatch(ctx actor.Context, m grainRequest) {
	h := m.GetHeader()
	if h == nil {
		h = &pb.Header{}
	}
	if h.RequestId != "" {
		if r, ok := g.recent.get(h.RequestId); ok {
			ctx.Respond(r)
			return
		}
	}
	if g.loadErr != nil {
		ctx.Respond(errorReply(fmt.Errorf("%s/%s unavailable: %w", g.kind, g.id, g.loadErr)))
		ctx.Poison(ctx.Self()) // try a fresh activation next time
		return
	}
	c := &call{ctx: ctx, req: m, hdr: h, sender: ctx.Sender()}
	if h.DeadlineUnixMs > 0 {
		g.deadline = time.UnixMilli(h.DeadlineUnixMs)
	}
	res, err := g.safeHandle(c)
	g.deadline = time.Time{}
	if errors.Is(err, errDeferred) {
		return
	}
	r := makeReply(res, err)
	if h.RequestId != "" {
		g.recent.put(h.RequestId, r)
	}
	ctx.Respond(r)
	if g.stale || model.Code(r.ErrorCode) == model.CodeUnavailable {
		// A write found no majority: this activation may be stale (a newer
		// one elsewhere fenced it). Stop; the next call activates afresh.
		ctx.Poison(ctx.Self())
	}
}

// safeHandle keeps a bug in one method from killing the grain or the node.
func (g *grain) safeHandle(c *call) (r *pb.Reply, err error) {
	defer func() {
		if p := recover(); p != nil {
			g.env.Log.Error("grain method panicked", "kind", g.kind, "id", g.id, "method", requestName(c.req),
				"panic", p, "stack", string(debug.Stack()))
			r, err = nil, fmt.Errorf("panic in %s.%s: %v", g.kind, requestName(c.req), p)
		}
	}()
	res, err := g.b.handle(g, c)
	if err != nil {
		return nil, err
	}
	return resultOf(res), nil // here, so that a panic while encoding is contained too
}

// replyLater sends r to the sender of c from any goroutine.
func (g *grain) replyLater(c *call, r *pb.Reply) {
	if c.sender != nil {
		c.ctx.ActorSystem().Root.Send(c.sender, r)
	}
}

// makeReply turns a method's result into a Reply.
func makeReply(r *pb.Reply, err error) *pb.Reply {
	if err != nil {
		return errorReply(err)
	}
	return r
}

// errorReply carries err's code and message; the cause of an internal error
// stays in the node's log.
func errorReply(err error) *pb.Reply {
	var me *model.Error
	if errors.As(err, &me) {
		r := &pb.Reply{ErrorCode: string(me.Code), ErrorMessage: me.Message, RetryAfter: int32(me.RetryAfter)}
		if len(me.Extra) > 0 {
			r.ErrorExtra, _ = json.Marshal(me.Extra)
		}
		return r
	}
	return &pb.Reply{ErrorCode: string(model.CodeInternal), ErrorMessage: err.Error()}
}

// replyCache remembers the answers to the last few request IDs, so that a
// call cluster.Request delivers twice is answered, not executed, twice.
type replyCache struct {
	ids  [32]string
	reps [32]*pb.Reply
	next int
}

func (rc *replyCache) get(id string) (*pb.Reply, bool) {
	for i, v := range rc.ids {
		if v == id {
			return rc.reps[i], true
		}
	}
	return nil, false
}

func (rc *replyCache) put(id string, r *pb.Reply) {
	rc.ids[rc.next], rc.reps[rc.next] = id, r
	rc.next = (rc.next + 1) % len(rc.ids)
}
