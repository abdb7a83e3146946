package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/persistence"
)

const (
	kindProject = "project"
	kindOverlay = "overlay"
)

// projectGrain owns one project: its model, the compiled runtime schema
// (rebuilt lazily after a model change), and its mock-data overlay. Model
// edits and mutations run on the grain's goroutine, one at a time; queries
// run on their own goroutines against immutable snapshots, so one busy
// project does not serialise its readers.
type projectGrain struct {
	st    *projectState
	rt    *graphql.Runtime
	rtVer int64
	ov    *graphql.Overlay
	view  *projectView // the snapshot published in env.Local
	calls *meter       // a session project's daily calls; nil for other kinds
	// keys and lease serve runtime requests on this node without a round
	// trip to key and account grains elsewhere; they live as long as this
	// activation (runtime_cache.go).
	keys  *keyCache
	lease *quotaLease
	// replies answers a mutation delivered twice (project_replies.go).
	replies *replyLog
	// faults are the activation's fault sequences and request log (faults.go).
	faults *faultState
	// doc is the encoded project of docOf, the state's project when it was
	// encoded: reads of an unchanged project share one encoding
	// (projectDoc). The bytes are never changed once made.
	doc   []byte
	docOf *model.Project
	// events are the activation's recent realtime events, made on the
	// first one (project_events.go).
	events *eventRing
	// streams are the running demo event streams, driven by the tick that
	// stopStreams ends (project_eventstream.go).
	streams     map[streamKey]*eventStream
	stopStreams func()
	// sandboxes are the project's sandboxes (sandbox.go), made on first
	// use; shared with the views.
	sandboxes *sandboxSet
}

// projectDoc is the reply to ProjectGet: the project encoded once per
// change, not once per read (a read of a project at its size bound would
// otherwise encode up to that bound, one read at a time on this grain).
func (p *projectGrain) projectDoc() *pb.Reply {
	if p.docOf != p.st.Project {
		p.doc, p.docOf = encodeDoc(p.st.Project), p.st.Project
	}
	return &pb.Reply{Result: &pb.Reply_Project{Project: &pb.ProjectDoc{Json: p.doc}}}
}

// projectState is the project's checkpoint.
type projectState struct {
	Project *model.Project `json:"project"`
	// Session owns a guest or session project (the hash of its cookie).
	Session string `json:"session,omitempty"`
	// Adoptions are the hashes of the session project's adoption tokens,
	// deleted with it.
	Adoptions []string `json:"adoptions,omitempty"`
	// Calls is a session project's daily runtime quota.
	Calls meterState `json:"calls"`
	// Kept exempts a guest project from Config.GuestTTL (ProjectKeep).
	Kept bool `json:"kept,omitempty"`
	// pack keeps the contract document's compressed form between the
	// encodings of this state and those made from it (project_stored.go).
	pack *docPack
}

// Access is what the service learned about the caller: the grain decides
// with it, so the check and the change are one step.
type Access struct {
	System         bool        `json:"system,omitempty"`
	AccountID      string      `json:"accountId,omitempty"`
	Role           model.Role  `json:"role,omitempty"`
	Plan           model.Plan  `json:"plan,omitempty"`
	KeyProjectID   string      `json:"keyProjectId,omitempty"`
	KeyScope       model.Scope `json:"keyScope,omitempty"`
	SessionID      string      `json:"sessionId,omitempty"`
	BoardProjectID string      `json:"boardProjectId,omitempty"`
}

func (p *projectGrain) load(g *grain) error {
	var st projectState
	found, err := g.loadJSON(&st)
	if err != nil || !found {
		return err
	}
	p.st = &st
	p.ov = graphql.NewOverlay()
	var changes []graphql.Change
	err = g.env.Store.Scan(kindOverlay, g.id+"/", func(_ string, v []byte) error {
		var c graphql.Change
		if err := json.Unmarshal(v, &c); err != nil {
			return err
		}
		changes = append(changes, c)
		return nil
	})
	if err != nil {
		return fmt.Errorf("overlay of %s: %w", g.id, err)
	}
	p.ov.Apply(changes)
	if p.replies, err = loadReplies(g.env.Store, g.id); err != nil {
		return fmt.Errorf("mutation replies of %s: %w", g.id, err)
	}
	if err := p.loadSandboxes(g); err != nil {
		return err
	}
	p.startCalls(g)
	p.publish(g)
	p.extendGuest(g)
	return nil
}

