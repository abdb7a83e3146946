package actors

import (
	"github.com/mockgql/mockgql/actors/pb"
	"github.com/mockgql/mockgql/model"
)

// slugGrain maps one slug to the project that answers it; claiming a slug
// here is what makes slugs unique.
type slugGrain struct {
	state slugState
}

type slugState struct {
	ProjectID string `json:"projectId"`
}

func (s *slugGrain) load(g *grain) error {
	_, err := g.loadJSON(&s.state)
	return err
}

func (s *slugGrain) handle(g *grain, c *call) (any, error) {
	switch m := c.req.(type) {
	case *pb.SlugGet:
		if s.state.ProjectID == "" {
			return nil, model.Errorf(model.ErrProjectNotFound, "no project has the slug %q", g.id)
		}
		return s.state, nil
	case *pb.SlugClaim:
		if s.state.ProjectID != "" && s.state.ProjectID != m.ProjectId {
			return nil, model.Errorf(model.ErrConflict, "the slug %q is taken", g.id)
		}
		return nil, commit(g, slugState{ProjectID: m.ProjectId}, func(v slugState) { s.state = v })
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
