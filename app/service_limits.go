package app

import (
	"context"
	"time"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// CheckIP counts one runtime request against its client IP's one-minute
// window; it is the first check of every runtime request, so guessing keys
// costs the guesser.
func (s *Edge) CheckIP(ctx context.Context, ip string) error {
	return s.grains.CheckIP(ctx, ip)
}

// IssueActorToken answers POST /runtime/actors: a slot of the key's
// maxActors, held by the returned token until it is idle for ActorIdle.
func (s *Runtime) IssueActorToken(ctx context.Context, keyValue string) (any, error) {
	k, err := s.runtimeKey(ctx, keyValue)
	if err != nil {
		return nil, err
	}
	if err := s.projectExists(ctx, k.ProjectID); err != nil {
		return nil, err
	}
	g, err := s.grains.AcquireActor(ctx, k.Hash)
	if err != nil {
		return nil, err
	}
	return g, nil
}

// ReleaseActorToken answers DELETE /runtime/actors: the token's slot frees at once.
func (s *Runtime) ReleaseActorToken(ctx context.Context, keyValue, token string) error {
	k, err := s.runtimeKey(ctx, keyValue)
	if err != nil {
		return err
	}
	return s.grains.ReleaseActor(ctx, k, token)
}

// AuthKey checks an API key value and returns its record: unknown, revoked
// and deleted keys are API_KEY_INVALID, expired ones API_KEY_EXPIRED.
func (s *Edge) AuthKey(ctx context.Context, value string) (model.APIKey, error) {
	return s.grains.AuthKey(ctx, value)
}

// runtimeKey checks a key for the actor-token routes: present, valid, and
// allowed to query the runtime.
func (s *core) runtimeKey(ctx context.Context, value string) (model.APIKey, error) {
	if value == "" {
		return model.APIKey{}, model.Errorf(model.CodeUnauthenticated, "send the API key: Authorization: Bearer <key> or X-API-Key")
	}
	k, err := s.grains.AuthKey(ctx, value)
	if err != nil {
		return k, err
	}
	if !k.Scope.Runtime() {
		return k, model.Errorf(model.CodeScopeInsufficient, "a %s key cannot use the runtime; use a RUNTIME or FULL key", k.Scope)
	}
	k.Hash = ids.HashSecret(value)
	return k, nil
}

// projectExists answers PROJECT_NOT_FOUND for a deleted project.
func (s *core) projectExists(ctx context.Context, projectID string) error {
	if s.local.Project(projectID) != nil {
		return nil
	}
	_, err := s.grains.Project(projectID, system).Owner(ctx)
	if code := model.ErrorCode(err); code == model.CodeNotFound {
		return model.Errorf(model.CodeProjectNotFound, "this key's project was deleted")
	}
	return err
}

// planUsage fills u's plan caps: the account's projects and own datasets
// (those of the catalog; uploads under way are not shown) with the limits
// of its plan.
func (s *core) planUsage(u *model.Usage, st *actors.AccountState) error {
	i := model.PlanIndex(st.Account.Plan)
	l := s.cfg.Limits
	u.Projects, u.ProjectLimit = len(st.Account.ProjectIDs), l.Projects[i]
	u.DatasetLimit, u.BytesLimit, u.KeysPerProjectLimit = l.Datasets[i], l.DatasetBytes[i], l.KeysPerProject[i]
	metas, err := s.pool.List()
	if err != nil {
		return err
	}
	for _, m := range metas {
		if m.Owner == st.Account.ID && !m.Deleted {
			u.Datasets, u.DatasetBytes = u.Datasets+1, u.DatasetBytes+m.Bytes
		}
	}
	return nil
}

// undoTimeout bounds the calls that undo half-made work after a refusal
// or failure (undoContext).
const undoTimeout = 10 * time.Second

// undoContext is the context of such a call: not cancelled with the
// request (the client may have gone away: the undo must still happen),
// and bounded by undoTimeout.
func undoContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), undoTimeout)
}
