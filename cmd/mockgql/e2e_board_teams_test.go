package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBoardTeamsFlow (issue 22 item 3), in two real browsers: the owner
// invites an address on the account page and copies its invite link; the
// invitee opens the link signed out, signs up, accepts the invitation
// shown after sign-up, switches workspace in the header and sees the
// project read-only (viewer); the owner removes them after a
// confirmation; the invitee's next action is refused and the board says
// so. Screenshots at 1280 and 390 px, axe-core on each.
func TestBoardTeamsFlow(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "ann-teams@example.com", "tm")
	pid := sh.project["id"].(string)

	owner := newPage(t, s)
	owner.signedIn(sh.owner)
	owner.open("/board/account", "#inviteEmail")
	owner.set("#inviteEmail", "bo@example.com")
	owner.choose("#inviteRole", "viewer")
	owner.click("#invite")
	owner.waitText("#membersCard .status", "pending until they accept")
	owner.waitText("#members", "bo@example.com")
	owner.click(`[aria-label="Invite link for bo@example.com"]`)
	owner.wait(`.invite-link input`)
	link, _ := owner.js(`document.querySelector(".invite-link input").value`).(string)
	if !strings.Contains(link, "/?invite=mgi_") {
		t.Fatalf("invite link: %q", link)
	}
	owner.shot("teams-account-pending")

	bo := newPage(t, s)
	bo.open(strings.TrimPrefix(link, s.base), "#inviteNotice h2")
	bo.waitText("#inviteNotice", "invited you to Test's workspace as viewer")
	bo.shot("teams-invite-landing")
	bo.signUpOnLanding("bo@example.com")
	bo.waitText("#invitations", "Test invited you to Test's workspace as viewer")
	if n := bo.js(`document.querySelectorAll("#invitations .invite").length`); n != 1.0 {
		t.Fatalf("the invitation (by address and by link) shows %v times", n)
	}
	bo.shot("teams-invitation-prompt")
	bo.click("#invitations button.accept")
	bo.waitText("#invitations", "You joined Test's workspace as viewer")
	bo.click("#invitations button.switch")
	bo.waitText("header.top .who", "bo@example.com")
	bo.wait(`#workspace`)
	bo.waitText(`#workspace`, "Test's workspace (viewer)")
	if got := bo.js(`document.querySelector("#workspace").selectedOptions[0].text`); got != "Test's workspace (viewer)" {
		t.Fatalf("the switcher shows %v", got)
	}
	bo.open("/board/projects/"+pid, "#roleBanner")
	bo.waitText("#roleBanner", "You can view this project")
	if c := bo.editControls(); len(c) != 0 {
		t.Errorf("a viewer is offered edits: %v", c)
	}
	bo.shot("teams-switcher-viewer")

	owner.open("/board/account", "#members")
	owner.click(`[aria-label="Remove bo@example.com"]`)
	owner.waitText("#memberConfirm", "They lose access at once")
	if !strings.Contains(owner.text("#members"), "bo@example.com") {
		t.Fatal("the member went before the confirmation")
	}
	owner.shot("teams-remove-confirm")
	owner.click("#confirmYes")
	owner.waitText("#membersCard .status", "bo@example.com was removed")
	if strings.Contains(owner.text("#members"), "bo@example.com") {
		t.Fatal("the removed member is still listed")
	}

	// The invitee's session, still switched to the workspace, is refused at
	// once: the project and its model are out of reach, no re-login needed.
	answer, err := chromedp.Run(bo.ctx, chromedp.Evaluate[string](`fetch("/graphql", {method: "POST", credentials: "same-origin", headers: {"Content-Type": "application/json"},
		body: JSON.stringify({query: "query($id: ID) { project(id: $id) { name tables { name } } }", variables: {id: "`+pid+`"}})}).then(async (r) => r.status + " " + await r.text())`,
		chromedp.EvalAwaitPromise))
	if err != nil || strings.Contains(answer, `"tables"`) || !regexp.MustCompile(`"code":"(FORBIDDEN|NOT_FOUND|UNAUTHENTICATED)"`).MatchString(answer) {
		t.Fatalf("the removed member's session reads the project: %s %v", answer, err)
	}
	t.Logf("the removed member's next request: %s", answer)

	// The invitee's next action, on the page they have open: refused, and said.
	bo.choose("#workspace", "Test's workspace")
	bo.waitText("#sessionEnded", "You no longer have access to this workspace")
	bo.shot("teams-session-ended")
	if r := sh.owner.gql(`{ account { members { user { email } } } }`, nil); strings.Contains(string(r.Raw), "bo@example.com") {
		t.Fatalf("members: %s", r.Raw)
	}
}

