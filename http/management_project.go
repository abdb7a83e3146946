package http

import (
	"context"

	"github.com/mockgql/mockgql/model"
)

// The resolvers in this file serve projects.

// projects resolves Query.projects.
func (s *Surface) projects(ctx context.Context, c *Call, _ input) (any, error) {
	ps, err := s.cfg.Backend.Projects(ctx, c.Principal)
	if err != nil {
		return nil, err
	}
	return shapeAll(ps, s.shaper(c).project), nil
}

// project resolves Query.project.
func (s *Surface) project(ctx context.Context, c *Call, args input) (any, error) {
	id, slug := args.str("id"), args.str("slug")
	if id == "" && slug == "" {
		return nil, model.Errorf(model.ErrBadUserInput, "give the project's id or slug")
	}
	p, err := s.cfg.Backend.Project(ctx, c.Principal, id, slug)
	if err != nil {
		return nil, err
	}
	return s.shaper(c).project(p), nil
}

// createProject resolves Mutation.createProject.
func (s *Surface) createProject(ctx context.Context, c *Call, args input) (any, error) {
	p, err := s.cfg.Backend.CreateProject(ctx, c.Principal, args.str("name"), args.str("slug"))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).project(p), nil
}

// updateProject resolves Mutation.updateProject; a null or absent name or
// slug stays as it is.
func (s *Surface) updateProject(ctx context.Context, c *Call, args input) (any, error) {
	p, err := s.cfg.Backend.UpdateProject(ctx, c.Principal, args.str("projectId"), args.strPtr("name"), args.strPtr("slug"))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).project(p), nil
}

// deleteProject resolves Mutation.deleteProject.
func (s *Surface) deleteProject(ctx context.Context, c *Call, args input) (any, error) {
	return done(s.cfg.Backend.DeleteProject(ctx, c.Principal, args.str("projectId")))
}

// resetMockData resolves Mutation.resetMockData.
func (s *Surface) resetMockData(ctx context.Context, c *Call, args input) (any, error) {
	return done(s.cfg.Backend.ResetMockData(ctx, c.Principal, args.str("projectId")))
}
