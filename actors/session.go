package actors

import (
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
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
	Projects []SessionClaim `json:"projects,omitempty"`
	// ProjectID and Expires are the one claim of a checkpoint written when
	// a session held one project; load moves it into Projects.
	ProjectID string    `json:"projectId,omitempty"`
	Expires   time.Time `json:"expires,omitzero"`
}

// SessionClaim is a session project a session holds, and until when.
type SessionClaim struct {
	ProjectID string    `json:"projectId"`
	Expires   time.Time `json:"expires"`
}

func (s *sessionGrain) load(g *grain) error {
	if _, err := g.loadJSON(&s.st); err != nil {
		return err
	}
	if s.st.ProjectID != "" {
		s.st.Projects = append(s.st.Projects, SessionClaim{ProjectID: s.st.ProjectID, Expires: s.st.Expires})
		s.st.ProjectID, s.st.Expires = "", time.Time{}
	}
	s.guest = newMeter(perDay, int64(g.env.Config.GuestDailyCalls), s.st.Guest)
	g.env.Local.publishMeter(kindSession, g.id, s.guest)
	return nil
}

func (s *sessionGrain) handle(g *grain, c *call) (result, error) {
	now := g.env.Clock.Now()
	switch m := c.req.(type) {
	case *pb.Consume:
		if ok, retry := s.guest.take(now); !ok {
			return nil, guestQuotaError(g.env.Config, retry)
		}
		return nil, nil
	case *pb.Lease:
		return serveLease(s.guest, m, now, func(retry int) error { return guestQuotaError(g.env.Config, retry) })
	case *pb.SessionProject: // the newest live claim, or none
		live := s.live(now)
		if len(live) == 0 {
			return sessionClaims([]SessionClaim{}), nil
		}
		return sessionClaims(live[len(live)-1:]), nil
	case *pb.SessionProjects:
		return sessionClaims(s.live(now)), nil
	case *pb.SessionClaimProject:
		return nil, s.claim(g, SessionClaim{ProjectID: m.ProjectId, Expires: unstamp(m.Expires)}, now)
	case *pb.SessionReleaseProject:
		return nil, s.release(g, m.ProjectId)
	}
	return nil, unknownRequest(g, c)
}

// live returns the claims whose projects have not expired.
func (s *sessionGrain) live(now time.Time) []SessionClaim {
	var out []SessionClaim
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
func (s *sessionGrain) claim(g *grain, a SessionClaim, now time.Time) error {
	live := s.live(now)
	for _, cl := range live {
		if cl.ProjectID == a.ProjectID {
			return nil
		}
	}
	if limit := max(g.env.Config.Limits.SessionProjects, 1); len(live) >= limit {
		newest := live[len(live)-1]
		return model.Errorf(model.CodeLimitReached, "a session may hold %s at a time (it has %s, the newest until %s); use sessionProject, or sign up to keep it",
			plural(limit, "session project"), newest.ProjectID, newest.Expires.UTC().Format(time.RFC3339))
	}
	return s.save(g, append(live, a))
}

// release drops the session's claim on a project (expired, transferred,
// or a creation that failed); releasing twice is harmless.
func (s *sessionGrain) release(g *grain, projectID string) error {
	var keep []SessionClaim
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

func (s *sessionGrain) save(g *grain, projects []SessionClaim) error {
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
	g.env.Local.withdrawMeter(kindSession, g.id, s.guest)
}

// adoptionGrain is one adoption token (identity: its SHA-256): which
// project it opens, until when, and whether it was used. It is used once.
type adoptionGrain struct {
	st    AdoptionState
	found bool
}

type AdoptionState struct {
	ProjectID string    `json:"projectId"`
	Expires   time.Time `json:"expires"`
	Used      bool      `json:"used,omitempty"`
}

func (a *adoptionGrain) load(g *grain) (err error) {
	a.st = AdoptionState{}
	a.found, err = g.loadJSON(&a.st)
	return err
}

func (a *adoptionGrain) handle(g *grain, c *call) (result, error) {
	switch m := c.req.(type) {
	case *pb.AdoptionCreate:
		st := AdoptionState{ProjectID: m.ProjectId, Expires: unstamp(m.Expires)}
		return nil, commit(g, st, func(v AdoptionState) { a.st, a.found = v, true })
	case *pb.AdoptionUse:
		// The record, not this activation's copy, decides: the project
		// deletes the records of links it replaced (addAdoption) and of
		// itself when it expires.
		if err := a.load(g); err != nil {
			return nil, err
		}
		if !a.found || a.st.Used || !g.env.Clock.Now().Before(a.st.Expires) {
			return nil, model.Errorf(model.CodeAdoptionTokenInvalid, "this adoption link was used already or has expired; ask the assistant for a new one (createAdoptionLink)")
		}
		next := a.st
		next.Used = true
		if err := commit(g, next, func(v AdoptionState) { a.st = v }); err != nil {
			return nil, err
		}
		return a.st, nil
	}
	return nil, unknownRequest(g, c)
}
