package actors

import (
	"time"

	"github.com/mockgql/mockgql/model"
)

// sessionGrain is a browser's or an assistant's session (the mgq_session
// cookie; identity: its SHA-256). It holds the guest projects' daily quota
// and the session projects the session has: Limits.SessionProjects at a
// time (1 by default).
type sessionGrain struct {
	st    sessionState
	guest *meter
}

type sessionState struct {
	Guest meterState `json:"guest"`
	// Projects are the session's claims on session projects, oldest first.
	// A claim past its expiry is dead whether or not the sweeper released
	// it yet.
	Projects []sessionClaim `json:"projects,omitempty"`
	// ProjectID and Expires are the one claim of a checkpoint written when
	// a session held one project; load moves it into Projects.
	ProjectID string    `json:"projectId,omitempty"`
	Expires   time.Time `json:"expires,omitzero"`
}

// sessionClaim is a session project a session holds, and until when.
type sessionClaim struct {
	ProjectID string    `json:"projectId"`
	Expires   time.Time `json:"expires"`
}

// sessionArgs is the body of claimProject and releaseProject, and the
// answer of project (the newest live claim; empty when there is none).
type sessionArgs struct {
	ProjectID string    `json:"projectId,omitempty"`
	Expires   time.Time `json:"expires,omitzero"`
}

func (s *sessionGrain) load(g *grain) error {
	if _, err := g.loadJSON(&s.st); err != nil {
		return err
	}
	if s.st.ProjectID != "" {
		s.st.Projects = append(s.st.Projects, sessionClaim{ProjectID: s.st.ProjectID, Expires: s.st.Expires})
		s.st.ProjectID, s.st.Expires = "", time.Time{}
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
			return nil, guestQuotaError(g.env.Config, retry)
		}
		return nil, nil
	case "lease":
		return serveLease(s.guest, c, now, func(retry int) error { return guestQuotaError(g.env.Config, retry) })
	case "project":
		live := s.live(now)
		if len(live) == 0 {
			return sessionArgs{}, nil
		}
		newest := live[len(live)-1]
		return sessionArgs(newest), nil
	case "projects":
		return s.live(now), nil
	case "claimProject":
		return nil, s.claim(g, a, now)
	case "releaseProject":
		return nil, s.release(g, a.ProjectID)
	}
	return nil, unknownMethod(g, c)
}

// live returns the claims whose projects have not expired.
func (s *sessionGrain) live(now time.Time) []sessionClaim {
	var out []sessionClaim
	for _, cl := range s.st.Projects {
		if now.Before(cl.Expires) {
			out = append(out, cl)
		}
	}
	return out
}

// claim adds a session project to the session unless it holds the most
// it may already. Dead claims are dropped on the way; a retried claim of
// the same project succeeds.
func (s *sessionGrain) claim(g *grain, a sessionArgs, now time.Time) error {
	live := s.live(now)
	for _, cl := range live {
		if cl.ProjectID == a.ProjectID {
			return nil
		}
	}
	if limit := max(g.env.Config.Limits.SessionProjects, 1); len(live) >= limit {
		newest := live[len(live)-1]
		return model.Errorf(model.ErrLimitReached, "a session may hold %s at a time (it has %s, the newest until %s); use sessionProject, or sign up to keep it",
			plural(limit, "session project"), newest.ProjectID, newest.Expires.UTC().Format(time.RFC3339))
	}
	return s.save(g, append(live, sessionClaim(a)))
}

// release drops the session's claim on a project (expired, transferred,
// or a creation that failed); releasing twice is harmless.
func (s *sessionGrain) release(g *grain, projectID string) error {
	var keep []sessionClaim
	for _, cl := range s.st.Projects {
		if cl.ProjectID != projectID {
			keep = append(keep, cl)
		}
	}
	if len(keep) == len(s.st.Projects) {
		return nil
	}
	return s.save(g, keep)
}

func (s *sessionGrain) save(g *grain, projects []sessionClaim) error {
	next := s.st
	next.Guest, _ = s.guest.checkpoint()
	next.Projects = projects
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
