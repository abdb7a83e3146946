package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// assistant is a client of /public-graphql holding its session cookie.
type assistant struct {
	s      *server
	cookie string
}

func (a *assistant) gql(query string, vars map[string]any) response {
	a.s.t.Helper()
	h := []string{}
	if a.cookie != "" {
		h = []string{"Cookie", a.cookie}
	}
	r := a.s.gql("/public-graphql", query, vars, h...)
	for _, c := range r.Header.Values("Set-Cookie") {
		if strings.HasPrefix(c, "mgq_session=") {
			a.cookie = strings.SplitN(c, ";", 2)[0]
		}
	}
	return r
}

func (a *assistant) must(query string, vars map[string]any) map[string]any {
	a.s.t.Helper()
	return a.gql(query, vars).data(a.s.t)
}

// seedPool imports the shop datasets with a signed-up owner.
func seedPool(t *testing.T, s *server) {
	u := s.signUp(fmt.Sprintf("pool-%d@example.com", time.Now().UnixNano()))
	u.importVia("products", "json", productsJSON, "market").data(t)
	u.importVia("categories", "json", categoriesJSON, "").data(t)
	u.importVia("reviews", "ndjson", "{\"id\":1,\"productId\":1,\"stars\":5}\n{\"id\":2,\"productId\":3,\"stars\":2}\n", "").data(t)
}

// buildSessionModel plays steps 1–6 of the flow and returns the session project.
func buildSessionModel(t *testing.T, a *assistant) map[string]any {
	t.Helper()
	sp := get(a.must(`mutation { createSessionProject(name: "Shop for Ann") { projectId slug shareToken runtimeUrl adoptionToken adoptionUrl expiresAt } }`, nil), "createSessionProject").(map[string]any)
	if a.cookie == "" {
		t.Fatal("createSessionProject set no mgq_session cookie")
	}
	pid := sp["projectId"]
	ds := a.must(`{ availableDataSources { importCode fieldPaths recordCount variants { name recordCount } sampleDocuments(limit: 1) } }`, nil)
	if !strings.Contains(fmt.Sprint(ds), "price.amount") {
		t.Fatalf("availableDataSources: %v", ds)
	}
	tables := map[string]string{}
	for _, tb := range [][2]string{{"Product", "products"}, {"Category", "categories"}, {"Review", "reviews"}} {
		d := a.must(`mutation($p:ID!,$n:String!,$c:String!){ createModellingTable(input:{projectId:$p, name:$n, source:{importCode:$c}}) { id } }`,
			map[string]any{"p": pid, "n": tb[0], "c": tb[1]})
		tables[tb[0]] = get(d, "createModellingTable", "id").(string)
	}
	attrs := map[string][][2]string{
		"Product":  {{"id", "ID"}, {"name", "STRING"}, {"price.amount", "FLOAT"}, {"categoryId", "INT"}},
		"Category": {{"id", "ID"}, {"title", "STRING"}},
		"Review":   {{"id", "ID"}, {"productId", "INT"}, {"stars", "INT"}},
	}
	for tb, list := range attrs {
		for _, at := range list {
			name := strings.ReplaceAll(at[0], "price.amount", "price")
			a.must(`mutation($t:ID!,$n:String!,$ty:ScalarType!,$path:String!){ createModellingAttribute(input:{tableId:$t, name:$n, type:$ty, mappingType: SOURCE, sourceMapping:{path:$path}}) { id } }`,
				map[string]any{"t": tables[tb], "n": name, "ty": at[1], "path": at[0]})
		}
	}
	a.must(`mutation($s:ID!,$t:ID!){ createRelation(input:{sourceTableId:$s, targetTableId:$t, cardinality: ONE_TO_MANY, sourceAttribute:"id", targetAttribute:"categoryId", fieldName:"products", inverseFieldName:"category"}) { id } }`,
		map[string]any{"s": tables["Category"], "t": tables["Product"]})
	a.must(`mutation($s:ID!,$t:ID!){ createRelation(input:{sourceTableId:$s, targetTableId:$t, cardinality: ONE_TO_MANY, sourceAttribute:"id", targetAttribute:"productId", fieldName:"reviews", inverseFieldName:"product"}) { id } }`,
		map[string]any{"s": tables["Product"], "t": tables["Review"]})
	a.must(`mutation($p:ID!){ generateDefaultGqlOperations(projectId:$p) { name } }`, map[string]any{"p": pid})
	a.must(`mutation($p:ID!){ generateMissingViews(projectId:$p) { id } }`, map[string]any{"p": pid})
	return sp
}

