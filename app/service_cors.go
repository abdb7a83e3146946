package app

import (
	"context"

	"github.com/mockgql/mockgql/model"
)

// SetAllowedOrigins replaces an account project's CORS origins (EDITOR or
// higher); model.CheckAllowedOrigins validates them in the project grain.
func (s *Management) SetAllowedOrigins(ctx context.Context, p model.Principal, id string, origins []string) (*model.Project, error) {
	if origins == nil {
		origins = []string{}
	}
	c, err := s.edit(ctx, p, id)
	if err != nil {
		return nil, err
	}
	return c.SetOrigins(ctx, origins)
}

// CORS is the CORS policy of the project a slug names (or projectID, when
// set), read from the grain's snapshot when it is active on this node; a
// slug that names no project answers any origin (its answers are 404s).
func (s *Edge) CORS(ctx context.Context, slug, projectID string) (model.CORSPolicy, error) {
	id, err := projectID, error(nil)
	if id == "" {
		id, err = s.grains.ResolveSlug(ctx, slug, false)
	}
	if model.ErrorCode(err) == model.CodeProjectNotFound {
		return model.CORSPolicy{}, nil
	}
	if err != nil {
		return model.CORSPolicy{}, err
	}
	if s.local != nil {
		if pr := s.local.Project(id); pr != nil && (projectID != "" || pr.Slug == slug) {
			return pr.CORS(), nil
		}
	}
	pr, err := s.readProject(ctx, model.Principal{System: true}, id, "")
	if model.ErrorCode(err) == model.CodeNotFound {
		return model.CORSPolicy{}, nil
	}
	if err != nil {
		return model.CORSPolicy{}, err
	}
	return pr.CORS(), nil
}
