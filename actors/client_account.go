package actors

import (
	"context"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// AccountClient is the typed client of one account grain: each method is
// one request, answered with the account's record (AccountState) where the
// caller needs it. caller, where a method takes one, is the user whose
// role the grain checks. A value, safe for concurrent use.
type AccountClient struct {
	c  *Client
	id string
}

// Account is the client of the account grain id.
func (s *Client) Account(id string) AccountClient { return AccountClient{c: s, id: id} }

// state is ask for a request whose answer is the account's record.
func (a AccountClient) state(ctx context.Context, req grainRequest) (*AccountState, error) {
	r, err := a.c.ask(ctx, kindAccount, a.id, req)
	if err != nil {
		return nil, err
	}
	return decodeDoc[AccountState](r.GetAccount().GetJson())
}

// tell sends req; the result is not needed.
func (a AccountClient) tell(ctx context.Context, req grainRequest) error {
	return a.c.tell(ctx, kindAccount, a.id, req)
}

// Create stores acc as a new account.
func (a AccountClient) Create(ctx context.Context, acc *model.Account) (*AccountState, error) {
	return a.state(ctx, &pb.AccountCreate{Account: &pb.AccountDoc{Json: encodeDoc(acc)}})
}

// Get returns the account's record.
func (a AccountClient) Get(ctx context.Context) (*AccountState, error) {
	return a.state(ctx, &pb.AccountGet{})
}

// SetPlan changes the account's plan.
func (a AccountClient) SetPlan(ctx context.Context, caller string, plan model.Plan) (*AccountState, error) {
	return a.state(ctx, &pb.AccountSetPlan{Caller: caller, Plan: string(plan)})
}

// SetRole changes a member's role.
func (a AccountClient) SetRole(ctx context.Context, caller, userID string, role model.Role) (*AccountState, error) {
	return a.state(ctx, &pb.AccountSetRole{Caller: caller, UserId: userID, Role: string(role)})
}

// RemoveMember removes a member.
func (a AccountClient) RemoveMember(ctx context.Context, caller, userID string) error {
	return a.tell(ctx, &pb.AccountRemoveMember{Caller: caller, UserId: userID})
}

// Invite records a pending invitation.
func (a AccountClient) Invite(ctx context.Context, caller string, inv model.Invitation) (*AccountState, error) {
	return a.state(ctx, &pb.AccountInvite{Caller: caller, Invitation: encodeDoc(inv)})
}

// InviteLink sets the hash of the secret of an invitation's link.
func (a AccountClient) InviteLink(ctx context.Context, caller, invitationID, linkHash string) (*AccountState, error) {
	return a.state(ctx, &pb.AccountInviteLink{Caller: caller, InvitationId: invitationID, LinkHash: linkHash})
}

// RevokeInvite withdraws a pending invitation (caller "": the node
// itself, undoing an invitation it could not finish).
func (a AccountClient) RevokeInvite(ctx context.Context, caller, invitationID string) (*AccountState, error) {
	return a.state(ctx, &pb.AccountRevokeInvite{Caller: caller, InvitationId: invitationID})
}

// InviteAnswer is a user's answer to an invitation: by its ID, or by the
// hash of its link's secret (LinkHash), which the grain checks.
type InviteAnswer struct {
	InvitationID, LinkHash string
	User                   model.User
	Accept                 bool
}

// AnswerInvite accepts or declines an invitation.
func (a AccountClient) AnswerInvite(ctx context.Context, in InviteAnswer) (*AccountState, error) {
	return a.state(ctx, &pb.AccountAnswerInvite{InvitationId: in.InvitationID, LinkHash: in.LinkHash,
		User: &pb.UserDoc{Json: encodeDoc(in.User)}, Accept: in.Accept})
}

// ClaimKey counts a new key against the account's plan and indexes it.
func (a AccountClient) ClaimKey(ctx context.Context, keyID string, ref KeyRef) error {
	return a.tell(ctx, &pb.AccountClaimKey{KeyId: keyID, KeyHash: ref.Hash, ProjectId: ref.ProjectID, CreatedBy: ref.CreatedBy})
}

// RemoveKey drops a key from the account's index.
func (a AccountClient) RemoveKey(ctx context.Context, keyID string) error {
	return a.tell(ctx, &pb.AccountRemoveKey{KeyId: keyID})
}

// ClaimProject counts a new project against the account's plan and lists it.
func (a AccountClient) ClaimProject(ctx context.Context, projectID string) error {
	return a.tell(ctx, &pb.AccountClaimProject{ProjectId: projectID})
}

// AddProject lists a project without counting it against the plan.
func (a AccountClient) AddProject(ctx context.Context, projectID string) error {
	return a.tell(ctx, &pb.AccountAddProject{ProjectId: projectID})
}

// RemoveProject drops a project from the account's list.
func (a AccountClient) RemoveProject(ctx context.Context, projectID string) error {
	return a.tell(ctx, &pb.AccountRemoveProject{ProjectId: projectID})
}

// RevokeSessions ends the sign-in sessions of a member in this account.
func (a AccountClient) RevokeSessions(ctx context.Context, userID string) error {
	return a.tell(ctx, &pb.AccountRevokeSessions{UserId: userID})
}

// UserClient is the typed client of one user grain (by normalised
// e-mail address). A value, safe for concurrent use.
type UserClient struct {
	c     *Client
	email string
}

// User is the client of the user grain of the normalised address email.
func (s *Client) User(email string) UserClient { return UserClient{c: s, email: email} }

// state is ask for a request whose answer is the user's record.
func (u UserClient) state(ctx context.Context, req grainRequest) (*UserState, error) {
	r, err := u.c.ask(ctx, kindUser, u.email, req)
	if err != nil {
		return nil, err
	}
	return decodeDoc[UserState](r.GetUser().GetJson())
}

// NewUser is a sign-up: the user's ID, name, password (hashed by the
// grain at bcrypt cost Cost) and first account.
type NewUser struct {
	UserID, Name, Password, AccountID string
	Cost                              int
}

// SignUp creates the user.
func (u UserClient) SignUp(ctx context.Context, in NewUser) (*UserState, error) {
	return u.state(ctx, &pb.UserSignup{UserId: in.UserID, Name: in.Name, Password: in.Password,
		AccountId: in.AccountID, Cost: int32(in.Cost)})
}

// Login checks the password and returns the user's record.
func (u UserClient) Login(ctx context.Context, password string) (*UserState, error) {
	return u.state(ctx, &pb.UserLogin{Password: password})
}

// Get returns the user's record.
func (u UserClient) Get(ctx context.Context) (*UserState, error) {
	return u.state(ctx, &pb.UserGet{})
}

// ChangePassword replaces the password, checking the old one; the new one
// is hashed at bcrypt cost cost.
func (u UserClient) ChangePassword(ctx context.Context, old, next string, cost int) error {
	_, err := u.state(ctx, &pb.UserChangePassword{OldPassword: old, NewPassword: next, Cost: int32(cost)})
	return err
}

// AddAccount lists an account among the user's workspaces.
func (u UserClient) AddAccount(ctx context.Context, accountID string) error {
	return u.c.tell(ctx, kindUser, u.email, &pb.UserAddAccount{AccountId: accountID})
}

// RemoveAccount drops an account from the user's workspaces.
func (u UserClient) RemoveAccount(ctx context.Context, accountID string) error {
	return u.c.tell(ctx, kindUser, u.email, &pb.UserRemoveAccount{AccountId: accountID})
}

// AddInvite lists a pending invitation of the user.
func (u UserClient) AddInvite(ctx context.Context, accountID, invitationID string) error {
	return u.c.tell(ctx, kindUser, u.email, &pb.UserAddInvite{AccountId: accountID, InvitationId: invitationID})
}

// DropInvite drops an invitation from the user's list.
func (u UserClient) DropInvite(ctx context.Context, accountID, invitationID string) error {
	return u.c.tell(ctx, kindUser, u.email, &pb.UserDropInvite{AccountId: accountID, InvitationId: invitationID})
}
