package actors

import (
	"fmt"

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

type slugArgs struct {
	ProjectID string `json:"projectId"`
}

func (s *slugGrain) load(g *grain) error {
	_, err := g.loadJSON(&s.state)
	return err
}

func (s *slugGrain) handle(g *grain, c *call) (any, error) {
	var a slugArgs
	if err := c.decode(&a); err != nil {
		return nil, err
	}
	switch c.req.Method {
	case "get":
		if s.state.ProjectID == "" {
			return nil, model.Errorf(model.ErrProjectNotFound, "no project has the slug %q", g.id)
		}
		return s.state, nil
	case "claim":
		if s.state.ProjectID != "" && s.state.ProjectID != a.ProjectID {
			return nil, model.Errorf(model.ErrConflict, "the slug %q is taken", g.id)
		}
		return nil, commit(g, slugState(a), func(v slugState) { s.state = v })
	case "release":
		if s.state.ProjectID != a.ProjectID {
			return nil, nil
		}
		if err := g.saveJSON(nil); err != nil {
			return nil, err
		}
		s.state = slugState{}
		return nil, nil
	}
	return nil, unknownMethod(g, c)
}

func unknownMethod(g *grain, c *call) error {
	return fmt.Errorf("%s has no method %q", g.kind, c.req.Method)
}
