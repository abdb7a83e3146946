package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// openRoots are the management root fields that need no credential.
var openRoots = []string{"signUp", "login", "logout", "demo", "generatorKinds", "generatorPreview", "generatorCatalog", "invitationByLink"}

// TestTeamsRemovedMemberRefusedEverywhere (issue 20 finding 5): once an
// editor is removed, their token is refused on every root field of the
// management API that needs a credential — the list is read from the
// schema, so a new field is covered the day it is added — and on the
// upload route; the account's private dataset is unreadable to them.
func TestTeamsRemovedMemberRefusedEverywhere(t *testing.T) {
	s := startServer(t)
	owner := s.signUp("rm-owner@example.com")
	csv := "id,secret\n1,launch codes\n"
	owner.must(`mutation($x:String!){ importDataset(importCode:"private", format:"csv", content:$x) { importCode } }`, map[string]any{"x": csv})
	pid := get(owner.must(`mutation { createProject(name:"Secret shop") { id } }`, nil), "createProject", "id").(string)
	editor := join(t, owner, s.signUp("rm-editor@example.com"), "EDITOR")
	editor.must(`query($p:ID){ project(id:$p) { id } }`, map[string]any{"p": pid})
	seen := editor.gql(`{ dataSources { importCode sampleDocuments(limit: 1) } }`, nil)
	if !strings.Contains(string(seen.Raw), "launch codes") {
		t.Fatalf("a member should read the account's dataset: %s", seen.Raw)
	}
	uid := memberID(t, owner, editor.email)
	owner.must(`mutation($u:ID!){ removeMember(userId:$u) }`, map[string]any{"u": uid})

	for _, f := range rootFieldCalls(t, s, map[string]string{"projectId": pid, "id": pid, "importCode": "private"}) {
		if slices.Contains(openRoots, f.name) {
			continue
		}
		t.Run(f.name, func(t *testing.T) {
			r := editor.gql(f.query, nil)
			if r.errCode() != "FORBIDDEN" || strings.Contains(string(r.Raw), "launch codes") {
				t.Fatalf("%s by a removed member: %d %s", f.query, r.Status, r.Raw)
			}
		})
	}
	r := s.do(http.MethodPost, "/datasets/private2?format=csv", []byte(csv), "Authorization", "Bearer "+editor.token)
	r.refusal(t, 403, "FORBIDDEN")
	r = s.do(http.MethodPost, "/graphql", mustJSON(map[string]any{"query": `{ dataSources { sampleDocuments } }`}), "Cookie", "mgq_jwt="+editor.token)
	if strings.Contains(string(r.Raw), "launch codes") || r.errCode() != "FORBIDDEN" {
		t.Fatalf("the removed member's cookie read the dataset: %s", r.Raw)
	}
	// Logging in again still works, to their own workspace.
	r = s.gql("/graphql", `mutation { login(email:"rm-editor@example.com", password:"correct horse") { token account { name } } }`, nil,
		"Cookie", "mgq_jwt="+editor.token)
	if r.errCode() != "" {
		t.Fatalf("login with the stale cookie: %s", r.Raw)
	}
	// Invited back, the old token stays dead: removal bumped its version.
	again := join(t, owner, &user{s: s, token: get(r.data(t), "login", "token").(string), email: editor.email}, "VIEWER")
	again.must(`{ me { id } }`, nil)
	if r := editor.gql(`{ me { id } }`, nil); r.errCode() != "UNAUTHENTICATED" {
		t.Fatalf("a token from before the removal works again: %s", r.Raw)
	}
}

// TestTeamsLogoutRevokes: logout ends the token it was called with and
// every other token of the user for that workspace; a new log-in works.
func TestTeamsLogoutRevokes(t *testing.T) {
	s := startServer(t)
	u := s.signUp("out@example.com")
	other := login(t, s, "out@example.com", "correct horse")
	u.must(`{ me { id } }`, nil)
	u.must(`mutation { logout }`, nil)
	for name, tok := range map[string]*user{"the caller's": u, "another device's": other} {
		if r := tok.gql(`{ projects { id } }`, nil); r.errCode() != "UNAUTHENTICATED" {
			t.Fatalf("%s token after logout: %s", name, r.Raw)
		}
	}
	s.do(http.MethodPost, "/datasets/x?format=csv", []byte("a\n1\n"), "Authorization", "Bearer "+u.token).refusal(t, 401, "UNAUTHENTICATED")
	login(t, s, "out@example.com", "correct horse").must(`{ me { id } }`, nil)
}

