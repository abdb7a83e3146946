package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/persistence"
)

// Named states (model/mockstate.go, docs/using/testing.md): a state is a
// saved copy of the changes a project's data holds, its own or a
// sandbox's effective ones (the project's changes as they were then with
// the sandbox's on top), so that restoring it anywhere gives the same
// rows. It is written with the project's grain like the overlay (a record
// kindState and its changes kindStateRows, in one batch), so it is an
// acknowledged write: replicated and kept across restarts and failover.
// States are not held in memory; restoring one reads it. Bounded by the
// plan's states a project (model.Limits.States) and Config.StateBytes a
// state.

const (
	kindState     = "mockstate"     // <projectID>/<name>: stateRecord
	kindStateRows = "mockstaterows" // <projectID>/<name>: a JSON array of graphql.Change
)

// DefaultStateBytes is Config.StateBytes's default (docs/reference/bounds.md).
const DefaultStateBytes = 1 << 20

// stateRecord is a named state's stored description.
type stateRecord struct {
	SavedAt     time.Time `json:"savedAt"`
	ChangedRows int       `json:"changedRows"`
	Bytes       int64     `json:"bytes"`
}

// mockState answers ProjectMockState.
func (p *projectGrain) mockState(g *grain, m *pb.ProjectMockState) (result, error) {
	if m.Op == "list" {
		list, err := p.stateList(g)
		if err != nil {
			return nil, err
		}
		return jsonReply(list)
	}
	if err := model.CheckStateName(m.Name); err != nil {
		return nil, err
	}
	if m.Sandbox != "" {
		if err := model.CheckSandboxName(m.Sandbox); err != nil {
			return nil, err
		}
	}
	plan := accessPlan(p, m.Access)
	switch m.Op {
	case "save":
		st, err := p.saveState(g, m.Name, m.Sandbox, plan)
		if err != nil {
			return nil, err
		}
		return jsonReply(st)
	case "restore":
		if m.Sandbox != "" {
			return nil, p.sandboxFromState(g, m.Sandbox, m.Name, plan, false)
		}
		return nil, p.restoreState(g, m.Name)
	case "delete":
		return nil, p.deleteState(g, m.Name)
	}
	return nil, model.Errorf(model.CodeBadUserInput, "unknown state operation %q", model.Clip(m.Op, 16))
}

// accessPlan is the plan whose limits apply to the project for a caller
// with access a: the account's plan when the caller is a member of the
// project's account or holds a key of the project; "" (STARTER's limits)
// otherwise (a guest or session project).
func accessPlan(p *projectGrain, a *pb.Access) model.Plan {
	if a == nil || p.st == nil || p.st.Project.AccountID == "" {
		return ""
	}
	if a.AccountId == p.st.Project.AccountID || a.KeyProjectId == p.st.Project.ID {
		return model.Plan(a.Plan)
	}
	return ""
}

// stateList answers the project's named states, by name.
func (p *projectGrain) stateList(g *grain) ([]model.MockState, error) {
	prefix := g.id + "/"
	out := []model.MockState{}
	err := g.env.Store.Scan(kindState, prefix, func(id string, v []byte) error {
		var r stateRecord
		if err := json.Unmarshal(v, &r); err != nil {
			return err
		}
		out = append(out, model.MockState{Name: strings.TrimPrefix(id, prefix), SavedAt: r.SavedAt, ChangedRows: r.ChangedRows, Bytes: r.Bytes})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("states of %s: %w", g.id, err)
	}
	return out, nil
}

// saveState keeps the project's changes, or sandbox's effective ones, as
// state name, replacing a state of that name. A new name past the plan's
// states a project, or changes past Config.StateBytes, are LIMIT_REACHED
// and write nothing.
func (p *projectGrain) saveState(g *grain, name, sandbox string, plan model.Plan) (model.MockState, error) {
	changes := p.ov.Changes()
	if sandbox != "" {
		sb := liveSandbox(p.sandboxes, sandbox, g.env.Clock.Now(), g.env.Config.SandboxTTL)
		if sb == nil {
			return model.MockState{}, errNoSandbox(sandbox)
		}
		changes = sb.overlay(p.ov).Changes()
	}
	if changes == nil {
		changes = []graphql.Change{}
	}
	rows, err := json.Marshal(changes)
	if err != nil {
		return model.MockState{}, err
	}
	if max := g.env.Config.StateBytes; max > 0 && int64(len(rows)) > max {
		return model.MockState{}, model.Errorf(model.CodeLimitReached, "the state would hold %d bytes of changes, more than the bound of %d (--state-bytes)", len(rows), max)
	}
	if err := p.stateRoom(g, name, plan); err != nil {
		return model.MockState{}, err
	}
	st := model.MockState{Name: name, SavedAt: g.env.Clock.Now(), ChangedRows: len(changes), Bytes: int64(len(rows))}
	rec, err := json.Marshal(stateRecord{SavedAt: st.SavedAt, ChangedRows: st.ChangedRows, Bytes: st.Bytes})
	if err != nil {
		return model.MockState{}, err
	}
	id := g.id + "/" + name
	if err := g.env.Store.Write(persistence.Put{Kind: kindStateRows, ID: id, Value: rows}, persistence.Put{Kind: kindState, ID: id, Value: rec}); err != nil {
		return model.MockState{}, err
	}
	return st, nil
}

// stateRoom refuses a new state name when the project holds as many as
// the plan allows (plan "": STARTER's).
func (p *projectGrain) stateRoom(g *grain, name string, plan model.Plan) error {
	if plan == "" {
		plan = model.PlanStarter
	}
	limit := g.env.Config.Limits.States[model.PlanIndex(plan)]
	if limit <= 0 {
		return nil
	}
	list, err := p.stateList(g)
	if err != nil {
		return err
	}
	for _, s := range list {
		if s.Name == name {
			return nil // saved again: replaces it
		}
	}
	if len(list) >= limit {
		return model.Errorf(model.CodeLimitReached, "the project holds %d named states, the most its plan allows (%d): delete one (deleteMockState)", len(list), limit)
	}
	return nil
}

// stateChanges reads state name's changes; NOT_FOUND when the project
// holds none of that name.
func (p *projectGrain) stateChanges(g *grain, name string) ([]graphql.Change, error) {
	v, err := g.env.Store.Get(kindStateRows, g.id+"/"+name)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, model.Errorf(model.CodeNotFound, "the project has no state %q (saveMockState saves one)", model.Clip(name, model.MaxSandboxName))
	}
	var changes []graphql.Change
	if err := json.Unmarshal(v, &changes); err != nil {
		return nil, fmt.Errorf("state %s of %s: %w", name, g.id, err)
	}
	return changes, nil
}

