package app

import (
	"context"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/actors/pb"
	"github.com/mockgql/mockgql/model"
)

// CheckIP counts one runtime request against its client IP's one-minute
// window; it is the first check of every runtime request, so guessing keys
// costs the guesser.
func (s *Service) CheckIP(ctx context.Context, ip string) error {
	if s.env.Config.IPLimit <= 0 {
		return nil
	}
	return s.Consume(ctx, actors.KindIP, ip)
}

// IssueActorToken answers POST /runtime/actors: a slot of the key's
// maxActors, held by the returned token until it is idle for ActorIdle.
func (s *Service) IssueActorToken(ctx context.Context, keyValue string) (any, error) {
	k, err := s.runtimeKey(ctx, keyValue)
	if err != nil {
		return nil, err
	}
	if err := s.projectExists(ctx, k.ProjectID); err != nil {
		return nil, err
	}
	r, err := s.Ask(ctx, actors.KindAPIKey, k.Hash, &pb.KeyAcquire{})
	if err != nil {
		return nil, err
	}
	return actors.ActorGrantOf(r), nil
}

// ReleaseActorToken answers DELETE /runtime/actors: the token's slot frees at once.
func (s *Service) ReleaseActorToken(ctx context.Context, keyValue, token string) error {
	k, err := s.runtimeKey(ctx, keyValue)
	if err != nil {
		return err
	}
	hash, err := actors.CheckActorToken(token, k.ID)
	if err != nil {
		return err
	}
	r, err := s.Ask(ctx, actors.KindAPIKey, k.Hash, &pb.KeyRelease{TokenHash: hash})
	if err != nil {
		return err
	}
	if !r.GetDone() {
		return model.Errorf(model.ErrActorTokenInvalid, "unknown actor token: it was released already, or it expired")
	}
	return nil
}

// runtimeKey checks a key for the actor-token routes: present, valid, and
// allowed to query the runtime.
func (s *Service) runtimeKey(ctx context.Context, value string) (model.APIKey, error) {
	if value == "" {
		return model.APIKey{}, model.Errorf(model.ErrUnauthenticated, "send the API key: Authorization: Bearer <key> or X-API-Key")
	}
	k, err := s.AuthKey(ctx, value)
	if err != nil {
		return k, err
	}
	if !k.Scope.Runtime() {
		return k, model.Errorf(model.ErrScopeInsufficient, "a %s key cannot use the runtime; use a RUNTIME or FULL key", k.Scope)
	}
	k.Hash = actors.HashSecret(value)
	return k, nil
}

// projectExists answers PROJECT_NOT_FOUND for a deleted project.
func (s *Service) projectExists(ctx context.Context, projectID string) error {
	if s.env.Local.Project(projectID) != nil {
		return nil
	}
	err := s.Tell(ctx, actors.KindProject, projectID, &pb.ProjectOwnerQuery{Access: actors.SystemAccess})
	if code := model.ErrorCode(err); code == model.ErrNotFound {
		return model.Errorf(model.ErrProjectNotFound, "this key's project was deleted")
	}
	return err
}
