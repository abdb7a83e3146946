package main

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

func TestAccounts(t *testing.T) {
	s := startServer(t)
	owner := s.signUp("owner@example.com")

	t.Run("sign-up conflicts and login", func(t *testing.T) {
		r := s.gql("/graphql", `mutation { signUp(email:"OWNER@example.com", password:"another one") { token } }`, nil)
		if r.errCode() != "CONFLICT" {
			t.Fatalf("duplicate sign-up: %s", r.Raw)
		}
		r = s.gql("/graphql", `mutation { login(email:"owner@example.com", password:"wrong password") { token } }`, nil)
		if r.errCode() != "UNAUTHENTICATED" {
			t.Fatalf("wrong password: %s", r.Raw)
		}
		r = s.gql("/graphql", `mutation { login(email:"owner@example.com", password:"correct horse") { token user { email } account { plan } } }`, nil)
		d := r.data(t)
		if get(d, "login", "account", "plan") != "STARTER" {
			t.Fatalf("login: %v", d)
		}
		ck := strings.Join(r.Header.Values("Set-Cookie"), ";")
		if !strings.Contains(ck, "mgq_jwt=") || !strings.Contains(ck, "HttpOnly") {
			t.Fatalf("login cookie: %q", ck)
		}
		// The cookie alone authenticates, as the board does.
		jwt := strings.SplitN(strings.SplitN(ck, "mgq_jwt=", 2)[1], ";", 2)[0]
		me := s.gql("/graphql", `{ me { email } }`, nil, "Cookie", "mgq_jwt="+jwt).data(t)
		if get(me, "me", "email") != "owner@example.com" {
			t.Fatalf("me: %v", me)
		}
	})
	t.Run("short password and bad e-mail", func(t *testing.T) {
		for _, q := range []string{`mutation { signUp(email:"x@example.com", password:"short") { token } }`,
			`mutation { signUp(email:"not-an-email", password:"long enough") { token } }`} {
			if r := s.gql("/graphql", q, nil); r.errCode() != "BAD_USER_INPUT" {
				t.Fatalf("%s: %s", q, r.Raw)
			}
		}
	})
	t.Run("no credential and forged token", func(t *testing.T) {
		if r := s.gql("/graphql", `{ projects { id } }`, nil); r.errCode() != "UNAUTHENTICATED" {
			t.Fatalf("anonymous: %s", r.Raw)
		}
		s.gql("/graphql", `{ me { id } }`, nil, "Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.x").refusal(t, 401, "UNAUTHENTICATED")
	})
	t.Run("roles", func(t *testing.T) {
		invitees := map[string]*user{"VIEWER": s.signUp("viewer@example.com"), "EDITOR": s.signUp("editor@example.com")}
		accID := get(owner.must(`{ account { id } }`, nil), "account", "id")
		for role, u := range invitees {
			owner.must(`mutation($e:String!,$r:Role!){ inviteMember(email:$e, role:$r) { role } }`, map[string]any{"e": u.email, "r": role})
			u.accept(t)
		}
		d := owner.must(`{ account { members { role user { email } } } }`, nil)
		if !strings.Contains(fmt.Sprint(d), "VIEWER") || !strings.Contains(fmt.Sprint(d), "EDITOR") {
			t.Fatalf("members: %v", d)
		}
		p := owner.must(`mutation { createProject(name: "Team shop") { id } }`, nil)
		pid := get(p, "createProject", "id")
		// Members log in to the owner's account by its ID.
		as := func(email string) *user {
			r := s.gql("/graphql", `mutation($e:String!,$a:ID){ login(email:$e, password:"correct horse", accountId:$a) { token } }`,
				map[string]any{"e": email, "a": accID})
			return &user{s: s, token: get(r.data(t), "login", "token").(string), email: email}
		}
		viewer, editor := as("viewer@example.com"), as("editor@example.com")
		viewer.must(`query($id:ID){ project(id:$id) { id } }`, map[string]any{"id": pid})
		create := `mutation($p:ID!){ createModellingTable(input:{projectId:$p, name:"T"}) { id } }`
		if r := viewer.gql(create, map[string]any{"p": pid}); r.errCode() != "FORBIDDEN" {
			t.Fatalf("viewer edited the model: %s", r.Raw)
		}
		editor.must(create, map[string]any{"p": pid})
		if r := editor.gql(`mutation { setPlan(plan: TEAM) { plan } }`, nil); r.errCode() != "FORBIDDEN" {
			t.Fatalf("editor changed the plan: %s", r.Raw)
		}
		if r := editor.gql(`mutation($e:String!){ inviteMember(email:$e, role: OWNER) { role } }`, map[string]any{"e": "x@example.com"}); r.errCode() != "FORBIDDEN" {
			t.Fatalf("editor invited: %s", r.Raw)
		}
		if r := owner.gql(`mutation { setPlan(plan: TEAM) { plan } }`, nil); get(r.data(t), "setPlan", "plan") != "TEAM" {
			t.Fatalf("setPlan: %s", r.Raw)
		}
		// A stranger cannot log in to the account.
		s.signUp("stranger@example.com")
		r := s.gql("/graphql", `mutation($a:ID){ login(email:"stranger@example.com", password:"correct horse", accountId:$a) { token } }`, map[string]any{"a": accID})
		if r.errCode() != "FORBIDDEN" {
			t.Fatalf("stranger logged in to the account: %s", r.Raw)
		}
		// Removing the viewer: their next login to the account is refused.
		vid := ""
		for _, m := range get(owner.must(`{ account { members { role user { id email } } } }`, nil), "account", "members").([]any) {
			if get(m, "user", "email") == "viewer@example.com" {
				vid = get(m, "user", "id").(string)
			}
		}
		owner.must(`mutation($u:ID!){ removeMember(userId:$u) }`, map[string]any{"u": vid})
		if r := viewer.gql(`query($id:ID){ project(id:$id) { id } }`, map[string]any{"id": pid}); r.errCode() != "NOT_FOUND" && r.errCode() != "FORBIDDEN" {
			t.Fatalf("removed member still reads: %s", r.Raw)
		}
	})
	t.Run("plan table limit", func(t *testing.T) {
		u := s.signUp("limit@example.com")
		p := get(u.must(`mutation { createProject(name: "Small") { id } }`, nil), "createProject", "id")
		var last response
		for i := 0; i < 6; i++ {
			last = u.gql(`mutation($p:ID!,$n:String!){ createModellingTable(input:{projectId:$p, name:$n}) { id } }`,
				map[string]any{"p": p, "n": fmt.Sprintf("T%d", i)})
		}
		if last.errCode() != "LIMIT_REACHED" {
			t.Fatalf("sixth table on STARTER: %s", last.Raw)
		}
	})
}

// TestManagementGETIsReadOnly: GET /graphql answers queries, but a
// mutation needs POST — a link on another site can make the browser send
// a GET with the board's cookie, and it must change nothing.
func TestManagementGETIsReadOnly(t *testing.T) {
	s := startServer(t)
	u := s.signUp("get@example.com")
	cookie := "mgq_jwt=" + u.token
	r := s.do("GET", "/graphql?query="+url.QueryEscape(`{ me { email } }`), nil, "Cookie", cookie)
	if get(r.data(t), "me", "email") != "get@example.com" {
		t.Fatalf("GET query: %s", r.Raw)
	}
	s.do("GET", "/graphql?query="+url.QueryEscape(`mutation { createProject(name: "by link") { id } }`), nil, "Cookie", cookie).
		refusal(t, 400, "Bad Request")
	if ps := u.must(`{ projects { name } }`, nil); len(get(ps, "projects").([]any)) != 0 {
		t.Fatalf("a GET created a project: %v", ps)
	}
}
