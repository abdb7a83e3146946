package http

import (
	"testing"

	"github.com/mockgql/mockgql/model"
)

// teamCases call the management API's teams additions (management_teams.go).
var teamCases = []surfaceCase{
	{name: "myAccounts", query: `{ myAccounts { id name plan myRole current } }`},
	{name: "myInvitations", query: `{ myInvitations { id email role state accountId accountName invitedBy createdAt expiresAt } }`},
	{name: "invitationByLink", principal: &Principal{}, query: `{ invitationByLink(token: "mgi_a.b.c") { id accountName role } }`},
	{name: "switchAccount", query: `mutation { switchAccount(accountId: "acc_2") { token account { id } } }`},
	{name: "changePassword", query: `mutation { changePassword(currentPassword: "old one!", newPassword: "new one!") { token } }`},
	{name: "acceptInvitation", query: `mutation { acceptInvitation(invitationId: "inv_1") { id myRole } }`},
	{name: "acceptInvitation_nothing", query: `mutation { acceptInvitation { id } }`},
	{name: "declineInvitation_token", query: `mutation { declineInvitation(token: "mgi_a.b.c") }`},
	{name: "revokeInvitation", query: `mutation { revokeInvitation(invitationId: "inv_1") }`},
	{name: "createInviteLink", query: `mutation { createInviteLink(invitationId: "inv_1") { url token expiresAt invitation { id } } }`},
	{name: "inviteMember_pending", query: `mutation { inviteMember(email: "cy@example.com", role: EDITOR) { user { id email name } role state invitation { id email state } } }`},
	{name: "account_invitations", query: `{ account { members { state } invitations { id email } } }`},
}

func init() {
	managementCases = append(managementCases, teamCases...)
	anonymousRoots = append(anonymousRoots, "invitationByLink")
}

// TestManagementRefusedSession checks that a principal whose session
// token was refused (a removed member, a revoked token) gets that refusal
// from every field that needs a credential, before the backend is asked,
// and may still log in.
func TestManagementRefusedSession(t *testing.T) {
	refused := Principal{SessionID: "ses_1", Refused: model.Errorf(model.CodeForbidden, "no longer a member")}
	for _, tc := range managementCases {
		if needsNoCredential(rootFields(t, tc.query)) {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			out := runSurface(t, managementSurface, refused, tc.query, tc.vars, nil)
			if codes := errorCodes(out); len(codes) != 1 || codes[0] != string(model.CodeForbidden) {
				t.Errorf("error codes = %v, want [FORBIDDEN]", codes)
			}
			if len(out.Calls) != 0 {
				t.Errorf("Backend called: %v", out.Calls)
			}
		})
	}
	out := runSurface(t, managementSurface, refused, `mutation { login(email: "a@b.c", password: "pw") { token } }`, nil, nil)
	if codes := errorCodes(out); len(codes) != 0 {
		t.Errorf("login with a refused session: %v", codes)
	}
}
