package main

import "testing"

// accept makes invitee accept every pending invitation sent to their
// address (what the board offers after log-in), failing when there is none.
func (u *user) accept(t testing.TB) {
	t.Helper()
	l, _ := get(u.must(`{ myInvitations { id } }`, nil), "myInvitations").([]any)
	if len(l) == 0 {
		t.Fatalf("%s has no pending invitation", u.email)
	}
	for _, inv := range l {
		u.must(`mutation($i:ID){ acceptInvitation(invitationId:$i) { id } }`, map[string]any{"i": get(inv, "id")})
	}
}

// join makes invitee a member of owner's account with role (invite,
// accept) and returns invitee signed in to it (switchAccount).
func join(t testing.TB, owner, invitee *user, role string) *user {
	t.Helper()
	owner.must(`mutation($e:String!,$r:Role!){ inviteMember(email:$e, role:$r) { role } }`, map[string]any{"e": invitee.email, "r": role})
	invitee.accept(t)
	acc := get(owner.must(`{ account { id } }`, nil), "account", "id")
	d := invitee.must(`mutation($a:ID!){ switchAccount(accountId:$a) { token } }`, map[string]any{"a": acc})
	return &user{s: invitee.s, token: get(d, "switchAccount", "token").(string), email: invitee.email}
}
