package http

import (
	"context"

	"github.com/mockgql/mockgql/model"
)

// The test-only fake's teams methods (Teams); CheckSession lets every
// token through and is not recorded, since every signed-in call makes it.

func (f *fakeManagement) CheckSession(context.Context, Principal) error { return nil }

func (f *fakeManagement) Logout(_ context.Context, p Principal) error { return f.record("Logout", p) }

func (f *fakeManagement) ChangePassword(_ context.Context, p Principal, current, next string) (model.User, *model.Account, error) {
	a := fixtureAccount()
	return a.Members[0].User, a, f.record("ChangePassword", p, current, next)
}

func (f *fakeManagement) Workspaces(_ context.Context, p Principal) ([]model.Workspace, error) {
	return []model.Workspace{{ID: "acc_1", Name: "Shop", Plan: model.PlanStarter, Role: model.RoleOwner, Current: true}}, f.record("Workspaces", p)
}

func (f *fakeManagement) SwitchAccount(_ context.Context, p Principal, accountID string) (model.User, *model.Account, error) {
	a := fixtureAccount()
	return a.Members[0].User, a, f.record("SwitchAccount", p, accountID)
}

func (f *fakeManagement) Invitations(_ context.Context, p Principal) ([]model.Invitation, error) {
	return []model.Invitation{}, f.record("Invitations", p)
}

func (f *fakeManagement) MyInvitations(_ context.Context, p Principal) ([]model.Invitation, error) {
	return []model.Invitation{}, f.record("MyInvitations", p)
}

func (f *fakeManagement) CreateInviteLink(_ context.Context, p Principal, id string) (string, model.Invitation, error) {
	return "mgi_a.b.c", model.Invitation{ID: id}, f.record("CreateInviteLink", p, id)
}

func (f *fakeManagement) InvitationByLink(_ context.Context, token string) (model.Invitation, error) {
	return model.Invitation{ID: "inv_1"}, f.record("InvitationByLink", token)
}

func (f *fakeManagement) AnswerInvitation(_ context.Context, p Principal, id, token string, accept bool) (model.Workspace, error) {
	return model.Workspace{ID: "acc_1"}, f.record("AnswerInvitation", p, id, token, accept)
}

func (f *fakeManagement) RevokeInvitation(_ context.Context, p Principal, id string) error {
	return f.record("RevokeInvitation", p, id)
}
