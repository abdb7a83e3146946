package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/persistence"
)

// Sandboxes (model/sandbox.go, docs/using/testing.md): a sandbox is a
// named overlay of a project's mock data that lives with the project's
// grain. It holds only its own changes; the overlay a request in it reads
// is the project's current state with those changes on top
// (engine.Layered), rebuilt lazily when either moves, so a sandbox costs
// its changes, not a copy of the project's rows, and sees the project's
// later changes except where its own win.
//
// Its changes are written like the project's (kindSandboxRow, with a
// record kindSandbox of its times), in one batch with the mutation's
// answer, so they are acknowledged writes: replicated to a majority and
// kept across restarts and failover. A sandbox is made by its first
// mutation (a query in a sandbox that has none reads the project's data,
// which is what the sandbox would hold), counted against the plan's
// sandboxes a project (model.Limits.Sandboxes) and held to
// Config.SandboxBytes; it is forgotten once idle for Config.SandboxTTL
// (sweepSandboxes, and when the grain loads).

const (
	kindSandbox    = "sandbox"    // <projectID>/<name>: sandboxRecord
	kindSandboxRow = "sandboxrow" // <projectID>/<name>/<tableID>/<rowID>: a graphql.Change
)

// DefaultSandboxTTL and DefaultSandboxBytes are Config.SandboxTTL's and
// Config.SandboxBytes's defaults (docs/reference/bounds.md).
const (
	DefaultSandboxTTL   = time.Hour
	DefaultSandboxBytes = 1 << 20
)

// sandboxRecord is a sandbox's stored record.
type sandboxRecord struct {
	CreatedAt  time.Time `json:"createdAt"`
	LastUsedAt time.Time `json:"lastUsedAt"`
}

// sandboxSet is a project activation's sandboxes, shared by its views:
// queries look sandboxes up on their own goroutines; only the grain adds
// and removes them. Safe for concurrent use.
type sandboxSet struct {
	mu sync.RWMutex
	m  map[string]*sandbox
}

func newSandboxSet() *sandboxSet { return &sandboxSet{m: map[string]*sandbox{}} }

// get returns the sandbox name, or nil; a nil set has none.
func (s *sandboxSet) get(name string) *sandbox {
	if s == nil || name == "" {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.m[name]
}

func (s *sandboxSet) put(sb *sandbox) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[sb.name] = sb
}

func (s *sandboxSet) drop(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, name)
}

func (s *sandboxSet) len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.m)
}

