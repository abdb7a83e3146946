package main

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// actors posts to /runtime/actors with a key (and a method).
func (sh *shop) actors(method, key, token string) response {
	h := []string{"X-API-Key", key}
	if token != "" {
		h = append(h, "X-Actor-Token", token)
	}
	return sh.s.do(method, "/runtime/actors", nil, h...)
}

// keyWith makes a RUNTIME key with maxActors.
func (sh *shop) keyWith(t *testing.T, maxActors int) (value, id string) {
	t.Helper()
	d := sh.owner.must(`mutation($p:ID!,$m:Int){ createApiKey(projectId:$p, name:"a", scope: RUNTIME, maxActors:$m) { value key { id maxActors } } }`,
		map[string]any{"p": sh.project["id"], "m": maxActors})
	return get(d, "createApiKey", "value").(string), get(d, "createApiKey", "key", "id").(string)
}

func TestActorTokens(t *testing.T) {
	s := startServer(t, func(c *serveConfig) { c.ActorIssueLimit = 1000 })
	sh := newShop(t, s, "actors@example.com", "a")
	q := []byte(`{"query":"{ products { total } }"}`)

	key, _ := sh.keyWith(t, 2)
	r := sh.actors("POST", key, "")
	if r.Status != 200 || !strings.HasPrefix(fmt.Sprint(r.JSON["actorToken"]), "act_") || r.JSON["maxActors"] != 2.0 ||
		r.JSON["currentActors"] != 1.0 || r.JSON["expiresInSeconds"] != 900.0 {
		t.Fatalf("issue: %d %s", r.Status, r.Raw)
	}
	tok1 := r.JSON["actorToken"].(string)
	tok2 := sh.actors("POST", key, "").JSON["actorToken"].(string)

	t.Run("token use and refusals", func(t *testing.T) {
		s.do("POST", sh.runtime, q, "X-API-Key", key, "X-Actor-Token", tok1).data(t)
		s.do("POST", sh.runtime, q, "X-API-Key", key).data(t) // key only: served, holds no slot
		other, _ := sh.keyWith(t, 1)
		otherTok := sh.actors("POST", other, "").JSON["actorToken"].(string)
		// The detail says which; it is a string that names the case (the
		// check used to compare with "", which an absent detail never equals).
		for _, tc := range []struct{ name, tok, says string }{
			{"malformed", "act_nope", "malformed"},
			{"another key's", otherTok, "another API key"},
			{"unknown", tok1[:len(tok1)-4] + "AAAA", "unknown actor token"},
		} {
			r := s.do("POST", sh.runtime, q, "X-API-Key", key, "X-Actor-Token", tc.tok)
			r.refusal(t, 401, "ACTOR_TOKEN_INVALID")
			if detail, ok := r.JSON["detail"].(string); !ok || !strings.Contains(detail, tc.says) {
				t.Fatalf("%s token: detail %v, want one saying %q", tc.name, r.JSON["detail"], tc.says)
			}
		}
	})
	t.Run("all slots taken", func(t *testing.T) {
		r := sh.actors("POST", key, "")
		r.refusal(t, 429, "MAX_ACTIVE_ACTORS_REACHED")
		ra, _ := strconv.Atoi(r.Header.Get("Retry-After"))
		if ra < 1 || ra > 900 || r.JSON["retryAfter"] != float64(ra) || r.JSON["retryAfterSeconds"] != float64(ra) ||
			r.JSON["error"] != "MAX_ACTIVE_ACTORS_REACHED" || r.JSON["maxActors"] != 2.0 || r.JSON["currentActors"] != 2.0 {
			t.Fatalf("refusal body: %s (Retry-After %q)", r.Raw, r.Header.Get("Retry-After"))
		}
	})
	t.Run("release frees the slot at once", func(t *testing.T) {
		if r := sh.actors("DELETE", key, tok2); r.Status != 200 {
			t.Fatalf("release: %d %s", r.Status, r.Raw)
		}
		s.do("POST", sh.runtime, q, "X-API-Key", key, "X-Actor-Token", tok2).refusal(t, 401, "ACTOR_TOKEN_INVALID")
		if r := sh.actors("POST", key, ""); r.Status != 200 {
			t.Fatalf("slot not freed: %s", r.Raw)
		}
	})
	t.Run("revoked key's tokens stop at once", func(t *testing.T) {
		k, id := sh.keyWith(t, 1)
		tok := sh.actors("POST", k, "").JSON["actorToken"].(string)
		s.do("POST", sh.runtime, q, "X-API-Key", k, "X-Actor-Token", tok).data(t)
		sh.owner.must(`mutation($k:ID!){ revokeApiKey(keyId:$k) { revoked } }`, map[string]any{"k": id})
		s.do("POST", sh.runtime, q, "X-API-Key", k, "X-Actor-Token", tok).refusal(t, 401, "API_KEY_INVALID")
	})
	t.Run("strict under 200 concurrent requests", func(t *testing.T) {
		k, _ := sh.keyWith(t, 5)
		var wg sync.WaitGroup
		var mu sync.Mutex
		granted, refused := 0, 0
		for i := 0; i < 200; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := s.try("POST", "/runtime/actors", nil, "X-API-Key", k)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err != nil:
					t.Errorf("request: %v", err)
				case r.Status == 200:
					granted++
				case r.Status == 429 && r.JSON["code"] == "MAX_ACTIVE_ACTORS_REACHED":
					refused++
				default:
					t.Errorf("unexpected %d %s", r.Status, r.Raw)
				}
			}()
		}
		wg.Wait()
		if granted != 5 || refused != 195 {
			t.Fatalf("granted %d, refused %d; want exactly 5 grants", granted, refused)
		}
	})
	t.Run("scope and deleted project", func(t *testing.T) {
		sh.actors("POST", sh.mgmtKey, "").refusal(t, 403, "API_KEY_SCOPE_INSUFFICIENT")
		s.do("POST", "/runtime/actors", nil).refusal(t, 401, "UNAUTHENTICATED")
		gone := newShop(t, s, "gone@example.com", "g")
		gone.owner.must(`mutation($p:ID!){ deleteProject(projectId:$p) }`, map[string]any{"p": gone.project["id"]})
		gone.actors("POST", gone.rtKey, "").refusal(t, 404, "PROJECT_NOT_FOUND")
	})
}

