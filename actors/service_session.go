package actors

import (
	"context"
	"strings"
	"time"

	"github.com/mockgql/mockgql/model"
)

// AdoptionTokenPrefix starts every adoption token: adt_ and 32 base62
// characters (about 190 random bits). Only its hash is stored.
const AdoptionTokenPrefix = "adt_"

// CreateSessionProject makes the session's one session project (24 hours
// of life), starting a session when there is none, and a one-time adoption
// link for the human. It returns the session ID so the caller can set the cookie.
func (s *Service) CreateSessionProject(ctx context.Context, p model.Principal, name string) (model.SessionProject, string, error) {
	session := p.SessionID
	if session == "" {
		session = "s" + randomString(26)
	}
	if name = trimName(name); name == "" {
		name = "Session project"
	}
	now := s.env.Clock.Now().UTC()
	pr := &model.Project{ID: newProjectID(), Name: name, Kind: model.KindSession, ShareToken: "shr_" + randomString(24),
		ExpiresAt: now.Add(s.env.Config.SessionTTL)}
	hash := hashSecret(session)
	if err := s.call(ctx, KindSession, hash, "claimProject", sessionArgs{ProjectID: pr.ID, Expires: pr.ExpiresAt}, nil); err != nil {
		return model.SessionProject{}, "", err
	}
	if err := s.createProject(ctx, pr, "session-"+strings.ToLower(randomString(8)), hash); err != nil {
		_ = s.call(ctx, KindSession, hash, "releaseProject", sessionArgs{ProjectID: pr.ID}, nil)
		return model.SessionProject{}, "", err
	}
	sp := model.SessionProject{Project: pr}
	var err error
	sp.AdoptionToken, sp.AdoptionExpiresAt, err = s.newAdoption(ctx, pr)
	return sp, session, err
}

// newAdoption issues a one-time adoption token for a session project.
func (s *Service) newAdoption(ctx context.Context, pr *model.Project) (string, time.Time, error) {
	token := AdoptionTokenPrefix + randomString(32)
	hash := hashSecret(token)
	exp := s.env.Clock.Now().UTC().Add(s.env.Config.AdoptionTTL)
	if exp.After(pr.ExpiresAt) {
		exp = pr.ExpiresAt
	}
	if err := s.call(ctx, KindProject, pr.ID, "addAdoption", projectArgs{Access: access{System: true}, Adoption: hash}, nil); err != nil {
		return "", time.Time{}, err
	}
	if err := s.call(ctx, KindAdoption, hash, "create", adoptionState{ProjectID: pr.ID, Expires: exp}, nil); err != nil {
		return "", time.Time{}, err
	}
	return token, exp, nil
}

// CreateAdoptionLink issues a fresh one-time link for the caller's session project.
func (s *Service) CreateAdoptionLink(ctx context.Context, p model.Principal, projectID string) (model.SessionProject, error) {
	pr, err := s.Project(ctx, p, projectID, "")
	if err != nil {
		return model.SessionProject{}, err
	}
	if pr.Kind != model.KindSession {
		return model.SessionProject{}, model.Errorf(model.ErrBadUserInput, "adoption links are for session projects; this one is %s", pr.Kind)
	}
	sp := model.SessionProject{Project: pr}
	sp.AdoptionToken, sp.AdoptionExpiresAt, err = s.newAdoption(ctx, pr)
	return sp, err
}

// SessionProject returns the session's live session project, or nil.
func (s *Service) SessionProject(ctx context.Context, p model.Principal) (*model.Project, error) {
	if p.SessionID == "" {
		return nil, nil
	}
	var a sessionArgs
	if err := s.call(ctx, KindSession, hashSecret(p.SessionID), "project", nil, &a); err != nil || a.ProjectID == "" {
		return nil, err
	}
	pr, err := s.Project(ctx, p, a.ProjectID, "")
	if model.ErrorCode(err) == model.ErrNotFound {
		return nil, nil
	}
	return pr, err
}

// Adopt uses a one-time adoption token and returns the project it opens
// and until when that project lives.
func (s *Service) Adopt(ctx context.Context, token string) (string, time.Time, error) {
	bad := model.Errorf(model.ErrAdoptionTokenInvalid, "this adoption link was used already or has expired; ask the assistant for a new one (createAdoptionLink)")
	if !strings.HasPrefix(token, AdoptionTokenPrefix) || len(token) != len(AdoptionTokenPrefix)+32 {
		return "", time.Time{}, bad
	}
	var st adoptionState
	if err := s.call(ctx, KindAdoption, hashSecret(token), "use", nil, &st); err != nil {
		return "", time.Time{}, err
	}
	pr, err := s.Project(ctx, model.Principal{System: true}, st.ProjectID, "")
	if err != nil || pr.Kind != model.KindSession || pr.Expired(s.env.Clock.Now()) {
		return "", time.Time{}, bad
	}
	return pr.ID, pr.ExpiresAt, nil
}

// adoptSessionProject moves the principal's live session project (by its
// session cookie or its board session) into accountID, at sign-up.
func (s *Service) adoptSessionProject(ctx context.Context, p model.Principal, accountID string) error {
	projectID := p.BoardProjectID
	if projectID == "" && p.SessionID != "" {
		var a sessionArgs
		if err := s.call(ctx, KindSession, hashSecret(p.SessionID), "project", nil, &a); err != nil {
			return err
		}
		projectID = a.ProjectID
	}
	if projectID == "" {
		return nil
	}
	var pr model.Project
	err := s.call(ctx, KindProject, projectID, "transfer", projectArgs{Access: access{System: true}, AccountID: accountID}, &pr)
	switch model.ErrorCode(err) {
	case "":
	case model.ErrNotFound, model.ErrConflict: // expired, or not a session project: nothing to move
		return nil
	default:
		return err
	}
	if err := s.call(ctx, KindAccount, accountID, "addProject", accountArgs{ProjectID: projectID}, nil); err != nil {
		return err
	}
	if p.SessionID != "" {
		return s.call(ctx, KindSession, hashSecret(p.SessionID), "releaseProject", sessionArgs{ProjectID: projectID}, nil)
	}
	return nil
}