// restoreState makes the project's own changes those of state name, in
// one write. Its sandboxes keep their own changes.
func (p *projectGrain) restoreState(g *grain, name string) error {
	changes, err := p.stateChanges(g, name)
	if err != nil {
		return err
	}
	puts, err := overlayPuts(g.id, changes)
	if err != nil {
		return err
	}
	puts = append([]persistence.Put{{Kind: kindOverlay, ID: g.id + "/", Prefix: true}}, puts...)
	if err := g.env.Store.Write(puts...); err != nil {
		return err
	}
	p.ov.Replace(changes)
	return nil
}

// sandboxFromState makes sandbox's changes those of state: the sandbox
// is made if the project holds none of that name (within the plan's
// sandboxes), and left as it is when ifAbsent and it exists (the state of
// X-Mock-Sandbox: <sandbox>@<state> counts only on first use). The
// state's changes are held to Config.SandboxBytes like a sandbox's.
func (p *projectGrain) sandboxFromState(g *grain, sandbox, state string, plan model.Plan, ifAbsent bool) error {
	now := g.env.Clock.Now()
	old := liveSandbox(p.sandboxes, sandbox, now, g.env.Config.SandboxTTL)
	if old != nil && ifAbsent {
		return nil
	}
	changes, err := p.stateChanges(g, state)
	if err != nil {
		return err
	}
	sb, fresh, err := p.sandboxFor(g, sandbox, plan)
	if err != nil {
		return err
	}
	next := newSandbox(sandbox, sb.created)
	puts, sizes, err := p.sandboxPuts(g, next, changes)
	if err == nil {
		puts = append([]persistence.Put{{Kind: kindSandboxRow, ID: g.id + "/" + sandbox + "/", Prefix: true}}, puts...)
		err = g.env.Store.Write(puts...)
	}
	if err != nil {
		if fresh {
			p.sandboxes.drop(sandbox)
		}
		return err
	}
	next.apply(changes, sizes)
	next.touch(now)
	p.sandboxes.put(next)
	return nil
}

// deleteState forgets state name; NOT_FOUND when the project holds none.
func (p *projectGrain) deleteState(g *grain, name string) error {
	id := g.id + "/" + name
	v, err := g.env.Store.Get(kindState, id)
	if err != nil {
		return err
	}
	if v == nil {
		return model.Errorf(model.CodeNotFound, "the project has no state %q", model.Clip(name, model.MaxSandboxName))
	}
	return g.env.Store.Write(persistence.Put{Kind: kindState, ID: id}, persistence.Put{Kind: kindStateRows, ID: id})
}

// allStateDeletes are the store writes that forget every named state of a
// project (its deletion and expiry).
func allStateDeletes(projectID string) []persistence.Put {
	return []persistence.Put{{Kind: kindState, ID: projectID + "/", Prefix: true},
		{Kind: kindStateRows, ID: projectID + "/", Prefix: true}}
}

// jsonReply answers v as JSON in the reply's body.
func jsonReply(v any) (result, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return rawReply{&pb.Reply{Status: 200, Body: b}}, nil
}

// SaveState saves the project's mock data changes, or sandbox's ("" the
// project's), as named state name (EDITOR and above).
func (p ProjectClient) SaveState(ctx context.Context, name, sandbox string) (model.MockState, error) {
	var st model.MockState
	r, err := p.ask(ctx, &pb.ProjectMockState{Op: "save", Name: name, Sandbox: sandbox})
	if err != nil {
		return st, err
	}
	if err := json.Unmarshal(r.GetBody(), &st); err != nil {
		return st, fmt.Errorf("state of %s: %w", p.id, err)
	}
	return st, nil
}

// States lists the project's named states, by name (VIEWER and above).
func (p ProjectClient) States(ctx context.Context) ([]model.MockState, error) {
	r, err := p.ask(ctx, &pb.ProjectMockState{Op: "list"})
	if err != nil {
		return nil, err
	}
	var out []model.MockState
	if err := json.Unmarshal(r.GetBody(), &out); err != nil {
		return nil, fmt.Errorf("states of %s: %w", p.id, err)
	}
	return out, nil
}

// RestoreState makes the project's data, or sandbox's (made if need be),
// what named state name holds (EDITOR and above).
func (p ProjectClient) RestoreState(ctx context.Context, name, sandbox string) error {
	return p.tell(ctx, &pb.ProjectMockState{Op: "restore", Name: name, Sandbox: sandbox})
}

// DeleteState forgets named state name (EDITOR and above).
func (p ProjectClient) DeleteState(ctx context.Context, name string) error {
	return p.tell(ctx, &pb.ProjectMockState{Op: "delete", Name: name})
}
