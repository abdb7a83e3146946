package app

import (
	"context"
	"strings"
	"time"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/actors/pb"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// keyAdmin checks that p may manage the keys of projectID: a signed-in
// EDITOR or higher of the project's account, on PROFESSIONAL or above.
func (s *Service) keyAdmin(ctx context.Context, p model.Principal, projectID string) (*model.Project, error) {
	if err := needUser(p); err != nil {
		return nil, err
	}
	pr, err := s.Project(ctx, p, projectID, "")
	if err != nil {
		return nil, err
	}
	if pr.Kind != model.KindAccount {
		return nil, model.Errorf(model.ErrForbidden, "%s projects have no API keys; their runtime answers to the share token", pr.Kind)
	}
	a, err := s.access(ctx, p)
	if err != nil {
		return nil, err
	}
	if !model.KeysAllowed(a.Plan) {
		return nil, model.Errorf(model.ErrForbidden, "API keys are available on the PROFESSIONAL plan and above (this account is on %s)", a.Plan)
	}
	if !a.Role.AtLeast(model.RoleEditor) {
		return nil, model.Errorf(model.ErrForbidden, "managing API keys needs role EDITOR or higher")
	}
	return pr, nil
}

// CreateAPIKey makes a key for a project; its value is returned once.
func (s *Service) CreateAPIKey(ctx context.Context, p model.Principal, projectID, name string, scope model.Scope, expiresAt time.Time, maxActors int) (model.CreatedKey, error) {
	if _, err := s.keyAdmin(ctx, p, projectID); err != nil {
		return model.CreatedKey{}, err
	}
	if !scope.Valid() {
		return model.CreatedKey{}, model.Errorf(model.ErrBadUserInput, "unknown scope %q", scope)
	}
	if err := model.CheckDisplayName("a key name", strings.TrimSpace(name)); err != nil {
		return model.CreatedKey{}, err
	}
	if maxActors == 0 { // a Go caller's default; the management API refuses an explicit 0 (http)
		maxActors = model.DefaultMaxActors
	}
	if maxActors < 1 || maxActors > 1000 {
		return model.CreatedKey{}, model.Errorf(model.ErrBadUserInput, "maxActors is 1 to 1000")
	}
	now := s.clock.Now().UTC()
	if !expiresAt.IsZero() && !expiresAt.After(now) {
		return model.CreatedKey{}, model.Errorf(model.ErrBadUserInput, "expiresAt is in the past")
	}
	value := ids.KeyPrefix + ids.RandomString(43)
	key := model.APIKey{ID: "k" + ids.RandomString(14), Name: trimName(name), ProjectID: projectID, AccountID: p.AccountID,
		Scope: scope, Prefix: value[:len(ids.KeyPrefix)+6], ExpiresAt: expiresAt, MaxActors: maxActors, CreatedAt: now, Hash: ids.HashSecret(value)}
	if err := s.grains.TellKey(ctx, key.Hash, &pb.KeyCreate{Key: &pb.APIKeyDoc{Json: actors.EncodeDoc(key)}}); err != nil {
		return model.CreatedKey{}, err
	}
	if err := s.grains.TellAccount(ctx, p.AccountID, &pb.AccountAddKey{KeyId: key.ID, KeyHash: key.Hash, ProjectId: projectID}); err != nil {
		return model.CreatedKey{}, err
	}
	key.Hash = ""
	return model.CreatedKey{Key: key, Value: value}, nil
}

// APIKeys lists a project's keys (never their values).
func (s *Service) APIKeys(ctx context.Context, p model.Principal, projectID string) ([]model.APIKey, error) {
	if _, err := s.keyAdmin(ctx, p, projectID); err != nil {
		return nil, err
	}
	st, err := s.account(ctx, p.AccountID)
	if err != nil {
		return nil, err
	}
	out := []model.APIKey{}
	for _, ref := range st.Keys {
		if ref.ProjectID != projectID {
			continue
		}
		k, err := s.grains.AskKey(ctx, ref.Hash, &pb.KeyGet{})
		if err != nil {
			if model.ErrorCode(err) == model.ErrAPIKeyInvalid {
				continue
			}
			return nil, err
		}
		k.Hash = ""
		out = append(out, k)
	}
	return out, nil
}

// keyRefOf finds a key of the principal's account by ID.
func (s *Service) keyRefOf(ctx context.Context, p model.Principal, keyID string) (actors.KeyRef, error) {
	if err := needUser(p); err != nil {
		return actors.KeyRef{}, err
	}
	st, err := s.account(ctx, p.AccountID)
	if err != nil {
		return actors.KeyRef{}, err
	}
	ref, ok := st.Keys[keyID]
	if !ok {
		return actors.KeyRef{}, model.Errorf(model.ErrNotFound, "no API key %q in this account", keyID)
	}
	_, err = s.keyAdmin(ctx, p, ref.ProjectID)
	return ref, err
}

// RevokeAPIKey revokes a key at once.
func (s *Service) RevokeAPIKey(ctx context.Context, p model.Principal, keyID string) (model.APIKey, error) {
	ref, err := s.keyRefOf(ctx, p, keyID)
	if err != nil {
		return model.APIKey{}, err
	}
	k, err := s.grains.AskKey(ctx, ref.Hash, &pb.KeyRevoke{})
	if err != nil {
		return model.APIKey{}, err
	}
	if err := s.evictKey(ctx, ref); err != nil {
		return model.APIKey{}, err
	}
	k.Hash = ""
	return k, nil
}

// DeleteAPIKey deletes a key; it behaves as revoked from then on.
func (s *Service) DeleteAPIKey(ctx context.Context, p model.Principal, keyID string) error {
	ref, err := s.keyRefOf(ctx, p, keyID)
	if err != nil {
		return err
	}
	if err := s.grains.TellKey(ctx, ref.Hash, &pb.KeyDelete{}); err != nil && model.ErrorCode(err) != model.ErrAPIKeyInvalid {
		return err
	}
	if err := s.evictKey(ctx, ref); err != nil {
		return err
	}
	return s.grains.TellAccount(ctx, p.AccountID, &pb.AccountRemoveKey{KeyId: keyID})
}

// evictKey tells the project's grain to drop a key it may have cached,
// before a revocation or deletion is acknowledged. A project that is gone
// has nothing cached.
func (s *Service) evictKey(ctx context.Context, ref actors.KeyRef) error {
	err := s.grains.TellProject(ctx, ref.ProjectID, &pb.ProjectEvictKey{KeyHash: ref.Hash})
	if c := model.ErrorCode(err); c == model.ErrNotFound || c == model.ErrProjectNotFound {
		return nil
	}
	return err
}
