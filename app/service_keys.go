package app

import (
	"context"
	"strings"
	"time"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// Who may do what with API keys and projects; the one rule that the
// schema's descriptions and the docs repeat:
//   - Only signed-in members manage keys; an API key of any scope (FULL,
//     MANAGEMENT, RUNTIME) creates, lists, revokes and deletes none and
//     deletes no project.
//   - VIEWER: no keys.
//   - EDITOR: lists the project's keys, creates RUNTIME keys, revokes and
//     deletes the keys they created themselves.
//   - ADMIN and OWNER: create keys of every scope, revoke and delete any
//     key, delete projects (DeleteProject).
//
// Keys need the PROFESSIONAL plan or above.

// keyAdmin checks that p may manage the keys of projectID (an EDITOR or
// higher of the project's account, on PROFESSIONAL or above) and returns
// the project and p's membership.
func (s *core) keyAdmin(ctx context.Context, p model.Principal, projectID string) (*model.Project, model.Member, error) {
	if err := needUser(p); err != nil {
		return nil, model.Member{}, err
	}
	pr, err := s.readProject(ctx, p, projectID, "")
	if err != nil {
		return nil, model.Member{}, err
	}
	if pr.Kind != model.KindAccount {
		return nil, model.Member{}, model.Errorf(model.CodeForbidden, "%s projects have no API keys; their runtime answers to the share token", pr.Kind)
	}
	st, err := s.account(ctx, p.AccountID)
	if err != nil {
		return nil, model.Member{}, err
	}
	m := st.Account.Member(p.UserID)
	if m == nil {
		return nil, model.Member{}, model.Errorf(model.CodeForbidden, "you are no longer a member of this account")
	}
	if !model.KeysAllowed(st.Account.Plan) {
		return nil, model.Member{}, model.Errorf(model.CodeForbidden, "API keys are available on the PROFESSIONAL plan and above (this account is on %s)", st.Account.Plan)
	}
	if !m.Role.AtLeast(model.RoleEditor) {
		return nil, model.Member{}, model.Errorf(model.CodeForbidden, "managing API keys needs role EDITOR or higher (an EDITOR creates RUNTIME keys; ADMIN every scope)")
	}
	return pr, *m, nil
}

// mayCreateKey applies the rule to a key of scope made by m.
func mayCreateKey(m model.Member, scope model.Scope) error {
	if scope != model.ScopeRuntime && !m.Role.AtLeast(model.RoleAdmin) {
		return model.Errorf(model.CodeForbidden, "a %s key needs role ADMIN or higher; an EDITOR creates RUNTIME keys", scope)
	}
	return nil
}

// mayRevokeKey applies the rule to revoking or deleting ref as m.
func mayRevokeKey(m model.Member, ref actors.KeyRef) error {
	if m.Role.AtLeast(model.RoleAdmin) || ref.CreatedBy != "" && ref.CreatedBy == m.User.ID {
		return nil
	}
	return model.Errorf(model.CodeForbidden, "an EDITOR revokes and deletes only the keys they created; other keys need role ADMIN or higher")
}

// CreateAPIKey makes a key for a project; its value is returned once. The
// key is written first and indexed in the account second, where the plan's
// cap of keys per project is held (LIMIT_REACHED past it; the written key
// is deleted then, its value never shown).
func (s *Management) CreateAPIKey(ctx context.Context, p model.Principal, projectID, name string, scope model.Scope, expiresAt time.Time, maxActors int) (model.CreatedKey, error) {
	_, m, err := s.keyAdmin(ctx, p, projectID)
	if err != nil {
		return model.CreatedKey{}, err
	}
	if !scope.Valid() {
		return model.CreatedKey{}, model.Errorf(model.CodeBadUserInput, "unknown scope %q", scope)
	}
	if err := mayCreateKey(m, scope); err != nil {
		return model.CreatedKey{}, err
	}
	key, value, err := s.newKey(p, projectID, name, scope, expiresAt, maxActors)
	if err != nil {
		return model.CreatedKey{}, err
	}
	creator := m.User
	key.CreatedBy = &creator
	if err := s.grains.Key(key.Hash).Create(ctx, key); err != nil {
		return model.CreatedKey{}, err
	}
	claim := actors.KeyRef{Hash: key.Hash, ProjectID: projectID, CreatedBy: p.UserID}
	if err := s.grains.Account(p.AccountID).ClaimKey(ctx, key.ID, claim); err != nil {
		undo, cancel := undoContext(ctx)
		defer cancel()
		_ = s.grains.Key(key.Hash).Delete(undo) // its value was never shown
		_ = s.grains.Account(p.AccountID).RemoveKey(undo, key.ID)
		return model.CreatedKey{}, err
	}
	key.Hash = ""
	return model.CreatedKey{Key: key, Value: value}, nil
}

// newKey checks a new key's settings and makes its record and value.
func (s *core) newKey(p model.Principal, projectID, name string, scope model.Scope, expiresAt time.Time, maxActors int) (model.APIKey, string, error) {
	if err := model.CheckDisplayName("a key name", strings.TrimSpace(name)); err != nil {
		return model.APIKey{}, "", err
	}
	if maxActors == 0 { // a Go caller's default; the management API refuses an explicit 0 (http)
		maxActors = model.DefaultMaxActors
	}
	if maxActors < 1 || maxActors > 1000 {
		return model.APIKey{}, "", model.Errorf(model.CodeBadUserInput, "maxActors is 1 to 1000")
	}
	now := s.clock.Now().UTC()
	if !expiresAt.IsZero() && !expiresAt.After(now) {
		return model.APIKey{}, "", model.Errorf(model.CodeBadUserInput, "expiresAt is in the past")
	}
	value := ids.KeyPrefix + ids.RandomString(43)
	key := model.APIKey{ID: "k" + ids.RandomString(14), Name: trimName(name), ProjectID: projectID, AccountID: p.AccountID,
		Scope: scope, Prefix: value[:len(ids.KeyPrefix)+6], ExpiresAt: expiresAt, MaxActors: maxActors, CreatedAt: now, Hash: ids.HashSecret(value)}
	return key, value, nil
}

// APIKeys lists a project's keys (never their values).
func (s *Management) APIKeys(ctx context.Context, p model.Principal, projectID string) ([]model.APIKey, error) {
	if _, _, err := s.keyAdmin(ctx, p, projectID); err != nil {
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
		k, err := s.grains.Key(ref.Hash).Get(ctx)
		if err != nil {
			if model.ErrorCode(err) == model.CodeAPIKeyInvalid {
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
func (s *core) keyRefOf(ctx context.Context, p model.Principal, keyID string) (actors.KeyRef, error) {
	if err := needUser(p); err != nil {
		return actors.KeyRef{}, err
	}
	st, err := s.account(ctx, p.AccountID)
	if err != nil {
		return actors.KeyRef{}, err
	}
	ref, ok := st.Keys[keyID]
	if !ok {
		return actors.KeyRef{}, model.Errorf(model.CodeNotFound, "no API key %q in this account", keyID)
	}
	_, m, err := s.keyAdmin(ctx, p, ref.ProjectID)
	if err != nil {
		return ref, err
	}
	return ref, mayRevokeKey(m, ref)
}

// RevokeAPIKey revokes a key at once.
func (s *Management) RevokeAPIKey(ctx context.Context, p model.Principal, keyID string) (model.APIKey, error) {
	ref, err := s.keyRefOf(ctx, p, keyID)
	if err != nil {
		return model.APIKey{}, err
	}
	k, err := s.grains.Key(ref.Hash).Revoke(ctx)
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
func (s *Management) DeleteAPIKey(ctx context.Context, p model.Principal, keyID string) error {
	ref, err := s.keyRefOf(ctx, p, keyID)
	if err != nil {
		return err
	}
	if err := s.grains.Key(ref.Hash).Delete(ctx); err != nil && model.ErrorCode(err) != model.CodeAPIKeyInvalid {
		return err
	}
	if err := s.evictKey(ctx, ref); err != nil {
		return err
	}
	return s.grains.Account(p.AccountID).RemoveKey(ctx, keyID)
}

// evictKey tells the project's grain to drop a key it may have cached,
// before a revocation or deletion is acknowledged. A project that is gone
// has nothing cached.
func (s *core) evictKey(ctx context.Context, ref actors.KeyRef) error {
	err := s.grains.Project(ref.ProjectID, system).EvictKey(ctx, ref.Hash)
	if c := model.ErrorCode(err); c == model.CodeNotFound || c == model.CodeProjectNotFound {
		return nil
	}
	return err
}