func TestActorTokenLimitsRealClock(t *testing.T) {
	s := startServer(t, func(c *serveConfig) { c.ActorIdle = 700 * time.Millisecond; c.ActorIssueLimit = 3 })
	sh := newShop(t, s, "clock@example.com", "c")
	q := []byte(`{"query":"{ products { total } }"}`)
	key, _ := sh.keyWith(t, 1)
	clearOfWindowEdge(t, time.Minute, 15*time.Second) // the issue rate counts per UTC minute

	tok := sh.actors("POST", key, "").JSON["actorToken"].(string)
	for i := 0; i < 3; i++ { // each request restarts the idle time
		time.Sleep(300 * time.Millisecond)
		s.do("POST", sh.runtime, q, "X-API-Key", key, "X-Actor-Token", tok).data(t)
	}
	time.Sleep(800 * time.Millisecond)
	s.do("POST", sh.runtime, q, "X-API-Key", key, "X-Actor-Token", tok).refusal(t, 401, "ACTOR_TOKEN_INVALID")
	if r := sh.actors("POST", key, ""); r.Status != 200 { // the idle slot was freed
		t.Fatalf("after idle expiry: %s", r.Raw)
	}
	sh.actors("POST", key, "")               // third issue this minute (refused: slot taken, but counted)
	r := sh.actors("POST", key, "")          // fourth: over the issue limit
	r.refusal(t, 429, "RATE_LIMIT_EXCEEDED") // issue rate comes before slots
	if ra, _ := strconv.Atoi(r.Header.Get("Retry-After")); ra < 1 || ra > 60 {
		t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
	}
}

func TestIPWindow(t *testing.T) {
	s := startServer(t, func(c *serveConfig) { c.IPLimit = 5; c.TrustedProxies = list{"127.0.0.1/32"} })
	sh := newShop(t, s, "ip@example.com", "ip")
	q := []byte(`{"query":"{ products { total } }"}`)
	clearOfWindowEdge(t, time.Minute, 10*time.Second) // the window is a UTC minute
	for i := 0; i < 3; i++ {
		s.do("POST", sh.runtime, q, "X-API-Key", sh.fullKey, "X-Forwarded-For", "203.0.113.7").data(t)
	}
	// Requests that fail later still count: the window is checked first.
	s.do("POST", "/mock/nope/graphql", q, "X-Forwarded-For", "203.0.113.7").refusal(t, 404, "PROJECT_NOT_FOUND")
	s.do("POST", sh.runtime, q, "X-API-Key", "mgq_guess", "X-Forwarded-For", "203.0.113.7").refusal(t, 401, "API_KEY_INVALID")
	r := s.do("POST", sh.runtime, q, "X-API-Key", sh.fullKey, "X-Forwarded-For", "203.0.113.7")
	r.refusal(t, 429, "TOO_MANY_REQUESTS")
	if ra, _ := strconv.Atoi(r.Header.Get("Retry-After")); ra < 1 || ra > 60 || r.JSON["retryAfter"] != float64(ra) {
		t.Fatalf("Retry-After %q body %s", r.Header.Get("Retry-After"), r.Raw)
	}
	// Another client IP has its own window.
	s.do("POST", sh.runtime, q, "X-API-Key", sh.fullKey, "X-Forwarded-For", "198.51.100.1").data(t)
}