// TestBoardTeamsRemovalRevokesInvitations (issue 31, findings 2 and 6):
// an admin's account page lists the owner's OWNER invitation, with who
// made it, but offers no invite link for it; the owner's removal dialog
// for that admin says the invitations they sent (and how many) and the
// links they made are revoked; after it, the admin's invitations are gone
// from the list and the owner's stays. Screenshots at 1280 and 390 px.
func TestBoardTeamsRemovalRevokesInvitations(t *testing.T) {
	s := startServer(t)
	owner := s.signUp("rv-owner@example.com")
	admin := join(t, owner, s.signUp("rv-admin@example.com"), "ADMIN")
	owner.must(`mutation { inviteMember(email:"rv-next-owner@example.com", role: OWNER) { state } }`, nil)
	admin.must(`mutation { inviteMember(email:"rv-a@example.com", role: ADMIN) { state } }`, nil)
	admin.must(`mutation { inviteMember(email:"rv-e@example.com", role: EDITOR) { state } }`, nil)

	ap := newPage(t, s)
	ap.signedIn(admin)
	ap.open("/board/account", "#members")
	ap.waitText("#members", "rv-next-owner@example.com")
	if n := ap.js(`document.querySelectorAll('[aria-label="Invite link for rv-next-owner@example.com"]').length`); n != 0.0 {
		t.Fatalf("an admin is offered a link to the owner's OWNER invitation (%v)", n)
	}
	if n := ap.js(`document.querySelectorAll('[aria-label="Remove rv-owner@example.com"], [aria-label="Role of rv-owner@example.com"], #inviteRole option[value="OWNER"]').length`); n != 0.0 {
		t.Fatalf("an admin is offered to change, remove or make an owner (%v controls)", n)
	}
	ap.click(`[aria-label="Invite link for rv-a@example.com"]`)
	ap.waitText("#members", "only for rv-a@example.com")
	ap.shot("teams-admin-invitations")
	link, _ := ap.js(`[...document.querySelectorAll(".invite-link input")].map((i) => i.value).join("")`).(string)
	if !strings.Contains(link, "/?invite=mgi_") {
		t.Fatalf("the ADMIN invitation's link: %q", link)
	}
	vp := newPage(t, s) // whoever opens it is told it answers to the invited address only
	vp.open(strings.TrimPrefix(link, s.base), "#inviteNotice h2")
	vp.waitText("#inviteBound", "only that address can accept an admin invitation")
	vp.shot("teams-invite-landing-bound")

	op := newPage(t, s)
	op.signedIn(owner)
	op.open("/board/account", "#members")
	op.click(`[aria-label="Remove rv-admin@example.com"]`)
	got := op.waitText("#memberConfirm", "invite links they made are revoked")
	if !strings.Contains(got, "The invitations they sent (2 pending) and the invite links they made are revoked too.") {
		t.Fatalf("the removal dialog says: %q", got)
	}
	op.shot("teams-remove-revokes-invitations")
	op.click("#confirmYes")
	op.waitText("#membersCard .status", "rv-admin@example.com was removed")
	rows := op.text("#members")
	if strings.Contains(rows, "rv-a@example.com") || strings.Contains(rows, "rv-e@example.com") || !strings.Contains(rows, "rv-next-owner@example.com") {
		t.Fatalf("the list after the removal: %q", rows)
	}
}
