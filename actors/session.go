package actors

import (
	"time"

	"github.com/mockgql/mockgql/model"
)

// sessionGrain is a browser's or an assistant's session (the mgq_session
// cookie; identity: its SHA-256). It holds the guest projects' daily quota
// and which session project, if any, the session has: one at a time.
type sessionGrain struct {
	st    sessionState
	guest *meter
}

type sessionState struct {
	Guest     meterState `json:"guest"`
	ProjectID string     `json:"projectId,omitempty"`
	Expires   time.Time  `json:"expires,omitzero"`
}

type sessionArgs struct {
	ProjectID string    `json:"projectId,omitempty"`
	Expires   time.Time `json:"expires,omitzero"`
}

func (s *sessionGrain) load(g *grain) error {
	if _, err := g.loadJSON(&s.st); err != nil {
		return err
	}
	s.guest = newMeter(perDay, int64(g.env.Config.GuestDailyCalls), s.st.Guest)
	g.env.Local.publishMeter(KindSession, g.id, s.guest)
	return nil
}

func (s *sessionGrain) handle(g *grain, c *call) (any, error) {
	var a sessionArgs
	if err := c.decode(&a); err != nil {
		return nil, err
	}
	now := g.env.Clock.Now()
	switch c.req.Method {
	case "consume":
		if ok, retry := s.guest.take(now); !ok {
			return nil, quotaError(retry)
		}
		return nil, nil
	case "lease":
		return serveLease(s.guest, c, now, quotaError)
	case "project":
		if s.st.ProjectID == "" || !now.Before(s.st.Expires) {
			return sessionArgs{}, nil
		}
		return sessionArgs{ProjectID: s.st.ProjectID, Expires: s.st.Expires}, nil
	case "claimProject":
		if s.st.ProjectID != "" && s.st.ProjectID != a.ProjectID && now.Before(s.st.Expires) {
			return nil, model.Errorf(model.ErrLimitReached, "a session has one session project at a time (%s, until %s); use sessionProject", s.st.ProjectID, s.st.Expires.UTC().Format(time.RFC3339))
		}
		return nil, s.save(g, a.ProjectID, a.Expires)
	case "releaseProject":
		if s.st.ProjectID != a.ProjectID {
			return nil, nil
		}
		return nil, s.save(g, "", time.Time{})
	}
	return nil, unknownMethod(g, c)
}

func (s *sessionGrain) save(g *grain, projectID string, expires time.Time) error {
	next := s.st
	next.Guest, _ = s.guest.checkpoint()
	next.ProjectID, next.Expires = projectID, expires
	if err := g.saveJSON(next); err != nil {
		return err
	}
	s.st = next
	return nil
}

func (s *sessionGrain) flush(g *grain) {
	if st, dirty := s.guest.checkpoint(); dirty {
		next := s.st
		next.Guest = st
		if err := g.saveJSON(next); err != nil {
			g.env.Log.Warn("session checkpoint failed", "err", err)
			return
		}
		s.st = next
	}
}

func (s *sessionGrain) stopped(g *grain) {
	s.flush(g)
	g.env.Local.withdrawMeter(KindSession, g.id, s.guest)
}

// adoptionGrain is one adoption token (identity: its SHA-256): which
// project it opens, until when, and whether it was used. It is used once.
type adoptionGrain struct {
	st    adoptionState
	found bool
}

type adoptionState struct {
	ProjectID string    `json:"projectId"`
	Expires   time.Time `json:"expires"`
	Used      bool      `json:"used,omitempty"`
}

func (a *adoptionGrain) load(g *grain) (err error) {
	a.found, err = g.loadJSON(&a.st)
	return err
}

func (a *adoptionGrain) handle(g *grain, c *call) (any, error) {
	switch c.req.Method {
	case "create":
		var st adoptionState
		if err := c.decode(&st); err != nil {
			return nil, err
		}
		return nil, commit(g, st, func(v adoptionState) { a.st, a.found = v, true })
	case "use":
		if !a.found || a.st.Used || !g.env.Clock.Now().Before(a.st.Expires) {
			return nil, model.Errorf(model.ErrAdoptionTokenInvalid, "this adoption link was used already or has expired; ask the assistant for a new one (createAdoptionLink)")
		}
		next := a.st
		next.Used = true
		if err := commit(g, next, func(v adoptionState) { a.st = v }); err != nil {
			return nil, err
		}
		return a.st, nil
	}
	return nil, unknownMethod(g, c)
}