// TestIPWindowIgnoresUntrustedForwarding: without trusted proxies,
// X-Forwarded-For is ignored and the peer address counts. (A test of its
// own: one in-process node at a time, see TestUploadOverLimit.)
func TestIPWindowIgnoresUntrustedForwarding(t *testing.T) {
	q := []byte(`{"query":"{ products { total } }"}`)
	u := startServer(t, func(c *serveConfig) { c.IPLimit = 2 })
	clearOfWindowEdge(t, time.Minute, 10*time.Second)
	for i, want := range []int{404, 404, 429} {
		r := u.do("POST", "/mock/nope/graphql", q, "X-Forwarded-For", fmt.Sprintf("10.0.0.%d", i))
		if r.Status != want {
			t.Fatalf("request %d: %d, want %d", i, r.Status, want)
		}
	}
}

func TestPlanQuotas(t *testing.T) {
	s := startServer(t, func(c *serveConfig) { c.QuotaPro = 4; c.GuestDailyCalls = 2 })
	sh := newShop(t, s, "quota@example.com", "q")
	clearOfWindowEdge(t, 24*time.Hour, time.Minute) // quotas reset at UTC midnight
	q := []byte(`{"query":"{ products { total } }"}`)
	for i := 0; i < 4; i++ {
		s.do("POST", sh.runtime, q, "X-API-Key", sh.fullKey).data(t)
	}
	r := s.do("POST", sh.runtime, q, "X-API-Key", sh.fullKey)
	r.refusal(t, 429, "TOO_MANY_REQUESTS")
	ra, _ := strconv.Atoi(r.Header.Get("Retry-After"))
	now := time.Now().UTC()
	reset := time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, time.UTC)
	if diff := time.Duration(ra)*time.Second - time.Until(reset); diff < -5*time.Second || diff > 5*time.Second {
		t.Fatalf("Retry-After %ds, want until %s", ra, reset)
	}
	u := sh.owner.must(`{ account { usage { requests quota period resetsAt } } }`, nil)
	want := fmt.Sprintf("map[period:%s quota:4 requests:4 resetsAt:%s]", now.Format("2006-01"), reset.Format("2006-01-02T15:04:05.000Z"))
	if got := fmt.Sprint(get(u, "account", "usage")); got != want {
		t.Fatalf("usage %s, want %s", got, want)
	}
	// A plan change takes effect at once (TEAM: 1,000,000 a month).
	sh.owner.must(`mutation { setPlan(plan: TEAM) { plan } }`, nil)
	s.do("POST", sh.runtime, q, "X-API-Key", sh.fullKey).data(t)

	// Guest projects count against their session's daily quota.
	g := get(s.gql("/public-graphql", `mutation { createGuestProject { slug shareToken } }`, nil).data(t), "createGuestProject")
	path := "/mock/" + get(g, "slug").(string) + "/graphql?token=" + get(g, "shareToken").(string)
	for i := 0; i < 2; i++ {
		s.do("POST", path, []byte(`{"query":"{ __typename }"}`)).data(t)
	}
	s.do("POST", path, []byte(`{"query":"{ __typename }"}`)).refusal(t, 429, "TOO_MANY_REQUESTS")
}

func TestQuotaSurvivesRestart(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	data, port := t.TempDir(), freePort(t)
	p := startProc(t, data, port, "--quota-professional 5")
	sh := newShop(t, p.server, "qr@example.com", "qr")
	clearOfWindowEdge(t, 24*time.Hour, time.Minute) // quotas reset at UTC midnight
	q := []byte(`{"query":"{ products { total } }"}`)
	for i := 0; i < 3; i++ {
		p.do("POST", sh.runtime, q, "X-API-Key", sh.fullKey).data(t)
	}
	time.Sleep(1500 * time.Millisecond) // past the one-second checkpoint window
	p.kill()
	p = startProc(t, data, port, "--quota-professional 5")
	sh.s = p.server
	for i := 0; i < 2; i++ {
		p.do("POST", sh.runtime, q, "X-API-Key", sh.fullKey).data(t)
	}
	p.do("POST", sh.runtime, q, "X-API-Key", sh.fullKey).refusal(t, 429, "TOO_MANY_REQUESTS")
	_ = http.StatusOK
}

