package http

import (
	"context"
	"encoding/json"

	"github.com/mockgql/mockgql/graphql"
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

// updateProject resolves Mutation.updateProject; a null or absent name,
// slug or allowedOrigins stays as it is. The origins are set first, so
// invalid ones change nothing.
func (s *Surface) updateProject(ctx context.Context, c *Call, args input) (any, error) {
	id, name, slug := args.str("projectId"), args.strPtr("name"), args.strPtr("slug")
	var p *model.Project
	if list, ok := args["allowedOrigins"].([]any); ok {
		origins := make([]string, 0, len(list))
		for _, o := range list {
			v, _ := o.(string)
			origins = append(origins, v)
		}
		var err error
		if p, err = s.cfg.Backend.SetAllowedOrigins(ctx, c.Principal, id, origins); err != nil {
			return nil, err
		}
	}
	if p == nil || name != nil || slug != nil {
		var err error
		if p, err = s.cfg.Backend.UpdateProject(ctx, c.Principal, id, name, slug); err != nil {
			return nil, err
		}
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

// setPreviewSharing resolves Mutation.setPreviewSharing.
func (s *Surface) setPreviewSharing(ctx context.Context, c *Call, args input) (any, error) {
	p, err := s.cfg.Backend.SetPreviewSharing(ctx, c.Principal, args.str("projectId"), args.boolean("enabled"))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).project(p), nil
}

// previewQuery resolves Mutation.previewQuery: the runtime's answer as a
// JSON value, {data, errors} or, for a document the runtime refused,
// {errors}. Refusals before the query runs (quota, rights) are errors of
// the field.
func (s *Surface) previewQuery(ctx context.Context, c *Call, args input) (any, error) {
	req := graphql.Request{Query: args.str("query"), OperationName: args.str("operationName")}
	if v, ok := args["variables"].(map[string]any); ok {
		req.Variables = v
	} else if args["variables"] != nil {
		return nil, model.Errorf(model.ErrBadUserInput, "variables: a JSON object, or null")
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, model.Errorf(model.ErrBadUserInput, "variables: not a JSON value: %v", err)
	}
	res, err := s.cfg.Backend.PreviewQuery(ctx, c.Principal, args.str("projectId"), body)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(res.Body), nil
}
