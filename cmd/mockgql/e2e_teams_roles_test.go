package main

import (
	"strings"
	"testing"
)

// Roles hold through invitations (issue 31, findings 2 and 6): making,
// renewing or linking an invitation needs the right to give its role;
// ADMIN and OWNER invitations answer only to the invited address; what a
// removed member made stops working; an invitation whose maker lost the
// right to give its role is refused on acceptance.

// TestTeamsAdminCannotReachOwner (finding 2): an ADMIN sees the owner's
// pending OWNER invitation, with who made it, but can neither link nor
// renew it, nor invite an owner, nor demote or remove the owner; a leaked
// link of an OWNER or ADMIN invitation does nothing for another account,
// and works for the invited address.
func TestTeamsAdminCannotReachOwner(t *testing.T) {
	s := startServer(t)
	owner := s.signUp("ro-owner@example.com")
	admin := join(t, owner, s.signUp("ro-admin@example.com"), "ADMIN")
	alt := s.signUp("ro-admin-alt@example.com") // the admin's second account
	ownerID := memberID(t, owner, owner.email)
	owner.must(`mutation { inviteMember(email:"ro-next@example.com", role: OWNER) { state } }`, nil)

	seen := invitationOf(t, admin, "ro-next@example.com")
	if get(seen, "role") != "OWNER" || get(seen, "createdBy", "email") != owner.email || get(seen, "createdBy", "id") != ownerID {
		t.Fatalf("the admin's view of the owner's invitation: %v", seen)
	}
	invID := get(seen, "id")
	for _, tc := range []struct {
		name, query string
		vars        map[string]any
	}{
		{"link the OWNER invitation", `mutation($i:ID!){ createInviteLink(invitationId:$i) { token } }`, map[string]any{"i": invID}},
		{"renew it as OWNER", `mutation { inviteMember(email:"ro-next@example.com", role: OWNER) { state } }`, nil},
		{"renew it as ADMIN", `mutation { inviteMember(email:"ro-next@example.com", role: ADMIN) { state } }`, nil},
		{"invite the second account as OWNER", `mutation($e:String!){ inviteMember(email:$e, role: OWNER) { state } }`, map[string]any{"e": alt.email}},
		{"demote the owner", `mutation($u:ID!){ setMemberRole(userId:$u, role: VIEWER) { role } }`, map[string]any{"u": ownerID}},
		{"remove the owner", `mutation($u:ID!){ removeMember(userId:$u) }`, map[string]any{"u": ownerID}},
		{"remove the owner with keys", `mutation($u:ID!){ removeMemberWithKeys(userId:$u) { revokedKeys } }`, map[string]any{"u": ownerID}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if r := admin.gql(tc.query, tc.vars); r.errCode() != "FORBIDDEN" {
				t.Fatalf("by an admin: %d %s", r.Status, r.Raw)
			}
		})
	}
	if after := invitationOf(t, owner, "ro-next@example.com"); get(after, "role") != "OWNER" || get(after, "createdBy", "email") != owner.email {
		t.Fatalf("the owner's invitation changed: %v", after)
	}
	// Nor can an invitation to the owner's own address demote them: they are a member already.
	if r := admin.gql(`mutation($e:String!){ inviteMember(email:$e, role: VIEWER) { state } }`, map[string]any{"e": owner.email}); r.errCode() != "CONFLICT" {
		t.Fatalf("an invitation of the owner's address: %s", r.Raw)
	}

	// The owner's own link to it is bound to the invited address: the
	// admin's second account holding it is refused, and joins nothing.
	token := inviteLink(t, owner, invID)
	if r := alt.gql(`mutation($t:String){ acceptInvitation(token:$t) { myRole } }`, map[string]any{"t": token}); r.errCode() != "FORBIDDEN" ||
		!strings.Contains(string(r.Raw), "only the address it was sent to") {
		t.Fatalf("another account accepted an OWNER invitation's link: %s", r.Raw)
	}
	if r := alt.gql(`mutation($t:String){ declineInvitation(token:$t) }`, map[string]any{"t": token}); r.errCode() != "FORBIDDEN" {
		t.Fatalf("another account declined an OWNER invitation's link: %s", r.Raw)
	}
	// The same for an ADMIN invitation the admin made and linked.
	admin.must(`mutation { inviteMember(email:"ro-new-admin@example.com", role: ADMIN) { state } }`, nil)
	adminLink := inviteLink(t, admin, get(invitationOf(t, admin, "ro-new-admin@example.com"), "id"))
	if r := alt.gql(`mutation($t:String){ acceptInvitation(token:$t) { myRole } }`, map[string]any{"t": adminLink}); r.errCode() != "FORBIDDEN" {
		t.Fatalf("another account accepted an ADMIN invitation's link: %s", r.Raw)
	}
	for _, m := range get(owner.must(`{ account { members { user { email } role } } }`, nil), "account", "members").([]any) {
		if email := get(m, "user", "email"); email == alt.email || (get(m, "role") == "OWNER") != (email == owner.email) {
			t.Fatalf("members after the attempts: %v", m)
		}
	}
	// The invited addresses themselves accept by the links.
	next := s.signUp("ro-next@example.com")
	if w := next.must(`mutation($t:String){ acceptInvitation(token:$t) { myRole } }`, map[string]any{"t": token}); get(w, "acceptInvitation", "myRole") != "OWNER" {
		t.Fatalf("the invited address by its link: %v", w)
	}
	newAdmin := s.signUp("ro-new-admin@example.com")
	if w := newAdmin.must(`mutation($t:String){ acceptInvitation(token:$t) { myRole } }`, map[string]any{"t": adminLink}); get(w, "acceptInvitation", "myRole") != "ADMIN" {
		t.Fatalf("the invited address by its link: %v", w)
	}
}