// startCalls starts (or stops) the daily call quota of a session project.
func (p *projectGrain) startCalls(g *grain) {
	if p.st == nil || p.st.Project.Kind != model.KindSession {
		g.env.Local.withdrawMeter(kindProject, g.id, p.calls)
		p.calls = nil
		return
	}
	if p.calls == nil {
		p.calls = newMeter(perDay, int64(g.env.Config.SessionDailyCalls), p.st.Calls)
		g.env.Local.publishMeter(kindProject, g.id, p.calls)
	}
}

// flush checkpoints the session project's call count, at most once a second.
func (p *projectGrain) flush(g *grain) {
	p.extendGuest(g)
	p.sweepSandboxes(g)
	if p.calls == nil || p.st == nil {
		return
	}
	if st, dirty := p.calls.checkpoint(); dirty {
		next := *p.st
		next.Calls = st
		if err := g.saveJSON(&next); err != nil {
			g.env.Log.Warn("project checkpoint failed", "err", err)
			return
		}
		p.st = &next
	}
}

// publish makes the current state the node's read snapshot of this
// project (or withdraws it when the project is gone). It runs before every
// acknowledgement of a change.
func (p *projectGrain) publish(g *grain) {
	old := p.view
	if p.st == nil {
		p.view = nil
		g.env.Local.withdrawProject(g.id, old)
		return
	}
	var rt *graphql.Runtime
	if p.rt != nil && p.rtVer == p.st.Project.Version {
		rt = p.rt
	}
	if p.keys == nil {
		p.keys, p.lease = newKeyCache(), &quotaLease{}
	}
	if p.faults == nil {
		p.faults = newFaultState()
	}
	p.view = &projectView{project: p.st.Project, rt: rt, ov: p.ov, session: p.st.Session, keys: p.keys, lease: p.lease, faults: p.faults, events: p.events, sandboxes: p.sandboxes}
	g.env.Local.publishProject(g.id, p.view)
}

// stopped withdraws the snapshot when the grain passivates.
func (p *projectGrain) stopped(g *grain) {
	p.endStreams()
	p.flush(g)
	g.env.Local.withdrawProject(g.id, p.view)
	g.env.Local.withdrawMeter(kindProject, g.id, p.calls)
	p.view, p.calls = nil, nil
	p.returnLease(g)
}

// handle is the type list of what a project grain can be asked (the
// messages of actors/pb/mockgql/actors/v1/project.proto, and Consume).
func (p *projectGrain) handle(g *grain, c *call) (result, error) {
	switch m := c.req.(type) {
	case *pb.ProjectRuntime:
		return p.runtimeCall(g, c, m)
	case *pb.ProjectServe:
		return p.serveCall(g, c, m)
	case *pb.ProjectRenderEvent:
		return p.renderCall(g, c, m)
	case *pb.ProjectLogSubscriptionEnd:
		if err := p.live(g); err != nil {
			return nil, err
		}
		if !g.env.Config.NoRequestLog {
			p.requestLogState().record(subscriptionEndOf(m.Entry))
		}
		return nil, nil
	case *pb.ProjectCreate:
		return p.create(g, m)
	case *pb.ProjectExpire: // the sweeper's: for projects past their expiry or deleted already
		return p.expire(g, m.ExpiryKey)
	case *pb.ProjectExpireDone:
		return nil, p.expireDone(g, m.ExpiryKey)
	case *pb.ProjectEvictKey: // a key of this project was revoked or deleted
		if err := p.live(g); err != nil {
			return nil, err
		}
		if p.keys != nil {
			p.keys.evict(m.KeyHash)
		}
		return nil, nil
	case *pb.ProjectGet, *pb.ProjectOwnerQuery, *pb.ProjectSDL, *pb.Consume, *pb.ProjectRequestLog, *pb.ProjectSandboxes:
		return p.authorized(g, c, false)
	case *pb.ProjectMockState:
		return p.authorized(g, c, m.Op != "list")
	case *pb.ProjectTransfer, *pb.ProjectAddAdoption, *pb.ProjectDelete, *pb.ProjectReset,
		*pb.EditUpdateProject, *pb.EditSetPreviewSharing, *pb.EditCreateTable, *pb.EditUpdateTable, *pb.EditDeleteTable,
		*pb.EditCreateAttribute, *pb.EditUpdateAttribute, *pb.EditDeleteAttribute, *pb.EditCreateRelation, *pb.EditDeleteRelation,
		*pb.EditGenerateOperations, *pb.EditCreateOperation, *pb.EditUpdateOperation, *pb.EditDeleteOperation,
		*pb.EditGenerateViews, *pb.EditImportTables, *pb.EditSetBaseline, *pb.EditSetFaults, *pb.ProjectClearRequestLog, *pb.ProjectKeep,
		*pb.EditImportContract, *pb.EditSetContractTable, *pb.EditSetContractMapping, *pb.EditSetContractGenerator, *pb.EditSetContractSeed,
		*pb.ProjectSendEvent, *pb.ProjectEventStream:
		return p.authorized(g, c, true)
	}
	return nil, unknownRequest(g, c)
}

