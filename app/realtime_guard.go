package app

import (
	"context"
	"sync"
	"time"

	"github.com/mockgql/mockgql/model"
)

// RecheckEvery is how often a node checks again the credential of its
// open subscription connections (docs/reference/bounds.md): a key revoked,
// deleted or expired, a share token ended or a project deleted ends the
// connections that hold it within this and one check's time, on whichever
// node they are. The connections of one credential share one check, so a
// node makes at most one check every RecheckEvery per credential it
// serves, however many connections use it.
const RecheckEvery = 2 * time.Second

// recheckTimeout bounds one check; a check that fails for another reason
// than a refusal (a node away, a deadline) leaves the connections open
// until the next one says.
const recheckTimeout = 3 * time.Second

// guard re-checks the credentials of a node's open subscription sessions
// and ends the sessions of one that no longer lets them in. Safe for
// concurrent use.
type guard struct {
	rt     *Realtime
	mu     sync.Mutex
	groups map[guardKey]*guardGroup
}

// guardKey is one credential on one project: the sessions that share it
// share its checks.
type guardKey struct {
	slug, projectID, key, shareToken, actorToken string
}

// guardGroup is the open sessions of one credential.
type guardGroup struct {
	sessions map[*session]struct{}
	stop     chan struct{} // closed when the group has no session left
}

// add starts checking s's credential, with its group's check when another
// session already has it.
func (g *guard) add(s *session) {
	k := guardKey{s.base.Slug, s.projectID, s.base.KeyValue, s.base.ShareToken, s.base.ActorToken}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.groups == nil {
		g.groups = map[guardKey]*guardGroup{}
	}
	gr := g.groups[k]
	if gr == nil {
		gr = &guardGroup{sessions: map[*session]struct{}{}, stop: make(chan struct{})}
		g.groups[k] = gr
		go g.watch(k, gr, s.check())
	}
	gr.sessions[s] = struct{}{}
}

// remove stops checking for s; the last session of a group stops its check.
func (g *guard) remove(s *session) {
	k := guardKey{s.base.Slug, s.projectID, s.base.KeyValue, s.base.ShareToken, s.base.ActorToken}
	g.mu.Lock()
	defer g.mu.Unlock()
	gr := g.groups[k]
	if gr == nil {
		return
	}
	delete(gr.sessions, s)
	if len(gr.sessions) == 0 {
		delete(g.groups, k)
		close(gr.stop)
	}
}

// watch checks the credential of k every RecheckEvery until its group
// empties, or ends the group's sessions once the check refuses it. The
// check of a credential with an actor token also keeps the token in use
// (its idle time, --actor-idle, would free its slot).
func (g *guard) watch(k guardKey, gr *guardGroup, check model.RuntimeRequest) {
	every := RecheckEvery
	if k.actorToken != "" {
		every = min(every, max(g.rt.svc.cfg.ActorIdle/3, time.Second))
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-gr.stop:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), recheckTimeout)
		_, err := g.rt.svc.runtime.Run(ctx, check)
		cancel()
		if !refusesConnection(err) {
			continue
		}
		g.mu.Lock()
		var ended []*session
		if g.groups[k] == gr {
			delete(g.groups, k)
			for s := range gr.sessions {
				ended = append(ended, s)
			}
		}
		g.mu.Unlock()
		for _, s := range ended {
			s.end(err)
		}
		return
	}
}

// refusesConnection reports whether err, a check's answer, says the
// credential no longer lets its connections in; a failure of the check
// itself (INTERNAL, UNAVAILABLE, a deadline, a full window) does not.
func refusesConnection(err error) bool {
	switch model.ErrorCode(err) {
	case model.CodeUnauthenticated, model.CodeAPIKeyInvalid, model.CodeAPIKeyExpired,
		model.CodeActorTokenInvalid, model.CodeScopeInsufficient, model.CodeProjectNotFound,
		model.CodeForbidden, model.CodeNotFound:
		return err != nil
	}
	return false
}