// TestTeamsRemovedAdminLeavesNoWayIn (finding 6): once an ADMIN is
// removed, the invitations they made are gone (by ID, by link, in the
// invitee's list) and the links they made to others' invitations die,
// while the owner's invitation itself stands; no fresh account becomes
// anything through them. An invitation made by an admin later demoted is
// refused on acceptance, saying why.
func TestTeamsRemovedAdminLeavesNoWayIn(t *testing.T) {
	s := startServer(t)
	owner := s.signUp("ra-owner@example.com")
	admin := join(t, owner, s.signUp("ra-admin@example.com"), "ADMIN")
	admin2 := join(t, owner, s.signUp("ra-admin2@example.com"), "ADMIN")
	adminID, admin2ID := memberID(t, owner, admin.email), memberID(t, owner, admin2.email)

	admin.must(`mutation { inviteMember(email:"ra-fresh-admin@example.com", role: ADMIN) { state } }`, nil)
	admin.must(`mutation { inviteMember(email:"ra-fresh-editor@example.com", role: EDITOR) { state } }`, nil)
	editorLink := inviteLink(t, admin, get(invitationOf(t, admin, "ra-fresh-editor@example.com"), "id"))
	owner.must(`mutation { inviteMember(email:"ra-viewer@example.com", role: VIEWER) { state } }`, nil)
	viewerLink := inviteLink(t, admin, get(invitationOf(t, admin, "ra-viewer@example.com"), "id")) // the admin's link to the owner's invitation
	admin2.must(`mutation { inviteMember(email:"ra-demoted-pick@example.com", role: EDITOR) { state } }`, nil)
	if got := invitationOf(t, owner, "ra-fresh-admin@example.com"); get(got, "createdBy", "id") != adminID {
		t.Fatalf("Account.invitations does not say the admin made it: %v", got)
	}

	owner.must(`mutation($u:ID!){ removeMember(userId:$u) }`, map[string]any{"u": adminID})
	owner.must(`mutation($u:ID!){ setMemberRole(userId:$u, role: EDITOR) { role } }`, map[string]any{"u": admin2ID})

	left := map[string]bool{}
	for _, inv := range get(owner.must(`{ account { invitations { email } } }`, nil), "account", "invitations").([]any) {
		left[get(inv, "email").(string)] = true
	}
	if left["ra-fresh-admin@example.com"] || left["ra-fresh-editor@example.com"] || !left["ra-viewer@example.com"] || !left["ra-demoted-pick@example.com"] {
		t.Fatalf("pending after the removal: %v", left)
	}
	fresh := s.signUp("ra-fresh-admin@example.com")
	if l := get(fresh.must(`{ myInvitations { id } }`, nil), "myInvitations").([]any); len(l) != 0 {
		t.Fatalf("the removed admin's invitation still reaches its invitee: %v", l)
	}
	stranger := s.signUp("ra-stranger@example.com")
	for name, token := range map[string]string{"the removed admin's invitation": editorLink, "the removed admin's link to the owner's invitation": viewerLink} {
		t.Run(name, func(t *testing.T) {
			if r := stranger.gql(`mutation($t:String){ acceptInvitation(token:$t) { myRole } }`, map[string]any{"t": token}); r.errCode() != "NOT_FOUND" {
				t.Fatalf("accepted: %s", r.Raw)
			}
			if r := s.gql("/graphql", `query($t:String!){ invitationByLink(token:$t) { role } }`, map[string]any{"t": token}); r.errCode() != "NOT_FOUND" {
				t.Fatalf("invitationByLink: %s", r.Raw)
			}
		})
	}
	// The owner's invitation stands, by its address.
	s.signUp("ra-viewer@example.com").accept(t)
	// The demoted admin's invitation is refused, saying why, and stays for the owner to revoke or renew.
	pick := s.signUp("ra-demoted-pick@example.com")
	l := get(pick.must(`{ myInvitations { id } }`, nil), "myInvitations").([]any)
	if len(l) != 1 {
		t.Fatalf("the demoted admin's invitation: %v", l)
	}
	r := pick.gql(`mutation($i:ID){ acceptInvitation(invitationId:$i) { myRole } }`, map[string]any{"i": get(l[0], "id")})
	if r.errCode() != "FORBIDDEN" || !strings.Contains(string(r.Raw), "can no longer give the role EDITOR") {
		t.Fatalf("accepting the demoted admin's invitation: %s", r.Raw)
	}
	roles := map[string]any{}
	for _, m := range get(owner.must(`{ account { members { user { email } role } } }`, nil), "account", "members").([]any) {
		roles[get(m, "user", "email").(string)] = get(m, "role")
	}
	want := map[string]any{owner.email: "OWNER", admin2.email: "EDITOR", "ra-viewer@example.com": "VIEWER"}
	if len(roles) != len(want) {
		t.Fatalf("members = %v, want %v", roles, want)
	}
	for email, role := range want {
		if roles[email] != role {
			t.Fatalf("members = %v, want %v", roles, want)
		}
	}
}

// invitationOf returns the pending invitation of email as u's
// Account.invitations shows it, failing when there is none.
func invitationOf(t testing.TB, u *user, email string) any {
	t.Helper()
	for _, inv := range get(u.must(`{ account { invitations { id email role createdBy { id email name } } } }`, nil), "account", "invitations").([]any) {
		if get(inv, "email") == email {
			return inv
		}
	}
	t.Fatalf("no pending invitation of %s", email)
	return nil
}

// inviteLink makes the invitation's link as u and returns its token.
func inviteLink(t testing.TB, u *user, invitationID any) string {
	t.Helper()
	return get(u.must(`mutation($i:ID!){ createInviteLink(invitationId:$i) { token } }`, map[string]any{"i": invitationID}), "createInviteLink", "token").(string)
}
