package app

import (
	"context"
	"strings"
	"time"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// AdoptionTokenPrefix starts every adoption token: adt_ and 32 base62
// characters from crypto/rand (about 190 random bits). Only its SHA-256 is
// stored: it is the adoption grain's identity, so a token is looked up by
// its hash and never compared with a stored token; what a lookup's timing
// could tell is about a hash, whose preimage stays unknown.
const AdoptionTokenPrefix = "adt_"

// CreateSessionProject makes a session project (SessionTTL of life; a
// session holds Limits.SessionProjects at a time), starting a session when
// there is none, and a one-time adoption link for the human. It returns the session ID so the caller can set the cookie.
func (s sessionProjects) CreateSessionProject(ctx context.Context, p model.Principal, name string) (model.SessionProject, string, error) {
	session := s.sessionOf(p)
	if session == "" {
		session = s.newSessionID()
	}
	if err := model.CheckDisplayName("a project name", strings.TrimSpace(name)); err != nil {
		return model.SessionProject{}, "", err
	}
	if name = trimName(name); name == "" {
		name = "Session project"
	}
	now := s.clock.Now().UTC()
	pr := &model.Project{ID: ids.NewProjectID(), Name: name, Kind: model.KindSession, ShareToken: "shr_" + ids.RandomString(24),
		ExpiresAt: now.Add(s.cfg.SessionTTL)}
	hash := ids.HashSecret(session)
	if err := s.grains.Session(hash).ClaimProject(ctx, pr.ID, pr.ExpiresAt); err != nil {
		return model.SessionProject{}, "", err
	}
	if err := s.createProject(ctx, pr, "session-"+strings.ToLower(ids.RandomString(8)), hash); err != nil {
		_ = s.grains.Session(hash).ReleaseProject(ctx, pr.ID)
		return model.SessionProject{}, "", err
	}
	sp := model.SessionProject{Project: pr}
	var err error
	sp.AdoptionToken, sp.AdoptionExpiresAt, err = s.newAdoption(ctx, pr)
	return sp, session, err
}

// newAdoption issues a one-time adoption token for a session project.
func (s *core) newAdoption(ctx context.Context, pr *model.Project) (string, time.Time, error) {
	token := AdoptionTokenPrefix + ids.RandomString(32)
	hash := ids.HashSecret(token)
	exp := s.clock.Now().UTC().Add(s.cfg.AdoptionTTL)
	if exp.After(pr.ExpiresAt) {
		exp = pr.ExpiresAt
	}
	if err := s.grains.Project(pr.ID, system).AddAdoption(ctx, hash); err != nil {
		return "", time.Time{}, err
	}
	if err := s.grains.Adoption(hash).Create(ctx, pr.ID, exp); err != nil {
		return "", time.Time{}, err
	}
	return token, exp, nil
}

// CreateAdoptionLink issues a fresh one-time link for the caller's session project.
func (s sessionProjects) CreateAdoptionLink(ctx context.Context, p model.Principal, projectID string) (model.SessionProject, error) {
	pr, err := s.readProject(ctx, p, projectID, "")
	if err != nil {
		return model.SessionProject{}, err
	}
	if pr.Kind != model.KindSession {
		return model.SessionProject{}, model.Errorf(model.CodeBadUserInput, "adoption links are for session projects; this one is %s", pr.Kind)
	}
	sp := model.SessionProject{Project: pr}
	sp.AdoptionToken, sp.AdoptionExpiresAt, err = s.newAdoption(ctx, pr)
	return sp, err
}

// SessionProject returns the session's live session project, or nil.
func (s sessionProjects) SessionProject(ctx context.Context, p model.Principal) (*model.Project, error) {
	sess := s.sessionOf(p)
	if sess == "" {
		return nil, nil
	}
	claims, err := s.grains.Session(ids.HashSecret(sess)).Project(ctx)
	if err != nil || len(claims) == 0 || claims[0].ProjectID == "" {
		return nil, err
	}
	a := claims[0]
	pr, err := s.readProject(ctx, p, a.ProjectID, "")
	if model.ErrorCode(err) == model.CodeNotFound {
		return nil, nil
	}
	return pr, err
}

// Adopt uses a one-time adoption token and returns the project it opens
// and until when that project lives.
func (s *Adoption) Adopt(ctx context.Context, token string) (string, time.Time, error) {
	bad := model.Errorf(model.CodeAdoptionTokenInvalid, "this adoption link was used already or has expired; ask the assistant for a new one (createAdoptionLink)")
	if !strings.HasPrefix(token, AdoptionTokenPrefix) || len(token) != len(AdoptionTokenPrefix)+32 {
		return "", time.Time{}, bad
	}
	st, err := s.grains.Adoption(ids.HashSecret(token)).Use(ctx)
	if err != nil {
		return "", time.Time{}, err
	}
	pr, err := s.readProject(ctx, model.Principal{System: true}, st.ProjectID, "")
	if err != nil || pr.Kind != model.KindSession || pr.Expired(s.clock.Now()) {
		return "", time.Time{}, bad
	}
	return pr.ID, pr.ExpiresAt, nil
}

// adoptSessionProject moves the principal's live session projects (its
// board session's, and its session cookie's) into accountID, at sign-up.
func (s *core) adoptSessionProject(ctx context.Context, p model.Principal, accountID string) error {
	var moving []string
	if p.BoardProjectID != "" {
		moving = append(moving, p.BoardProjectID)
	}
	var claims []actors.SessionClaim
	if sess := s.sessionOf(p); sess != "" {
		var err error
		if claims, err = s.grains.Session(ids.HashSecret(sess)).Projects(ctx); err != nil {
			return err
		}
	}
	for _, cl := range claims {
		if cl.ProjectID != p.BoardProjectID {
			moving = append(moving, cl.ProjectID)
		}
	}
	for _, id := range moving {
		if err := s.transferProject(ctx, id, accountID); err != nil {
			return err
		}
	}
	return nil
}

// transferProject moves one live session project into accountID and
// releases the claim of the session that made it (the caller's, or the
// assistant's when the board session of an adoption link signs up), so that
// session may make another.
func (s *core) transferProject(ctx context.Context, projectID, accountID string) error {
	o, err := s.grains.Project(projectID, system).Owner(ctx)
	if err == nil {
		err = s.grains.Project(projectID, system).Transfer(ctx, accountID)
	}
	switch model.ErrorCode(err) {
	case "":
	case model.CodeNotFound, model.CodeConflict: // expired, or not a session project: nothing to move
		return nil
	default:
		return err
	}
	if err := s.grains.Account(accountID).AddProject(ctx, projectID); err != nil {
		return err
	}
	if o.Session == "" {
		return nil
	}
	return s.grains.Session(o.Session).ReleaseProject(ctx, projectID)
}

// KeepSessionProject moves the session project the caller's browser holds
// (its board session's, opened with an adoption link, or one its session
// cookie made) into accountID, or the caller's account when that is empty:
// a signed-in member with role EDITOR or above takes it without signing up
// again. The account's project cap applies; the project stops expiring
// and becomes an account project, whose runtime answers only to API keys
// (its share token goes). Refusals: UNAUTHENTICATED (not signed in),
// FORBIDDEN (not an EDITOR of the account), NOT_FOUND (no such live
// session project held by this browser), CONFLICT (kept already),
// LIMIT_REACHED (the plan's project cap).
func (s *Management) KeepSessionProject(ctx context.Context, p model.Principal, projectID, accountID string) (*model.Project, error) {
	if err := needUser(p); err != nil {
		return nil, err
	}
	if err := model.CheckID("projectId", projectID); err != nil {
		return nil, err
	}
	if accountID == "" {
		accountID = p.AccountID
	}
	if err := model.CheckID("accountId", accountID); err != nil {
		return nil, err
	}
	st, err := s.account(ctx, accountID)
	if model.ErrorCode(err) == model.CodeNotFound {
		return nil, model.Errorf(model.CodeForbidden, "you are not a member of workspace %s", accountID)
	}
	if err != nil {
		return nil, err
	}
	m := st.Account.Member(p.UserID)
	if m == nil {
		return nil, model.Errorf(model.CodeForbidden, "you are not a member of workspace %s", accountID)
	}
	if !m.Role.AtLeast(model.RoleEditor) {
		return nil, model.Errorf(model.CodeForbidden, "keeping a project in %s needs role EDITOR or higher; yours is %s", st.Account.Name, m.Role)
	}
	held, err := s.holds(ctx, p, projectID)
	if err != nil {
		return nil, err
	}
	notFound := model.Errorf(model.CodeNotFound, "this browser holds no session project %s (open the assistant's adoption link first; session projects expire)", projectID)
	if !held {
		return nil, notFound
	}
	o, err := s.grains.Project(projectID, system).Owner(ctx)
	if model.ErrorCode(err) == model.CodeNotFound {
		return nil, notFound
	}
	if err != nil {
		return nil, err
	}
	if o.Kind != model.KindSession {
		return nil, model.Errorf(model.CodeConflict, "project %s was kept already: it is an account project now", projectID)
	}
	if err := s.projectRoom(ctx, accountID); err != nil {
		return nil, err
	}
	// The account holds the cap: claim first, move second, give the claim
	// back when the move fails (expired, or kept by another tab meanwhile).
	if err := s.grains.Account(accountID).ClaimProject(ctx, projectID); err != nil {
		return nil, err
	}
	if err := s.grains.Project(projectID, system).Transfer(ctx, accountID); err != nil {
		undo, cancel := undoContext(ctx)
		defer cancel()
		// Kept into this account by another tab meanwhile: the claim is its.
		if o, e := s.grains.Project(projectID, system).Owner(undo); e != nil || o.AccountID != accountID {
			_ = s.grains.Account(accountID).RemoveProject(undo, projectID)
		}
		switch model.ErrorCode(err) {
		case model.CodeNotFound:
			return nil, notFound
		case model.CodeConflict:
			return nil, model.Errorf(model.CodeConflict, "project %s was kept already: it is an account project now", projectID)
		}
		return nil, err
	}
	if o.Session != "" {
		_ = s.grains.Session(o.Session).ReleaseProject(ctx, projectID)
	}
	return s.readProject(ctx, model.Principal{System: true}, projectID, "")
}

// holds tells whether the caller's browser holds session project id: its
// board session (an adoption link's) or its session cookie's claims.
func (s *core) holds(ctx context.Context, p model.Principal, id string) (bool, error) {
	if p.BoardProjectID == id {
		return true, nil
	}
	sess := s.sessionOf(p)
	if sess == "" {
		return false, nil
	}
	claims, err := s.grains.Session(ids.HashSecret(sess)).Projects(ctx)
	if err != nil {
		return false, err
	}
	for _, cl := range claims {
		if cl.ProjectID == id {
			return true, nil
		}
	}
	return false, nil
}
