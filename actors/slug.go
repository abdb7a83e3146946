package actors

import (
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// slugGrain maps one slug to the project that answers it; claiming a slug
// here is what makes slugs unique.
type slugGrain struct {
	state slugState
}

type slugState struct {
	ProjectID string `json:"projectId"`
	// ClaimedAt is when ProjectID claimed the slug (zero: before claims
	// had a time).
	ClaimedAt time.Time `json:"claimedAt,omitzero"`
}

// staleClaimAfter is how old a claim must be before another project may
// take the slug from a holder that does not hold it: longer than any slug
// move (claim, edit, release) takes within its request's deadline.
const staleClaimAfter = 2 * time.Minute

func (s *slugGrain) load(g *grain) error {
	_, err := g.loadJSON(&s.state)
	return err
}

func (s *slugGrain) handle(g *grain, c *call) (result, error) {
	switch m := c.req.(type) {
	case *pb.SlugGet:
		if s.state.ProjectID == "" {
			return nil, model.Errorf(model.CodeProjectNotFound, "no project has the slug %q", g.id)
		}
		return s.state, nil
	case *pb.SlugClaim:
		now := g.env.Clock.Now()
		if s.state.ProjectID != "" && s.state.ProjectID != m.ProjectId && !s.stale(m.StaleHolder, now) {
			return nil, model.Errorf(model.CodeConflict, "the slug %q is taken", g.id)
		}
		if s.state.ProjectID == m.ProjectId {
			return nil, nil // a retried claim keeps its time
		}
		return nil, commit(g, slugState{ProjectID: m.ProjectId, ClaimedAt: now.UTC()}, func(v slugState) { s.state = v })
	case *pb.SlugRelease:
		if s.state.ProjectID != m.ProjectId {
			return nil, nil
		}
		if err := g.saveJSON(nil); err != nil {
			return nil, err
		}
		s.state = slugState{}
		return nil, nil
	}
	return nil, unknownRequest(g, c)
}

// stale reports whether the current claim may be replaced: the caller named
// its holder as one that does not hold the slug, and the claim is older
// than a move takes.
func (s *slugGrain) stale(holder string, now time.Time) bool {
	return holder != "" && holder == s.state.ProjectID && now.Sub(s.state.ClaimedAt) >= staleClaimAfter
}