// TestTeamsPasswordChangeRevokes: a password change ends every token of
// the user in every workspace; the answer's new token works; a wrong
// current password changes nothing.
func TestTeamsPasswordChangeRevokes(t *testing.T) {
	s := startServer(t)
	owner := s.signUp("pw-owner@example.com")
	u := s.signUp("pw@example.com")
	inTeam := join(t, owner, u, "VIEWER")
	if r := u.gql(`mutation { changePassword(currentPassword:"wrong one", newPassword:"new horse!") { token } }`, nil); r.errCode() != "UNAUTHENTICATED" {
		t.Fatalf("wrong current password: %s", r.Raw)
	}
	inTeam.must(`{ me { id } }`, nil) // nothing changed
	d := u.must(`mutation { changePassword(currentPassword:"correct horse", newPassword:"new horse!") { token } }`, nil)
	fresh := &user{s: s, token: get(d, "changePassword", "token").(string), email: u.email}
	for name, old := range map[string]*user{"own workspace": u, "team workspace": inTeam} {
		if r := old.gql(`{ me { id } }`, nil); r.errCode() != "UNAUTHENTICATED" {
			t.Fatalf("old token (%s) after a password change: %s", name, r.Raw)
		}
	}
	fresh.must(`{ me { id } }`, nil)
	if r := s.gql("/graphql", `mutation { login(email:"pw@example.com", password:"correct horse") { token } }`, nil); r.errCode() != "UNAUTHENTICATED" {
		t.Fatalf("old password still logs in: %s", r.Raw)
	}
	login(t, s, "pw@example.com", "new horse!")
}

// TestTeamsInviteRevealsNothing (issue 20 finding 6): inviteMember answers
// the same for a registered and an unregistered address — the address,
// the role and PENDING, no name, no user ID — and joins nobody.
func TestTeamsInviteRevealsNothing(t *testing.T) {
	s := startServer(t)
	owner := s.signUp("inv-owner@example.com")
	known := s.signUp("known@example.com")
	knownID := get(known.must(`{ me { id } }`, nil), "me", "id").(string)
	q := `mutation($e:String!){ inviteMember(email:$e, role: EDITOR) { user { id email name } role state invitation { id email role state createdAt expiresAt } } }`
	shape := func(email string) string {
		r := owner.gql(q, map[string]any{"e": email})
		if strings.Contains(string(r.Raw), knownID) || strings.Contains(string(r.Raw), "Test") {
			t.Fatalf("the answer reveals the user: %s", r.Raw)
		}
		m := get(r.data(t), "inviteMember").(map[string]any)
		if get(m, "user", "name") != nil || get(m, "state") != "PENDING" || !strings.HasPrefix(get(m, "user", "id").(string), "inv") {
			t.Fatalf("answer: %s", r.Raw)
		}
		b, _ := json.Marshal(m)
		out := strings.ReplaceAll(string(b), email, "EMAIL")
		for _, id := range []string{get(m, "user", "id").(string), get(m, "invitation", "createdAt").(string), get(m, "invitation", "expiresAt").(string)} {
			out = strings.ReplaceAll(out, id, "X")
		}
		return out
	}
	if a, b := shape("known@example.com"), shape("nobody@example.com"); a != b {
		t.Fatalf("answers differ:\n%s\n%s", a, b)
	}
	members := fmt.Sprint(owner.must(`{ account { members { user { email } } } }`, nil))
	if strings.Contains(members, "known@example.com") || strings.Contains(members, "nobody@example.com") {
		t.Fatalf("an invitation joined someone without consent: %s", members)
	}
	pending := fmt.Sprint(owner.must(`{ account { invitations { email state } } }`, nil))
	if !strings.Contains(pending, "known@example.com") || !strings.Contains(pending, "nobody@example.com") {
		t.Fatalf("pending invitations: %s", pending)
	}
}

// TestTeamsInviteThrottle: an account sends at most --invite-limit
// invitations an hour; the next is TOO_MANY_REQUESTS.
func TestTeamsInviteThrottle(t *testing.T) {
	s := startServer(t, func(c *serveConfig) { c.Teams.InviteLimit = 3 })
	owner := s.signUp("thr@example.com")
	q := `mutation($e:String!){ inviteMember(email:$e, role: VIEWER) { state } }`
	for i := range 3 {
		owner.must(q, map[string]any{"e": fmt.Sprintf("t%d@example.com", i)})
	}
	if r := owner.gql(q, map[string]any{"e": "t9@example.com"}); r.errCode() != "TOO_MANY_REQUESTS" {
		t.Fatalf("fourth invitation in an hour: %s", r.Raw)
	}
	if l := get(owner.must(`{ account { invitations { email } } }`, nil), "account", "invitations").([]any); len(l) != 3 {
		t.Fatalf("pending after the refusal: %v", l)
	}
}