func TestQueryLimits(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "ql@example.com", "ql")
	deep := "title"
	for i := 0; i < 6; i++ {
		deep = "products { category { " + deep + " } }"
	}
	deep = "{ categories { items { " + deep + " } } }"
	r := sh.query(deep, nil)
	r.refusal(t, 400, "Bad Request")
	if !strings.Contains(string(r.Raw), "depth") {
		t.Fatalf("depth refusal does not say why: %s", r.Raw)
	}
	wide := "{ " + strings.Repeat("products { total } ", 1) + strings.Repeat("a: products { items { name } } ", 1)
	for i := 0; i < 1100; i++ {
		wide += fmt.Sprintf("f%d: products { total } ", i)
	}
	r = sh.query(wide+"}", nil)
	r.refusal(t, 400, "Bad Request")
	if !strings.Contains(string(r.Raw), "field") {
		t.Fatalf("width refusal does not say why: %s", r.Raw)
	}
}

// TestQueryTimeout runs a query that scans 200k rows generating a fake
// value for each (a filter on a GENERATED attribute defeats every index)
// under a 50 ms limit.
func TestQueryTimeout(t *testing.T) {
	s := startServer(t, func(c *serveConfig) { c.QueryTimeout = 50 * time.Millisecond })
	u := s.signUp("slow@example.com")
	u.must(`mutation { setPlan(plan: TEAM) { plan } }`, nil)
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < 200000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%d}`, i)
	}
	b.WriteString("]")
	if r := s.do("POST", "/datasets/many?format=json", []byte(b.String()), "Authorization", "Bearer "+u.token); r.Status != 200 {
		t.Fatalf("import: %s", r.Raw)
	}
	pid := get(u.must(`mutation { createProject(name: "Slow") { id slug } }`, nil), "createProject", "id")
	slug := get(u.must(`query($id:ID){ project(id:$id) { slug } }`, map[string]any{"id": pid}), "project", "slug").(string)
	tid := get(u.must(`mutation($p:ID!){ createModellingTable(input:{projectId:$p, name:"Row", source:{importCode:"many"}}) { id } }`,
		map[string]any{"p": pid}), "createModellingTable", "id")
	u.must(`mutation($t:ID!){ a: createModellingAttribute(input:{tableId:$t, name:"id", type: ID, mappingType: SOURCE, sourceMapping:{path:"id"}}) { id }
		b: createModellingAttribute(input:{tableId:$t, name:"mail", type: STRING, mappingType: GENERATED, generator:{kind:"person.email"}}) { id } }`,
		map[string]any{"t": tid})
	u.must(`mutation($t:ID!){ createOperation(input:{tableId:$t, name:"findRows", kind: LIST, parameters:[{name:"q", attribute:"mail", operator: like}]}) { id } }`,
		map[string]any{"t": tid})
	key := get(u.must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"k", scope: RUNTIME) { value } }`, map[string]any{"p": pid}), "createApiKey", "value").(string)
	path := "/mock/" + slug + "/graphql"
	s.gql(path, `{ __typename }`, nil, "X-API-Key", key).data(t) // warm: grains active, schema compiled
	r := s.gql(path, `{ findRows(q: "zzzz-not-there") { total } }`, nil, "X-API-Key", key)
	r.refusal(t, 503, "QUERY_TIMEOUT")
	if r.Header.Get("Retry-After") == "" {
		t.Fatalf("no Retry-After: %v", r.Header)
	}
}

// TestIPWindowSurvivesRestart: the per-IP window is checkpointed like the
// quotas, so a crash does not hand a client a fresh window (refuse rather
// than over-admit).
func TestIPWindowSurvivesRestart(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	clearOfWindowEdge(t, time.Minute, 12*time.Second)
	data, port := t.TempDir(), freePort(t)
	p := startProc(t, data, port, "--ip-limit 5")
	q := []byte(`{"query":"{ __typename }"}`)
	for i := 0; i < 3; i++ {
		p.do("POST", "/mock/nope/graphql", q).refusal(t, 404, "PROJECT_NOT_FOUND")
	}
	time.Sleep(1500 * time.Millisecond) // past the one-second checkpoint window
	p.kill()
	p = startProc(t, data, port, "--ip-limit 5")
	for i := 0; i < 2; i++ {
		p.do("POST", "/mock/nope/graphql", q).refusal(t, 404, "PROJECT_NOT_FOUND")
	}
	p.do("POST", "/mock/nope/graphql", q).refusal(t, 429, "TOO_MANY_REQUESTS")
}
