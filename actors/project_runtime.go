package actors

import (
	"context"
	"errors"
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// mutationTask is a mutation a query goroutine hands back to the grain,
// which runs mutations one at a time. It never leaves the node.
type mutationTask struct {
	call     *call
	body     []byte           // the GraphQL request body
	rt       *graphql.Runtime // the runtime prep was prepared with
	prep     *exec.Prepared
	deadline time.Time
	sandbox  string     // "" the project's data
	plan     model.Plan // for a sandbox it makes (sandboxFor)
	// faults are the field rules the request's node decided fire
	// (pb.ProjectRuntime.field_rules); nil for none.
	faults exec.FieldFaults
}

// runtimeCall makes the runtime path's steps that need the project's
// record (slug, credential), then runs the request on a goroutine of its
// own with a snapshot of the runtime and overlay; a mutation comes back to
// the grain as a mutationTask.
func (p *projectGrain) runtimeCall(g *grain, c *call, m *pb.ProjectRuntime) (result, error) {
	if p.st == nil || !servesSlug(p.st.Project, m.Slug, g.env.Clock.Now()) {
		return nil, errNoSlug(m.Slug)
	}
	if err := checkRuntimeCredential(p.st.Project, m.ShareToken, m.KeyVerified, m.Internal); err != nil {
		return nil, err
	}
	if m.CheckOnly {
		return rawReply{&pb.Reply{Status: 200}}, nil
	}
	rt, err := p.runtime(g)
	if err != nil {
		return nil, err
	}
	if m.State != "" && m.Sandbox != "" {
		if err := p.sandboxFromState(g, m.Sandbox, m.State, model.Plan(m.Plan), true); err != nil {
			return nil, err
		}
	}
	ov, pool, self, body := p.ov, g.env.Pool.forAccount(p.st.Project.AccountID), c.ctx.Self(), m.Body
	if sb := liveSandbox(p.sandboxes, m.Sandbox, g.env.Clock.Now(), g.env.Config.SandboxTTL); sb != nil {
		sb.touch(g.env.Clock.Now())
		ov = sb.overlay(p.ov)
	}
	var rules []model.FieldRule
	for _, r := range m.FieldRules {
		rules = append(rules, fieldRuleOf(r))
	}
	faults := grainFaults(rules)
	root := c.ctx.ActorSystem().Root
	go func() {
		ctx, cancel := callContext(c.hdr)
		defer cancel()
		req, err := exec.DecodeRequest(body)
		if err != nil {
			g.replyLater(c, errorReply(err))
			return
		}
		prep, refusal := rt.PrepareContext(ctx, req)
		switch {
		case exec.TimeoutError(refusal) != nil:
			g.replyLater(c, errorReply(exec.TimeoutError(refusal)))
		case refusal != nil:
			g.replyLater(c, runtimeReply(refused(refusal, nil), nil))
		case m.Subscribe && prep.Subscription():
			g.replyLater(c, &pb.Reply{Status: 200, Body: subscriptionBody(rt, prep, g.id, m.Sandbox)})
		case prep.Mutation() && m.QueryOnly:
			g.replyLater(c, errorReply(errMutationOverGet))
		case prep.Mutation():
			deadline, _ := ctx.Deadline()
			root.Send(self, &mutationTask{call: c, body: body, rt: rt, prep: prep, deadline: deadline, sandbox: m.Sandbox, plan: model.Plan(m.Plan), faults: faults})
		default:
			res, err := rt.Query(exec.WithFieldFaults(ctx, faults), prep, pool, ov)
			g.replyLater(c, resultReply(ctx, res, err))
		}
	}()
	return nil, errDeferred
}

// runMutation runs a mutation on the grain's goroutine: execute against the
// overlay without changing it, write the changes durably, apply, answer.
func (p *projectGrain) runMutation(g *grain, t *mutationTask) {
	if p.st == nil {
		g.replyLater(t.call, errorReply(model.Errorf(model.CodeProjectNotFound, "the project was deleted")))
		return
	}
	rt, err := p.runtime(g) // the model may have changed since the query goroutine looked
	if err != nil {
		g.replyLater(t.call, errorReply(err))
		return
	}
	reqID := t.call.hdr.RequestId
	if p.replies == nil {
		p.replies = &replyLog{bodies: map[string][]byte{}}
	}
	if body, ok := p.replies.bodies[reqID]; ok && reqID != "" {
		g.replyLater(t.call, &pb.Reply{Status: 200, Body: body}) // delivered again: applied once already
		return
	}
	prep := t.prep
	ctx, cancel := context.WithDeadline(context.Background(), t.deadline)
	defer cancel()
	ctx = exec.WithFieldFaults(ctx, t.faults)
	if rt != t.rt { // the model changed since: prepare against the new one
		req, err := exec.DecodeRequest(t.body)
		if err != nil {
			g.replyLater(t.call, errorReply(err))
			return
		}
		var refusal *exec.Result
		if prep, refusal = rt.PrepareContext(ctx, req); exec.TimeoutError(refusal) != nil {
			g.replyLater(t.call, errorReply(exec.TimeoutError(refusal)))
			return
		} else if refusal != nil {
			g.replyLater(t.call, runtimeReply(refused(refusal, nil), nil))
			return
		}
	}
	if t.sandbox != "" {
		p.runSandboxMutation(ctx, g, t, rt, prep)
		return
	}
	res, changes, err := rt.Mutate(ctx, prep, g.env.Pool.forAccount(p.st.Project.AccountID), p.ov)
	if err != nil || ctx.Err() != nil || len(changes) == 0 {
		g.replyLater(t.call, resultReply(ctx, res, err)) // nothing written
		return
	}
	body := res.AppendJSON(nil)
	before := p.ov.Snapshot()
	if err := p.persistChanges(g, changes, reqID, body); err != nil {
		g.replyLater(t.call, errorReply(err))
		return
	}
	p.publishEvents(g, graphql.EventsOf(changes, before, p.ov.Snapshot()))
	// Written and applied: the answer is a success even if the caller's
	// deadline passed meanwhile.
	g.replyLater(t.call, &pb.Reply{Status: 200, Body: body})
}

// persistChanges writes a mutation's changes, and its answer under reqID,
// in one batch, then applies them.
func (p *projectGrain) persistChanges(g *grain, changes []graphql.Change, reqID string, body []byte) error {
	puts, err := overlayPuts(p.st.Project.ID, changes)
	if err != nil {
		return err
	}
	if reqID != "" {
		puts = append(puts, p.replies.puts(p.st.Project.ID, reqID, body, g.env.Clock.Now())...)
	}
	if err := g.env.Store.Write(puts...); err != nil {
		return err
	}
	p.ov.Apply(changes)
	if reqID != "" {
		p.replies.add(reqID, body)
	}
	return nil
}

// resultReply is a 200 answer, or a timeout or internal error. A query
// that ran out of time is a timeout even when the engine turned the
// cancellation into a field error.
func resultReply(ctx context.Context, res *exec.Result, err error) *pb.Reply {
	switch {
	case ctx.Err() != nil, errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return errorReply(&model.Error{Code: model.CodeQueryTimeout, Message: "the query ran past the time limit; narrow it (smaller pageSize, fewer nested relations) and retry", RetryAfter: 1})
	case err != nil:
		return errorReply(err)
	}
	return &pb.Reply{Status: 200, Body: res.AppendJSON(nil)}
}

// serveCall runs a whole runtime request that an HTTP node without this
// project handed over, on this node, where the project's snapshot, key
// cache and quota lease are: one round trip instead of one per check.
func (p *projectGrain) serveCall(g *grain, c *call, m *pb.ProjectServe) (result, error) {
	if p.st == nil || !servesSlug(p.st.Project, m.Slug, g.env.Clock.Now()) {
		return nil, errNoSlug(m.Slug)
	}
	rp, r, id := g.env.RuntimePath(), servedRequest(m), g.id
	rp.workers.run(func() {
		ctx, cancel := callContext(c.hdr)
		defer cancel()
		g.replyLater(c, runtimeReply(rp.serve(ctx, id, c.hdr.RequestId, r)))
	})
	return nil, errDeferred
}

// returnLease gives the unused units of the quota lease back when the grain
// stops, so usage does not over-count; on a crash they stay counted.
func (p *projectGrain) returnLease(g *grain) {
	l := p.lease
	if l == nil {
		return
	}
	l.mu.Lock()
	back := l.leftover(l.kind, l.id)
	kind, id := l.kind, l.id
	l.units = 0
	l.mu.Unlock()
	if back.Return == 0 || g.env.Caller == nil {
		return
	}
	req := leaseRequest(back)
	req.Header = &pb.Header{RequestId: "lease-" + ids.RandomString(12)}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_, _ = g.env.Caller.Request(ctx, kind, id, req)
	}()
}
