package actors

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/persistence"
)

// kindExpiry indexes projects by expiry: "<unix ms, 13 digits>/<project ID>",
// so the sweeper finds what is due with one ordered scan.
const kindExpiry = "expiry"

func expiryKey(t time.Time, projectID string) string {
	return fmt.Sprintf("%013d/%s", t.UnixMilli(), projectID)
}

// expired is what the sweeper needs to finish a deletion.
type expired struct {
	Deleted bool   `json:"deleted"`
	Slug    string `json:"slug,omitempty"`
	Session string `json:"session,omitempty"`
}

// expire deletes the project with all its content when its time has come
// (checkpoint, overlay, mutation answers, adoption tokens) in one write. It
// does nothing to a project that is live (or was transferred to an account
// meanwhile).
//
// The expiry index entry stays, now holding what the sweeper must still
// release (the slug, the session's claim), until the sweeper reports both
// released with expireDone. A sweeper that dies between the steps leaves
// the entry for the next sweep on any node, which gets the same answer here
// and repeats the (idempotent) releases: the deletion happens once, the
// releases at least once.
func (p *projectGrain) expire(g *grain, indexKey string) (result, error) {
	if p.st == nil { // deleted already: finish what a sweep left, or drop a stale entry
		v, err := g.env.Store.Get(kindExpiry, indexKey)
		if err != nil {
			return nil, err
		}
		var ex expired
		if len(v) > 1 && json.Unmarshal(v, &ex) == nil && ex.Deleted {
			return ex, nil
		}
		return expired{}, g.env.Store.Write(persistence.Put{Kind: kindExpiry, ID: indexKey})
	}
	pr := p.st.Project
	if !pr.Expired(g.env.Clock.Now()) {
		return expired{}, nil
	}
	out := expired{Deleted: true, Slug: pr.Slug, Session: p.st.Session}
	pending, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	puts := []persistence.Put{
		{Kind: kindOverlay, ID: g.id + "/", Prefix: true},
		{Kind: kindReply, ID: g.id + "/", Prefix: true},
		{Kind: kindExpiry, ID: expiryKey(pr.ExpiresAt, pr.ID), Value: pending},
	}
	puts = append(puts, allSandboxDeletes(g.id)...)
	puts = append(puts, allStateDeletes(g.id)...)
	for _, h := range p.st.Adoptions {
		puts = append(puts, persistence.Put{Kind: kindAdoption, ID: h})
	}
	if err := g.saveJSON(nil, puts...); err != nil {
		return nil, err
	}
	p.st, p.rt, p.ov, p.sandboxes = nil, nil, nil, nil
	p.startCalls(g)
	p.publish(g)
	return out, nil
}

// expireDone drops the expiry index entry of a deleted project once the
// sweeper released its slug and session.
func (p *projectGrain) expireDone(g *grain, indexKey string) error {
	if p.st != nil { // live again? (an ID is never reused; be safe)
		return nil
	}
	return g.env.Store.Write(persistence.Put{Kind: kindExpiry, ID: indexKey})
}

// transfer moves a live session project into an account: it becomes an
// account project with no expiry, whose runtime needs an API key.
func (p *projectGrain) transfer(g *grain, accountID string) (result, error) {
	pr := p.st.Project
	if pr.Kind != model.KindSession {
		return nil, model.Errorf(model.CodeConflict, "project %s is not a session project", pr.ID)
	}
	next := &projectState{Project: pr.Clone()}
	np := next.Project
	np.Kind, np.AccountID, np.ExpiresAt, np.ShareToken = model.KindAccount, accountID, time.Time{}, ""
	np.Version++
	drop := []persistence.Put{{Kind: kindExpiry, ID: expiryKey(pr.ExpiresAt, pr.ID)}}
	for _, h := range p.st.Adoptions { // adoption links open session projects only
		drop = append(drop, persistence.Put{Kind: kindAdoption, ID: h})
	}
	if err := commit(g, next, func(v *projectState) { p.st = v }, drop...); err != nil {
		return nil, err
	}
	p.startCalls(g)
	p.publish(g)
	return projectReply{p.st.Project}, nil
}

// extendGuest keeps a guest project that is in use alive: it moves the
// expiry to Config.GuestTTL from now (and the expiry index entry with it)
// once that is at least a thirtieth of the TTL, at most a day, further
// than the current expiry, so a project in use costs one write a day. A
// guest project stored before guest projects expired gets its expiry
// here, on its first activation (the sweeper activates every such
// project once: adoptLegacyGuests). It runs when the grain activates and
// on its flush ticks; a grain is active only while it is being used.
func (p *projectGrain) extendGuest(g *grain) {
	ttl := g.env.Config.GuestTTL
	if p.st == nil || p.st.Project.Kind != model.KindGuest || ttl <= 0 || p.st.Kept {
		return
	}
	pr, now := p.st.Project, g.env.Clock.Now()
	if pr.Expired(now) {
		return // the sweeper's now
	}
	want := now.Add(ttl).UTC()
	if !pr.ExpiresAt.IsZero() && want.Sub(pr.ExpiresAt) < min(ttl/30, 24*time.Hour) {
		return
	}
	np := *pr // the model is shared, not changed: ExpiresAt is not part of the schema
	np.ExpiresAt = want
	next := *p.st
	next.Project = &np
	puts := []persistence.Put{{Kind: kindExpiry, ID: expiryKey(want, pr.ID), Value: []byte{1}}}
	if !pr.ExpiresAt.IsZero() {
		puts = append(puts, persistence.Put{Kind: kindExpiry, ID: expiryKey(pr.ExpiresAt, pr.ID)})
	}
	if err := commit(g, &next, func(v *projectState) { p.st = v }, puts...); err != nil {
		g.env.Log.Warn("extending a guest project's life failed", "project", pr.ID, "err", err)
		return
	}
	p.publish(g)
}

// keep exempts a guest project from Config.GuestTTL: its expiry and its
// expiry index entry go in one write. Keeping twice is harmless.
func (p *projectGrain) keep(g *grain) error {
	pr := p.st.Project
	if pr.Kind != model.KindGuest {
		return model.Errorf(model.CodeBadUserInput, "only a guest project is kept; this one is %s", pr.Kind)
	}
	if p.st.Kept && pr.ExpiresAt.IsZero() {
		return nil
	}
	np := *pr
	np.ExpiresAt = time.Time{}
	next := *p.st
	next.Project, next.Kept = &np, true
	var drop []persistence.Put
	if !pr.ExpiresAt.IsZero() {
		drop = append(drop, persistence.Put{Kind: kindExpiry, ID: expiryKey(pr.ExpiresAt, pr.ID)})
	}
	if err := commit(g, &next, func(v *projectState) { p.st = v }, drop...); err != nil {
		return err
	}
	p.publish(g)
	return nil
}

// addAdoption records a new adoption token of a session project. It keeps
// the newest Config.AdoptionLinks: the oldest beyond them is deleted in
// the same write, so its link stops working and the record stays the same
// size however many links are made.
func (p *projectGrain) addAdoption(g *grain, hash string) error {
	keep := max(g.env.Config.AdoptionLinks, 1)
	all := append(append([]string{}, p.st.Adoptions...), hash)
	var drop []persistence.Put
	for len(all) > keep {
		drop = append(drop, persistence.Put{Kind: kindAdoption, ID: all[0]})
		all = all[1:]
	}
	next := *p.st
	next.Adoptions = all
	return commit(g, &next, func(v *projectState) { p.st = v }, drop...)
}