// TestTeamsAcceptDeclineSwitch: the invitee, signing up after the
// invitation, finds it, declines one and accepts another; the workspace
// list grows; switchAccount works for a member only; invite links work
// once, signed in as anyone, and die when revoked.
func TestTeamsAcceptDeclineSwitch(t *testing.T) {
	s := startServer(t)
	ann := s.signUp("ann@example.com")
	bob := s.signUp("bob@example.com")
	accA := get(ann.must(`{ account { id } }`, nil), "account", "id").(string)
	accB := get(bob.must(`{ account { id } }`, nil), "account", "id").(string)
	ann.must(`mutation { inviteMember(email:"cy@example.com", role: VIEWER) { state } }`, nil)
	bob.must(`mutation { inviteMember(email:"cy@example.com", role: EDITOR) { state } }`, nil)
	cy := s.signUp("cy@example.com")
	l := get(cy.must(`{ myInvitations { id accountId accountName invitedBy role } }`, nil), "myInvitations").([]any)
	if len(l) != 2 || get(l[0], "invitedBy") != "Test" {
		t.Fatalf("myInvitations: %v", l)
	}
	for _, inv := range l {
		if get(inv, "accountId") == accB {
			cy.must(`mutation($i:ID){ declineInvitation(invitationId:$i) }`, map[string]any{"i": get(inv, "id")})
		} else {
			w := cy.must(`mutation($i:ID){ acceptInvitation(invitationId:$i) { id myRole current } }`, map[string]any{"i": get(inv, "id")})
			if get(w, "acceptInvitation", "myRole") != "VIEWER" || get(w, "acceptInvitation", "current") != false {
				t.Fatalf("accepted: %v", w)
			}
		}
	}
	if l := get(cy.must(`{ myInvitations { id } }`, nil), "myInvitations").([]any); len(l) != 0 {
		t.Fatalf("answered invitations still pending: %v", l)
	}
	ws := get(cy.must(`{ myAccounts { id myRole current } }`, nil), "myAccounts").([]any)
	if len(ws) != 2 || get(ws[0], "current") != true || get(ws[1], "id") != accA || get(ws[1], "myRole") != "VIEWER" {
		t.Fatalf("myAccounts: %v", ws)
	}
	d := cy.must(`mutation($a:ID!){ switchAccount(accountId:$a) { token account { id myRole } } }`, map[string]any{"a": accA})
	if get(d, "switchAccount", "account", "myRole") != "VIEWER" {
		t.Fatalf("switchAccount: %v", d)
	}
	for _, acc := range []string{accB, "accNoSuchThing1"} {
		if r := cy.gql(`mutation($a:ID!){ switchAccount(accountId:$a) { token } }`, map[string]any{"a": acc}); r.errCode() != "FORBIDDEN" {
			t.Fatalf("switch to %s, no member: %s", acc, r.Raw)
		}
	}

	// An invite link: shown to anyone, accepted once by whoever holds it.
	ann.must(`mutation { inviteMember(email:"dee@example.com", role: EDITOR) { state } }`, nil)
	invID := get(ann.must(`{ account { invitations { id email } } }`, nil), "account", "invitations", 0, "id")
	link := ann.must(`mutation($i:ID!){ createInviteLink(invitationId:$i) { url token } }`, map[string]any{"i": invID})
	token := get(link, "createInviteLink", "token").(string)
	if !strings.Contains(get(link, "createInviteLink", "url").(string), "/?invite="+token) {
		t.Fatalf("link: %v", link)
	}
	shown := s.gql("/graphql", `query($t:String!){ invitationByLink(token:$t) { accountName invitedBy role email } }`, map[string]any{"t": token}).data(t)
	if get(shown, "invitationByLink", "role") != "EDITOR" || get(shown, "invitationByLink", "email") != "" {
		t.Fatalf("invitationByLink: %v", shown)
	}
	dee := s.signUp("someone-else@example.com")
	dee.must(`mutation($t:String){ acceptInvitation(token:$t) { id } }`, map[string]any{"t": token})
	if r := cy.gql(`mutation($t:String){ acceptInvitation(token:$t) { id } }`, map[string]any{"t": token}); r.errCode() != "NOT_FOUND" {
		t.Fatalf("a used link accepted again: %s", r.Raw)
	}
	ann.must(`mutation { inviteMember(email:"eve@example.com", role: VIEWER) { state } }`, nil)
	invID = get(ann.must(`{ account { invitations { id } } }`, nil), "account", "invitations", 0, "id")
	token = get(ann.must(`mutation($i:ID!){ createInviteLink(invitationId:$i) { token } }`, map[string]any{"i": invID}), "createInviteLink", "token").(string)
	ann.must(`mutation($i:ID!){ revokeInvitation(invitationId:$i) }`, map[string]any{"i": invID})
	if r := s.gql("/graphql", `query($t:String!){ invitationByLink(token:$t) { role } }`, map[string]any{"t": token}); r.errCode() != "NOT_FOUND" {
		t.Fatalf("a revoked link: %s", r.Raw)
	}
}

// memberID returns the user ID of the member with email in owner's account.
func memberID(t *testing.T, owner *user, email string) string {
	t.Helper()
	for _, m := range get(owner.must(`{ account { members { user { id email } } } }`, nil), "account", "members").([]any) {
		if get(m, "user", "email") == email {
			return get(m, "user", "id").(string)
		}
	}
	t.Fatalf("%s is no member", email)
	return ""
}

// login signs email in to their own workspace.
func login(t *testing.T, s *server, email, password string) *user {
	t.Helper()
	d := s.gql("/graphql", `mutation($e:String!,$p:String!){ login(email:$e, password:$p) { token } }`, map[string]any{"e": email, "p": password}).data(t)
	return &user{s: s, token: get(d, "login", "token").(string), email: email}
}
