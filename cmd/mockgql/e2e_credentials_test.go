package main

import (
	"testing"
	"time"
)

func TestRuntimeCredentials(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "keys@example.com", "k")
	other := newShop(t, s, "other@example.com", "o")
	q := []byte(`{"query":"{ products { total } }"}`)

	cases := []struct {
		name    string
		path    string
		headers []string
		status  int
		code    string
	}{
		{"bearer key", sh.runtime, []string{"Authorization", "Bearer " + sh.fullKey}, 200, ""},
		{"X-API-Key", sh.runtime, []string{"X-API-Key", sh.rtKey}, 200, ""},
		{"no key", sh.runtime, nil, 401, "UNAUTHENTICATED"},
		{"share token does not open an account project", sh.runtime + "?token=whatever", nil, 401, "UNAUTHENTICATED"},
		{"unknown key", sh.runtime, []string{"X-API-Key", "mgq_" + "0123456789012345678901234567890123456789012"}, 401, "API_KEY_INVALID"},
		{"malformed key", sh.runtime, []string{"X-API-Key", "mgq_short"}, 401, "API_KEY_INVALID"},
		{"management key", sh.runtime, []string{"X-API-Key", sh.mgmtKey}, 403, "API_KEY_SCOPE_INSUFFICIENT"},
		{"key of another project", sh.runtime, []string{"X-API-Key", other.fullKey}, 404, "PROJECT_NOT_FOUND"},
		{"unknown slug comes before the key", "/mock/no-such-shop/graphql", []string{"X-API-Key", "mgq_bad"}, 404, "PROJECT_NOT_FOUND"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := s.do("POST", c.path, q, c.headers...)
			if c.status == 200 {
				r.data(t)
				return
			}
			r.refusal(t, c.status, c.code)
		})
	}
	t.Run("revoked and deleted keys", func(t *testing.T) {
		d := sh.owner.must(`mutation($p:ID!){ a: createApiKey(projectId:$p, name:"r", scope: RUNTIME) { value key { id } }
			b: createApiKey(projectId:$p, name:"d", scope: RUNTIME) { value key { id } } }`, map[string]any{"p": sh.project["id"]})
		rv, dv := get(d, "a", "value").(string), get(d, "b", "value").(string)
		s.do("POST", sh.runtime, q, "X-API-Key", rv).data(t)
		sh.owner.must(`mutation($k:ID!){ revokeApiKey(keyId:$k) { revoked } }`, map[string]any{"k": get(d, "a", "key", "id")})
		s.do("POST", sh.runtime, q, "X-API-Key", rv).refusal(t, 401, "API_KEY_INVALID")
		sh.owner.must(`mutation($k:ID!){ deleteApiKey(keyId:$k) }`, map[string]any{"k": get(d, "b", "key", "id")})
		s.do("POST", sh.runtime, q, "X-API-Key", dv).refusal(t, 401, "API_KEY_INVALID")
		keys := sh.owner.must(`query($p:ID!){ apiKeys(projectId:$p) { id name revoked prefix } }`, map[string]any{"p": sh.project["id"]})
		for _, k := range get(keys, "apiKeys").([]any) {
			if get(k, "id") == get(d, "b", "key", "id") {
				t.Fatalf("deleted key still listed: %v", keys)
			}
		}
	})
	t.Run("expired key", func(t *testing.T) {
		exp := time.Now().Add(1500 * time.Millisecond).UTC().Format(time.RFC3339Nano)
		d := sh.owner.must(`mutation($p:ID!,$e:DateTime){ createApiKey(projectId:$p, name:"e", scope: FULL, expiresAt:$e) { value } }`,
			map[string]any{"p": sh.project["id"], "e": exp})
		v := get(d, "createApiKey", "value").(string)
		s.do("POST", sh.runtime, q, "X-API-Key", v).data(t)
		time.Sleep(1600 * time.Millisecond) // the one real-clock expiry check
		s.do("POST", sh.runtime, q, "X-API-Key", v).refusal(t, 401, "API_KEY_EXPIRED")
	})
	t.Run("keys reach the management API by scope", func(t *testing.T) {
		query := `{ projects { slug } }`
		if d := s.gql("/graphql", query, nil, "X-API-Key", sh.fullKey).data(t); get(d, "projects", 0, "slug") != sh.slug {
			t.Fatalf("full key: %v", d)
		}
		s.gql("/graphql", query, nil, "X-API-Key", sh.mgmtKey).data(t)
		s.gql("/graphql", query, nil, "X-API-Key", sh.rtKey).refusal(t, 403, "API_KEY_SCOPE_INSUFFICIENT")
		r := s.gql("/graphql", `query($id:ID){ project(id:$id) { slug } }`, map[string]any{"id": other.project["id"]}, "X-API-Key", sh.fullKey)
		if r.errCode() != "NOT_FOUND" {
			t.Fatalf("key reached another project: %s", r.Raw)
		}
	})
	t.Run("keys need PROFESSIONAL", func(t *testing.T) {
		u := s.signUp("starter@example.com")
		p := u.must(`mutation { createProject(name: "Free") { id } }`, nil)
		r := u.gql(`mutation($p:ID!){ createApiKey(projectId:$p, name:"x", scope: FULL) { value } }`, map[string]any{"p": get(p, "createProject", "id")})
		if r.errCode() != "FORBIDDEN" {
			t.Fatalf("starter plan got a key: %s", r.Raw)
		}
	})
	t.Run("guest project answers to its share token", func(t *testing.T) {
		r := s.gql("/public-graphql", `mutation { createGuestProject(name: "Try") { slug shareToken runtimeUrl } }`, nil)
		g := get(r.data(t), "createGuestProject")
		path := "/mock/" + get(g, "slug").(string) + "/graphql"
		s.do("POST", path+"?token="+get(g, "shareToken").(string), []byte(`{"query":"{ __typename }"}`)).data(t)
		s.do("POST", path, q).refusal(t, 401, "UNAUTHENTICATED")
		s.do("POST", path+"?token=shr_wrong", q).refusal(t, 401, "UNAUTHENTICATED")
		if len(r.Header.Values("Set-Cookie")) == 0 {
			t.Fatalf("no mgq_session cookie set")
		}
	})
}
