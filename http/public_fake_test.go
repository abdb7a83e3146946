package http

import (
	"context"
	"encoding/json"

	"github.com/mockgql/mockgql/model"
)

// fakePublic is the test-only fake of Public (see fakeModel for how the
// fakes answer).
type fakePublic struct{ *fakeModel }

// newFakePublic returns a fake Public with no calls yet.
func newFakePublic() *fakePublic {
	return &fakePublic{&fakeModel{&fakeRecorder{}}}
}

func (f *fakePublic) CreateGuestProject(_ context.Context, p Principal, name string) (*model.Project, string, error) {
	if err := f.record("CreateGuestProject", p, name); err != nil {
		return nil, "", err
	}
	session := p.SessionID
	if session == "" || session == "ses_stale" {
		session = "ses_new"
	}
	return fixtureGuest(), session, nil
}

func (f *fakePublic) CreateSessionProject(_ context.Context, p Principal, name string) (model.SessionProject, string, error) {
	if err := f.record("CreateSessionProject", p, name); err != nil {
		return model.SessionProject{}, "", err
	}
	session := p.SessionID
	if session == "" {
		session = "ses_new"
	}
	pr := fixtureGuest()
	pr.Kind = model.KindSession
	return model.SessionProject{Project: pr, AdoptionToken: "adt_fixture"}, session, nil
}

func (f *fakePublic) CreateAdoptionLink(_ context.Context, p Principal, projectID string) (model.SessionProject, error) {
	if err := f.record("CreateAdoptionLink", p, projectID); err != nil {
		return model.SessionProject{}, err
	}
	pr := fixtureGuest()
	pr.Kind = model.KindSession
	return model.SessionProject{Project: pr, AdoptionToken: "adt_fixture2"}, nil
}

func (f *fakePublic) SessionProject(_ context.Context, p Principal) (*model.Project, error) {
	if err := f.record("SessionProject", p); err != nil {
		return nil, err
	}
	return nil, nil
}

func (f *fakePublic) RuntimeList(_ context.Context, p Principal, projectID string, in model.RuntimeList) (model.RuntimeListResult, error) {
	if err := f.record("RuntimeList", p, projectID, in.Operation); err != nil {
		return model.RuntimeListResult{}, err
	}
	return model.RuntimeListResult{Items: []json.RawMessage{[]byte(`{"id":"1"}`)}, Total: 1, Page: 1, PageSize: 20, Errors: []json.RawMessage{}}, nil
}
