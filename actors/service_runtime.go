package actors

import (
	"context"
	"sync"

	"github.com/mockgql/mockgql/actors/pb"
	"github.com/mockgql/mockgql/model"
)

// slugCache remembers which project answers a slug. An entry may go stale
// when a slug moves; the project grain checks the slug on every call and
// the caller then asks the slug grain again, so staleness costs one retry
// and never a wrong answer.
type slugCache struct{ m sync.Map }

func (c *slugCache) get(slug string) string {
	v, _ := c.m.Load(slug)
	s, _ := v.(string)
	return s
}

// Runtime runs one /mock/{slug}/graphql request (RuntimePath.Run).
func (s *Service) Runtime(ctx context.Context, r model.RuntimeRequest) (*model.RuntimeResult, error) {
	return s.runtime.Run(ctx, r)
}

func (s *grains) resolveSlug(ctx context.Context, slug string, fresh bool) (string, error) {
	if !fresh {
		if id := s.slugs.get(slug); id != "" {
			return id, nil
		}
	}
	if !model.ValidSlug(slug) {
		return "", model.Errorf(model.ErrProjectNotFound, "no project has the slug %q", slug)
	}
	r, err := s.ask(ctx, KindSlug, slug, &pb.SlugGet{})
	if err != nil {
		s.slugs.m.Delete(slug)
		return "", err
	}
	id := r.GetSlugOwner().GetProjectId()
	s.slugs.m.Store(slug, id)
	return id, nil
}

// checkRuntimeKey: the key must be valid, of this project, and allowed to
// query the runtime.
func (s *grains) checkRuntimeKey(ctx context.Context, value, projectID string) (model.APIKey, error) {
	k, err := s.authKeyFor(ctx, value, projectID)
	if err != nil {
		return k, err
	}
	if k.ProjectID != projectID {
		return k, model.Errorf(model.ErrProjectNotFound, "this API key belongs to another project")
	}
	if !k.Scope.Runtime() {
		return k, model.Errorf(model.ErrScopeInsufficient, "a %s key cannot query the runtime; use a RUNTIME or FULL key", k.Scope)
	}
	return k, nil
}