// live refuses a request to a project deleted or past its expiry.
func (p *projectGrain) live(g *grain) error {
	if p.st == nil || p.st.Project.Expired(g.env.Clock.Now()) {
		return model.Errorf(model.CodeNotFound, "project not found")
	}
	return nil
}

// accessed is a request that carries its caller's access.
type accessed interface{ GetAccess() *pb.Access }

// authorized runs a request of handle's last two cases once the caller
// may read (or, with write, change) the project.
func (p *projectGrain) authorized(g *grain, c *call, write bool) (result, error) {
	if err := p.live(g); err != nil {
		return nil, err
	}
	var a Access
	if m, ok := c.req.(accessed); ok {
		a = accessOf(m.GetAccess())
	}
	if err := p.authorize(a, write); err != nil {
		return nil, err
	}
	switch m := c.req.(type) {
	case *pb.ProjectGet:
		return rawReply{p.projectDoc()}, nil
	case *pb.ProjectOwnerQuery:
		return ProjectOwner{AccountID: p.st.Project.AccountID, Session: p.st.Session, Kind: p.st.Project.Kind}, nil
	case *pb.Consume:
		if p.calls == nil {
			return nil, nil
		}
		if ok, retry := p.calls.take(g.env.Clock.Now()); !ok {
			return nil, sessionQuotaError(g.env.Config, retry)
		}
		return nil, nil
	case *pb.ProjectTransfer:
		return p.transfer(g, m.AccountId)
	case *pb.ProjectAddAdoption:
		return nil, p.addAdoption(g, m.Adoption)
	case *pb.ProjectSDL:
		rt, err := p.runtime(g)
		if err != nil {
			return nil, err
		}
		return sdlReply(rt.SDL()), nil
	case *pb.ProjectDelete:
		if err := p.mayDelete(a); err != nil {
			return nil, err
		}
		return nil, p.delete(g)
	case *pb.ProjectReset:
		return nil, p.reset(g, m)
	case *pb.ProjectSandboxes:
		return sandboxesReply(p.sandboxList(g))
	case *pb.ProjectMockState:
		return p.mockState(g, m)
	case *pb.ProjectRequestLog:
		return requestLogReply(p.requestLog(int(m.Limit))), nil
	case *pb.ProjectClearRequestLog:
		p.requestLogState().clear()
		return nil, nil
	case *pb.ProjectSendEvent:
		return p.sendEvent(g, m)
	case *pb.ProjectEventStream:
		return p.eventStreamCall(g, c, m)
	case *pb.ProjectKeep:
		if !a.System {
			return nil, model.Errorf(model.CodeForbidden, "only the node keeps a guest project")
		}
		return nil, p.keep(g)
	}
	return p.edit(g, c.req, a)
}

func (p *projectGrain) create(g *grain, m *pb.ProjectCreate) (result, error) {
	if p.st != nil {
		return projectReply{p.st.Project}, nil // a retried create
	}
	if len(m.Project.GetJson()) == 0 {
		return nil, model.Errorf(model.CodeBadUserInput, "project missing")
	}
	pr, err := decodeDoc[model.Project](m.Project.GetJson())
	if err != nil {
		return nil, err
	}
	next := &projectState{Project: pr, Session: m.Session}
	var extra []persistence.Put
	if !pr.ExpiresAt.IsZero() {
		extra = append(extra, persistence.Put{Kind: kindExpiry, ID: expiryKey(pr.ExpiresAt, pr.ID), Value: []byte{1}})
	}
	if err := commit(g, next, func(v *projectState) { p.st, p.ov = v, graphql.NewOverlay() }, extra...); err != nil {
		return nil, err
	}
	p.startCalls(g)
	p.publish(g)
	return projectReply{p.st.Project}, nil
}

// authorize lets the caller read (or, with write, change) the project.
func (p *projectGrain) authorize(a Access, write bool) error {
	pr := p.st.Project
	min := model.RoleViewer
	if write {
		min = model.RoleEditor
	}
	switch {
	case a.System:
		return nil
	case pr.AccountID != "" && a.AccountID == pr.AccountID:
		if a.Role.AtLeast(min) {
			return nil
		}
		return model.Errorf(model.CodeForbidden, "this needs role %s or higher", min)
	case a.KeyProjectID != "" && a.KeyProjectID == pr.ID && a.KeyScope.Management():
		return nil
	case a.SessionID != "" && p.st.Session != "" && ids.EqualSecret(a.SessionID, p.st.Session):
		return nil
	case a.BoardProjectID != "" && a.BoardProjectID == pr.ID && pr.Kind == model.KindSession:
		return nil // an adoption link's board session opens a session project; once it moves into an account, membership does
	case pr.Kind != model.KindAccount:
		return model.Errorf(model.CodeForbidden, "this %s project belongs to another session", pr.Kind)
	}
	return model.Errorf(model.CodeNotFound, "project not found")
}