// all returns the sandboxes ordered by name.
func (s *sandboxSet) all() []*sandbox {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	out := make([]*sandbox, 0, len(s.m))
	for _, sb := range s.m {
		out = append(out, sb)
	}
	s.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// sandbox is one live sandbox. own and layer are safe for concurrent
// readers; sizes and bytes change only on the grain's goroutine.
type sandbox struct {
	name    string
	created time.Time
	used    atomic.Int64 // unix nanoseconds of its last request
	own     *engine.Overlay
	sizes   map[string]int // stored size of each change, by <tableID>/<rowID>
	bytes   atomic.Int64   // the sum of sizes
	layer   atomic.Pointer[sandboxLayer]
}

// sandboxLayer is the overlay a request in a sandbox reads: base (the
// project's state it was built on) plus the sandbox's own changes of
// version ownVer.
type sandboxLayer struct {
	base   *engine.OverlayState
	ownVer int64
	ov     *engine.Overlay
}

func newSandbox(name string, created time.Time) *sandbox {
	sb := &sandbox{name: name, created: created, own: engine.NewOverlay(), sizes: map[string]int{}}
	sb.used.Store(created.UnixNano())
	return sb
}

// touch notes a request at now.
func (sb *sandbox) touch(now time.Time) { sb.used.Store(now.UnixNano()) }

func (sb *sandbox) lastUsed() time.Time { return time.Unix(0, sb.used.Load()) }

// expired reports whether sb was idle for ttl (0: never) at now: it is
// then as good as gone, whether or not the sweep has forgotten it yet.
func (sb *sandbox) expired(now time.Time, ttl time.Duration) bool {
	return ttl > 0 && now.Sub(sb.lastUsed()) >= ttl
}

// liveSandbox returns the sandbox name of set unless it expired at now.
func liveSandbox(set *sandboxSet, name string, now time.Time, ttl time.Duration) *sandbox {
	sb := set.get(name)
	if sb == nil || sb.expired(now, ttl) {
		return nil
	}
	return sb
}

// overlay returns the overlay of project (the project's) with the
// sandbox's changes on top, building it again when either has moved since
// the last build. Safe for concurrent use.
func (sb *sandbox) overlay(project *engine.Overlay) *engine.Overlay {
	base, own := project.State(), sb.own.State()
	if l := sb.layer.Load(); l != nil && l.base == base && l.ownVer == own.Version() {
		return l.ov
	}
	l := &sandboxLayer{base: base, ownVer: own.Version(), ov: engine.Layered(base, own.Changes())}
	sb.layer.Store(l)
	return l.ov
}

// apply adds changes, already written, to the sandbox's own overlay; the
// next request builds its layer again (overlay), on the project's state
// as it is then, so that the layer never copies the project's records (an
// Apply to the layer could compact them into a base of its own). Only the
// grain calls it.
func (sb *sandbox) apply(changes []graphql.Change, sizes map[string]int) {
	sb.own.Apply(changes)
	for k, n := range sizes {
		sb.bytes.Add(int64(n - sb.sizes[k]))
		sb.sizes[k] = n
	}
}

// info describes the sandbox for the management API.
func (sb *sandbox) info(ttl time.Duration) model.Sandbox {
	s := model.Sandbox{Name: sb.name, ChangedRows: len(sb.sizes), Bytes: sb.bytes.Load(), CreatedAt: sb.created, LastUsedAt: sb.lastUsed()}
	if ttl > 0 {
		s.ExpiresAt = s.LastUsedAt.Add(ttl)
	}
	return s
}

// sandboxes returns the activation's set, made on first use.
func (p *projectGrain) sandboxSet(g *grain) *sandboxSet {
	if p.sandboxes == nil {
		p.sandboxes = newSandboxSet()
		p.publish(g)
	}
	return p.sandboxes
}

// loadSandboxes reads the project's sandboxes, forgetting those idle past
// the TTL.
func (p *projectGrain) loadSandboxes(g *grain) error {
	prefix := g.id + "/"
	recs := map[string]sandboxRecord{}
	err := g.env.Store.Scan(kindSandbox, prefix, func(id string, v []byte) error {
		var r sandboxRecord
		if err := json.Unmarshal(v, &r); err != nil {
			return err
		}
		recs[strings.TrimPrefix(id, prefix)] = r
		return nil
	})
	if err != nil || len(recs) == 0 {
		return err
	}
	rows := map[string][]graphql.Change{}
	sizes := map[string]map[string]int{}
	err = g.env.Store.Scan(kindSandboxRow, prefix, func(id string, v []byte) error {
		var c graphql.Change
		if err := json.Unmarshal(v, &c); err != nil {
			return err
		}
		name := before(strings.TrimPrefix(id, prefix), '/')
		rows[name] = append(rows[name], c)
		if sizes[name] == nil {
			sizes[name] = map[string]int{}
		}
		sizes[name][c.TableID+"/"+c.RowID] = len(v)
		return nil
	})
	if err != nil {
		return fmt.Errorf("sandboxes of %s: %w", g.id, err)
	}
	set := p.sandboxSet(g)
	for name, r := range recs {
		sb := newSandbox(name, r.CreatedAt)
		sb.used.Store(r.LastUsedAt.UnixNano())
		sb.apply(rows[name], sizes[name])
		set.put(sb)
	}
	p.sweepSandboxes(g)
	return nil
}

// sandboxFor returns the sandbox name, making it (not yet written: its
// first mutation writes it; fresh says so) when the project holds fewer
// than the plan allows. plan is the project's account's plan ("" for a
// guest or session project, or when the caller did not know it: STARTER's
// limit).
func (p *projectGrain) sandboxFor(g *grain, name string, plan model.Plan) (sb *sandbox, fresh bool, err error) {
	set := p.sandboxSet(g)
	p.sweepSandboxes(g)
	if sb := set.get(name); sb != nil {
		return sb, false, nil
	}
	if err := model.CheckSandboxName(name); err != nil {
		return nil, false, err
	}
	if plan == "" {
		plan = model.PlanStarter
	}
	limit := g.env.Config.Limits.Sandboxes[model.PlanIndex(plan)]
	if limit > 0 && set.len() >= limit {
		return nil, false, model.Errorf(model.CodeLimitReached, "the project holds %d sandboxes, the most its plan allows (%d): delete one (deleteSandbox) or wait until an idle one expires", set.len(), limit)
	}
	sb = newSandbox(name, g.env.Clock.Now())
	set.put(sb)
	return sb, true, nil
}

// sandboxPuts turns a mutation's changes in sb into store writes, with
// sb's record; sizes are the changes' stored sizes by row. A mutation that
// would make sb hold more than Config.SandboxBytes is refused.
func (p *projectGrain) sandboxPuts(g *grain, sb *sandbox, changes []graphql.Change) ([]persistence.Put, map[string]int, error) {
	now := g.env.Clock.Now()
	rec, err := json.Marshal(sandboxRecord{CreatedAt: sb.created, LastUsedAt: now})
	if err != nil {
		return nil, nil, err
	}
	prefix := g.id + "/" + sb.name + "/"
	puts := []persistence.Put{{Kind: kindSandbox, ID: g.id + "/" + sb.name, Value: rec}}
	sizes := map[string]int{}
	for _, c := range changes {
		b, err := json.Marshal(c)
		if err != nil {
			return nil, nil, err
		}
		row := c.TableID + "/" + c.RowID
		sizes[row] = len(b)
		puts = append(puts, persistence.Put{Kind: kindSandboxRow, ID: prefix + row, Value: b})
	}
	total := sb.bytes.Load()
	for row, n := range sizes {
		total += int64(n - sb.sizes[row])
	}
	if max := g.env.Config.SandboxBytes; max > 0 && total > max && total > sb.bytes.Load() {
		return nil, nil, model.Errorf(model.CodeLimitReached, "the sandbox %q would hold %d bytes of changes, more than the bound of %d (--sandbox-bytes): reset it (resetMockData with sandbox) or use another", sb.name, total, max)
	}
	return puts, sizes, nil
}

// sandboxDeletes are the store writes that forget sandbox name.
func sandboxDeletes(projectID, name string) []persistence.Put {
	return []persistence.Put{{Kind: kindSandbox, ID: projectID + "/" + name},
		{Kind: kindSandboxRow, ID: projectID + "/" + name + "/", Prefix: true}}
}

// allSandboxDeletes are the store writes that forget every sandbox of a
// project (its deletion and expiry).
func allSandboxDeletes(projectID string) []persistence.Put {
	return []persistence.Put{{Kind: kindSandbox, ID: projectID + "/", Prefix: true},
		{Kind: kindSandboxRow, ID: projectID + "/", Prefix: true}}
}

// resetSandbox drops sandbox name's changes (resetMockData(sandbox:)); it
// stays, empty, until it expires or is deleted. A sandbox the project does
// not hold is NOT_FOUND.
func (p *projectGrain) resetSandbox(g *grain, name string) error {
	p.sweepSandboxes(g)
	sb := p.sandboxes.get(name)
	if sb == nil {
		return errNoSandbox(name)
	}
	rec, err := json.Marshal(sandboxRecord{CreatedAt: sb.created, LastUsedAt: g.env.Clock.Now()})
	if err != nil {
		return err
	}
	puts := []persistence.Put{{Kind: kindSandboxRow, ID: g.id + "/" + name + "/", Prefix: true},
		{Kind: kindSandbox, ID: g.id + "/" + name, Value: rec}}
	if err := g.env.Store.Write(puts...); err != nil {
		return err
	}
	fresh := newSandbox(name, sb.created)
	fresh.touch(g.env.Clock.Now())
	p.sandboxes.put(fresh)
	return nil
}

// deleteSandbox forgets sandbox name (deleteSandbox); NOT_FOUND if the
// project does not hold it.
func (p *projectGrain) deleteSandbox(g *grain, name string) error {
	p.sweepSandboxes(g)
	if p.sandboxes.get(name) == nil {
		return errNoSandbox(name)
	}
	if err := g.env.Store.Write(sandboxDeletes(g.id, name)...); err != nil {
		return err
	}
	p.sandboxes.drop(name)
	return nil
}

// sweepSandboxes forgets the sandboxes idle for Config.SandboxTTL. It runs
// with the grain's checkpoints (flush) and when it loads.
func (p *projectGrain) sweepSandboxes(g *grain) {
	ttl := g.env.Config.SandboxTTL
	if ttl <= 0 || p.sandboxes == nil {
		return
	}
	now := g.env.Clock.Now()
	for _, sb := range p.sandboxes.all() {
		if !sb.expired(now, ttl) {
			continue
		}
		if err := g.env.Store.Write(sandboxDeletes(g.id, sb.name)...); err != nil {
			g.env.Log.Warn("forgetting an idle sandbox failed", "project", g.id, "err", err)
			return
		}
		p.sandboxes.drop(sb.name)
	}
}

// sandboxList answers the project's live sandboxes, by name.
func (p *projectGrain) sandboxList(g *grain) []model.Sandbox {
	p.sweepSandboxes(g)
	var out []model.Sandbox
	for _, sb := range p.sandboxes.all() {
		out = append(out, sb.info(g.env.Config.SandboxTTL))
	}
	return out
}

func errNoSandbox(name string) error {
	return model.Errorf(model.CodeNotFound, "the project has no sandbox %q (a sandbox exists from its first mutation until it is deleted or expires)", model.Clip(name, model.MaxSandboxName))
}

// sandboxesReply answers ProjectSandboxes: the list as JSON in the body.
func sandboxesReply(list []model.Sandbox) (result, error) {
	if list == nil {
		list = []model.Sandbox{}
	}
	b, err := json.Marshal(list)
	if err != nil {
		return nil, err
	}
	return rawReply{&pb.Reply{Status: 200, Body: b}}, nil
}

// Sandboxes returns the project's live sandboxes, by name (VIEWER and
// above).
func (p ProjectClient) Sandboxes(ctx context.Context) ([]model.Sandbox, error) {
	r, err := p.ask(ctx, &pb.ProjectSandboxes{})
	if err != nil {
		return nil, err
	}
	var out []model.Sandbox
	if err := json.Unmarshal(r.GetBody(), &out); err != nil {
		return nil, fmt.Errorf("sandboxes of %s: %w", p.id, err)
	}
	return out, nil
}

// ResetSandbox drops the changes of the project's sandbox name (EDITOR and
// above); NOT_FOUND when the project holds none of that name.
func (p ProjectClient) ResetSandbox(ctx context.Context, name string) error {
	return p.tell(ctx, &pb.ProjectReset{Sandbox: name})
}

// DeleteSandbox forgets the project's sandbox name (EDITOR and above);
// NOT_FOUND when the project holds none of that name.
func (p ProjectClient) DeleteSandbox(ctx context.Context, name string) error {
	return p.tell(ctx, &pb.ProjectReset{Sandbox: name, DeleteSandbox: true})
}

// inSandbox returns the view v as a request in sandbox name reads it: its
// overlay is the sandbox's (the project's when the project holds no such
// sandbox yet), and the sandbox's idle time restarts at now.
func inSandbox(v *projectView, name string, now time.Time, ttl time.Duration) *projectView {
	sb := liveSandbox(v.sandboxes, name, now, ttl)
	if sb == nil {
		return v
	}
	sb.touch(now)
	sv := *v
	sv.ov = sb.overlay(v.ov)
	return &sv
}

// sandboxPlan is the plan whose sandbox limit applies to a request in
// sandbox name that may make it: "" (STARTER's limit) for a guest or
// session project, an existing sandbox, or an account that cannot be read
// now.
func (p *RuntimePath) sandboxPlan(ctx context.Context, projectID, name string, pv *projectView) model.Plan {
	env := p.grains.env
	if pv != nil && liveSandbox(pv.sandboxes, name, env.Clock.Now(), env.Config.SandboxTTL) != nil {
		return ""
	}
	kind, id, err := p.grains.quotaOwner(ctx, projectID, pv)
	if err != nil || kind != kindAccount {
		return ""
	}
	st, err := p.grains.Account(id).Get(ctx)
	if err != nil || st == nil {
		return ""
	}
	return st.Account.Plan
}

// runSandboxMutation is runMutation's rest for a mutation in a sandbox:
// run on the sandbox's overlay, write its changes with the answer (the
// byte bound first), apply, publish its events to its subscribers only.
func (p *projectGrain) runSandboxMutation(ctx context.Context, g *grain, t *mutationTask, rt *graphql.Runtime, prep *exec.Prepared) {
	sb, fresh, err := p.sandboxFor(g, t.sandbox, t.plan)
	if err != nil {
		g.replyLater(t.call, errorReply(err))
		return
	}
	unmade := func() { // a sandbox made for a mutation that wrote nothing is not kept
		if fresh {
			p.sandboxes.drop(sb.name)
		}
	}
	sb.touch(g.env.Clock.Now())
	ov := sb.overlay(p.ov)
	res, changes, err := rt.Mutate(ctx, prep, g.env.Pool.forAccount(p.st.Project.AccountID), ov)
	if err != nil || ctx.Err() != nil || len(changes) == 0 {
		unmade()
		g.replyLater(t.call, resultReply(ctx, res, err)) // nothing written
		return
	}
	puts, sizes, err := p.sandboxPuts(g, sb, changes)
	if err != nil {
		unmade()
		g.replyLater(t.call, errorReply(err))
		return
	}
	body, reqID := res.AppendJSON(nil), t.call.hdr.RequestId
	if reqID != "" {
		puts = append(puts, p.replies.puts(p.st.Project.ID, reqID, body, g.env.Clock.Now())...)
	}
	if err := g.env.Store.Write(puts...); err != nil {
		unmade()
		g.replyLater(t.call, errorReply(err))
		return
	}
	before := ov.Snapshot()
	sb.apply(changes, sizes)
	if reqID != "" {
		p.replies.add(reqID, body)
	}
	p.publishSandboxEvents(g, sb.name, graphql.EventsOf(changes, before, sb.overlay(p.ov).Snapshot()))
	g.replyLater(t.call, &pb.Reply{Status: 200, Body: body})
}