func TestAssistantFlow(t *testing.T) {
	s := startServer(t)
	seedPool(t, s)
	a := &assistant{s: s}
	sp := buildSessionModel(t, a)
	pid := sp["projectId"]

	t.Run("runtimeList and the runtime answer", func(t *testing.T) {
		d := a.must(`query($p:ID!){ runtimeList(projectId:$p, operation:"products", sortField:"price", sortDirection:"DESC", pageSize:2) { items total page pageSize errors } }`,
			map[string]any{"p": pid})
		if get(d, "runtimeList", "total") != 4.0 || get(d, "runtimeList", "items", 0, "name") != "Desk" {
			t.Fatalf("runtimeList: %v", d)
		}
		r := s.gql(strings.TrimPrefix(sp["runtimeUrl"].(string), s.base), `{ reviews { items { stars product { name category { title } } } } }`, nil)
		if got := fmt.Sprint(get(r.data(t), "reviews", "items", 0)); got != "map[product:map[category:map[title:Office] name:Desk] stars:5]" {
			t.Fatalf("runtime: %s", got)
		}
		if d := a.must(`{ sessionProject { id kind expiresAt tables { name } } }`, nil); get(d, "sessionProject", "kind") != "SESSION" {
			t.Fatalf("sessionProject: %v", d)
		}
	})
	t.Run("introspection describes everything", func(t *testing.T) {
		d := a.must(`{ __schema { types { name kind description fields { name description args { name description } } inputFields { name description } } } }`, nil)
		for _, ty := range get(d, "__schema", "types").([]any) {
			name := get(ty, "name").(string)
			if strings.HasPrefix(name, "__") || get(ty, "kind") == "SCALAR" && (name == "String" || name == "Int" || name == "Float" || name == "Boolean" || name == "ID") {
				continue
			}
			if get(ty, "description") == nil || get(ty, "description") == "" {
				t.Errorf("type %s has no description", name)
			}
			fields, _ := get(ty, "fields").([]any)
			inputs, _ := get(ty, "inputFields").([]any)
			for _, f := range append(fields, inputs...) {
				if get(f, "description") == nil || get(f, "description") == "" {
					t.Errorf("%s.%s has no description", name, get(f, "name"))
				}
				args, _ := get(f, "args").([]any)
				for _, arg := range args {
					if get(arg, "description") == nil || get(arg, "description") == "" {
						t.Errorf("%s.%s(%s) has no description", name, get(f, "name"), get(arg, "name"))
					}
				}
			}
		}
	})
	t.Run("adoption link opens the board once", func(t *testing.T) {
		url := strings.TrimPrefix(sp["adoptionUrl"].(string), s.base)
		noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := noRedirect.Get(s.base + url)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 302 || resp.Header.Get("Location") != "/board/projects/"+pid.(string) {
			t.Fatalf("adopt: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
		var board string
		for _, c := range resp.Cookies() {
			if c.Name == "mgq_board" && c.HttpOnly {
				board = "mgq_board=" + c.Value
			}
		}
		if board == "" {
			t.Fatalf("no HttpOnly board cookie: %v", resp.Header.Values("Set-Cookie"))
		}
		if r := s.do("GET", "/board/projects/"+pid.(string), nil); r.Status != 200 || !strings.Contains(string(r.Raw), "mockgql board") {
			t.Fatalf("board page: %d", r.Status)
		}
		d := s.gql("/graphql", `query($id:ID){ project(id:$id) { name tables { name } } }`, map[string]any{"id": pid}, "Cookie", board).data(t)
		if get(d, "project", "name") != "Shop for Ann" {
			t.Fatalf("board session reads: %v", d)
		}
		s.do("GET", url, nil).refusal(t, 410, "ADOPTION_TOKEN_INVALID")
		s.do("GET", "/auth/adopt/adt_nothing", nil).refusal(t, 410, "ADOPTION_TOKEN_INVALID")
		fresh := a.must(`mutation($p:ID!){ createAdoptionLink(projectId:$p) { adoptionUrl } }`, map[string]any{"p": pid})
		if r := s.do("GET", strings.TrimPrefix(get(fresh, "createAdoptionLink", "adoptionUrl").(string), s.base), nil); r.Status != 200 {
			t.Fatalf("fresh link: %d", r.Status)
		}
	})
	t.Run("isolation", func(t *testing.T) {
		other := &assistant{s: s}
		other.must(`mutation { createSessionProject { projectId } }`, nil)
		mk := `mutation($p:ID!){ createModellingTable(input:{projectId:$p, name:"Intruder"}) { id } }`
		if r := other.gql(mk, map[string]any{"p": pid}); r.errCode() != "FORBIDDEN" {
			t.Fatalf("another session: %s", r.Raw)
		}
		if r := (&assistant{s: s}).gql(mk, map[string]any{"p": pid}); r.errCode() != "UNAUTHENTICATED" {
			t.Fatalf("no cookie: %s", r.Raw)
		}
		if r := a.gql(mk, map[string]any{"p": "pGuessed0000000"}); r.errCode() != "NOT_FOUND" && r.errCode() != "FORBIDDEN" {
			t.Fatalf("guessed id: %s", r.Raw)
		}
		if r := other.gql(`query($p:ID!){ runtimeList(projectId:$p, operation:"products") { total } }`, map[string]any{"p": pid}); r.errCode() != "FORBIDDEN" {
			t.Fatalf("runtimeList of another session: %s", r.Raw)
		}
		if strings.Contains(fmt.Sprint(a.must(`{ sessionProject { tables { name } } }`, nil)), "Intruder") {
			t.Fatal("an intruder's table was added")
		}
	})
	t.Run("one session project per session", func(t *testing.T) {
		if r := a.gql(`mutation { createSessionProject { projectId } }`, nil); r.errCode() != "LIMIT_REACHED" {
			t.Fatalf("second session project: %s", r.Raw)
		}
	})
}

func TestSessionLimits(t *testing.T) {
	s := startServer(t, func(c *serveConfig) { c.SessionDailyCalls = 3 })
	clearOfWindowEdge(t, 24*time.Hour, time.Minute) // quotas reset at UTC midnight
	seedPool(t, s)
	a := &assistant{s: s}
	sp := buildSessionModel(t, a)
	pid := sp["projectId"]
	// 3 tables exist; 17 more reach 20, the 21st is refused.
	var last response
	for i := 0; i < 18; i++ {
		last = a.gql(`mutation($p:ID!,$n:String!){ createModellingTable(input:{projectId:$p, name:$n}) { id } }`, map[string]any{"p": pid, "n": fmt.Sprintf("Extra%d", i)})
	}
	if last.errCode() != "LIMIT_REACHED" || !strings.Contains(string(last.Raw), "20 tables") {
		t.Fatalf("21st table: %s", last.Raw)
	}
	tid := get(a.must(`{ sessionProject { tables { id name } } }`, nil), "sessionProject", "tables", 3, "id")
	for i := 0; i < 31; i++ {
		last = a.gql(`mutation($t:ID!,$n:String!){ createModellingAttribute(input:{tableId:$t, name:$n, type: STRING, mappingType: NONE}) { id } }`, map[string]any{"t": tid, "n": fmt.Sprintf("a%d", i)})
	}
	if last.errCode() != "LIMIT_REACHED" || !strings.Contains(string(last.Raw), "30 attributes") {
		t.Fatalf("31st attribute: %s", last.Raw)
	}
	// 3 runtime calls a day here, runtimeList included.
	a.must(`query($p:ID!){ runtimeList(projectId:$p, operation:"products") { total } }`, map[string]any{"p": pid})
	path := strings.TrimPrefix(sp["runtimeUrl"].(string), s.base)
	s.gql(path, `{ products { total } }`, nil).data(t)
	s.gql(path, `{ products { total } }`, nil).data(t)
	s.gql(path, `{ products { total } }`, nil).refusal(t, 429, "TOO_MANY_REQUESTS")
	if r := a.gql(`query($p:ID!){ runtimeList(projectId:$p, operation:"products") { total } }`, map[string]any{"p": pid}); r.errCode() != "TOO_MANY_REQUESTS" {
		t.Fatalf("runtimeList over quota: %s", r.Raw)
	}
}

func TestSessionExpiry(t *testing.T) {
	s := startServer(t, func(c *serveConfig) {
		c.SessionTTL, c.AdoptionTTL, c.SweepEvery = 2*time.Second, 700*time.Millisecond, 200*time.Millisecond
	})
	seedPool(t, s)
	a := &assistant{s: s}
	sp := buildSessionModel(t, a)
	path := strings.TrimPrefix(sp["runtimeUrl"].(string), s.base)
	s.gql(path, `{ products { total } }`, nil).data(t)
	time.Sleep(800 * time.Millisecond)
	s.do("GET", strings.TrimPrefix(sp["adoptionUrl"].(string), s.base), nil).refusal(t, 410, "ADOPTION_TOKEN_INVALID")
	time.Sleep(1600 * time.Millisecond)
	s.gql(path, `{ products { total } }`, nil).refusal(t, 404, "PROJECT_NOT_FOUND")
	if d := a.must(`{ sessionProject { id } }`, nil); get(d, "sessionProject") != nil {
		t.Fatalf("expired project still listed: %v", d)
	}
	// The session may start a new project once the old one is gone.
	a.must(`mutation { createSessionProject { projectId } }`, nil)
}

func TestSessionExpiresWhileDown(t *testing.T) {
	data, port := t.TempDir(), freePort(t)
	p := startProc(t, data, port, "--session-ttl 1500ms --sweep-every 100ms")
	seedPool(t, p.server)
	a := &assistant{s: p.server}
	sp := buildSessionModel(t, a)
	path := strings.TrimPrefix(sp["runtimeUrl"].(string), p.base)
	p.gql(path, `{ products { total } }`, nil).data(t)
	p.kill()
	time.Sleep(1600 * time.Millisecond)
	p = startProc(t, data, port, "--session-ttl 1500ms --sweep-every 100ms")
	p.gql(path, `{ products { total } }`, nil).refusal(t, 404, "PROJECT_NOT_FOUND")
}

func TestSessionTransfer(t *testing.T) {
	s := startServer(t)
	seedPool(t, s)
	for _, via := range []string{"session cookie", "board session"} {
		t.Run(via, func(t *testing.T) {
			a := &assistant{s: s}
			sp := buildSessionModel(t, a)
			cookie := a.cookie
			if via == "board session" {
				resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Get(sp["adoptionUrl"].(string))
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				cookie = strings.SplitN(resp.Header.Get("Set-Cookie"), ";", 2)[0]
			}
			email := strings.ReplaceAll(via, " ", "") + "@example.com"
			r := s.gql("/graphql", `mutation($e:String!){ signUp(email:$e, password:"correct horse") { token account { id } } }`, map[string]any{"e": email}, "Cookie", cookie)
			u := &user{s: s, token: get(r.data(t), "signUp", "token").(string)}
			d := u.must(`{ projects { id slug kind expiresAt shareToken tables { name } } }`, nil)
			p := get(d, "projects", 0)
			if get(p, "id") != sp["projectId"] || get(p, "kind") != "ACCOUNT" || get(p, "expiresAt") != nil || get(p, "slug") != sp["slug"] ||
				len(get(p, "tables").([]any)) != 3 {
				t.Fatalf("after sign-up: %v", d)
			}
			path := strings.TrimPrefix(sp["runtimeUrl"].(string), s.base)
			s.gql(path, `{ products { total } }`, nil).refusal(t, 401, "UNAUTHENTICATED")
			u.must(`mutation { setPlan(plan: PROFESSIONAL) { plan } }`, nil)
			key := get(u.must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"k", scope: RUNTIME) { value } }`, map[string]any{"p": sp["projectId"]}), "createApiKey", "value").(string)
			s.gql(strings.SplitN(path, "?", 2)[0], `{ products { total } }`, nil, "X-API-Key", key).data(t)
		})
	}
}