// runtime returns the compiled runtime of the current model version. A
// contract project's compile waits for a slot of the node and is bounded
// (graphql.CompileContext; a failed one is remembered for the version);
// it gets the deadline of the call being handled, but at least
// minCompileTime: an admitted compile takes a few CPU seconds at the
// bounds, so cutting it at a short deadline on a busy node would only
// make every next call start it again, while the grain keeps what it
// finishes.
func (p *projectGrain) runtime(g *grain) (*graphql.Runtime, error) {
	if p.rt != nil && p.rtVer == p.st.Project.Version {
		return p.rt, nil
	}
	deadline := time.Now().Add(minCompileTime)
	if g.deadline.After(deadline) {
		deadline = g.deadline
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	rt, err := graphql.CompileContext(ctx, p.st.Project, graphql.Options{MaxDepth: g.env.Config.MaxDepth, MaxPageSize: g.env.Config.MaxPageSize,
		Cache: g.env.QueryCache, Bounds: g.env.Bounds, Compiles: g.env.Compiles, BaseURL: g.env.Config.BaseURL})
	if err != nil {
		return nil, fmt.Errorf("compile project %s: %w", p.st.Project.ID, err)
	}
	p.rt, p.rtVer = rt, p.st.Project.Version
	p.publish(g)
	return rt, nil
}

// minCompileTime is the least time a compile of the project grain gets.
const minCompileTime = 30 * time.Second

// mayDelete: an account project is deleted by an ADMIN or OWNER of its
// account (or the node), never by an API key (app/service_keys.go states
// the rule); a guest or session project by whoever authorize lets write.
func (p *projectGrain) mayDelete(a Access) error {
	pr := p.st.Project
	if pr.Kind != model.KindAccount || a.System || a.AccountID == pr.AccountID && a.Role.AtLeast(model.RoleAdmin) {
		return nil
	}
	return model.Errorf(model.CodeForbidden, "deleting a project needs role ADMIN or higher in its account; an API key cannot")
}

func (p *projectGrain) delete(g *grain) error {
	if err := g.env.Store.DeletePrefix(kindOverlay, g.id+"/"); err != nil {
		return err
	}
	if err := g.env.Store.DeletePrefix(kindReply, g.id+"/"); err != nil {
		return err
	}
	extra := append(allSandboxDeletes(g.id), allStateDeletes(g.id)...)
	if pr := p.st.Project; !pr.ExpiresAt.IsZero() {
		extra = append(extra, persistence.Put{Kind: kindExpiry, ID: expiryKey(pr.ExpiresAt, pr.ID)})
	}
	if err := g.saveJSON(nil, extra...); err != nil {
		return err
	}
	p.st, p.rt, p.ov, p.sandboxes = nil, nil, nil, nil
	p.publish(g)
	return nil
}

// reset drops the project's changes (resetMockData), or one sandbox's, or
// forgets a sandbox (deleteSandbox). The project's reset leaves its
// sandboxes' own changes.
func (p *projectGrain) reset(g *grain, m *pb.ProjectReset) error {
	switch {
	case m.DeleteSandbox:
		return p.deleteSandbox(g, m.Sandbox)
	case m.Sandbox != "":
		return p.resetSandbox(g, m.Sandbox)
	}
	if err := g.env.Store.DeletePrefix(kindOverlay, g.id+"/"); err != nil {
		return err
	}
	p.ov.Reset()
	return nil
}

// overlayPuts turns mutation changes into store writes.
func overlayPuts(projectID string, changes []graphql.Change) ([]persistence.Put, error) {
	puts := make([]persistence.Put, 0, len(changes))
	for _, c := range changes {
		b, err := json.Marshal(c)
		if err != nil {
			return nil, err
		}
		puts = append(puts, persistence.Put{Kind: kindOverlay, ID: projectID + "/" + c.TableID + "/" + c.RowID, Value: b})
	}
	return puts, nil
}

// other handles the grain's own messages (mutations handed back by a query goroutine).
func (p *projectGrain) other(g *grain, ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *mutationTask:
		p.runMutation(g, m)
	case eventTick:
		p.tickStreams(g)
	}
}
