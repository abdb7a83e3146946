package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/persistence"
)

// assistant is a client of /public-graphql holding its session cookie.
type assistant struct {
	s      *server
	cookie string
	// setCookie is the whole Set-Cookie header that set cookie.
	setCookie string
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
			a.cookie, a.setCookie = strings.SplitN(c, ";", 2)[0], c
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
	u := s.curator()
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

// modelFields reads everything of a project's model (the same on /graphql
// and /public-graphql), to compare a model before and after.
const modelFields = `id name slug tables { id name ready source { importCode variant }
	attributes { id name type mappingType sourceMapping { path } } }
	relations { id sourceTableId targetTableId cardinality sourceAttribute targetAttribute fieldName inverseFieldName }
	operations { id tableId name kind enabled } views { id tableId kind name } sdl`

// sessionModel reads the assistant's session project whole.
func (a *assistant) sessionModel() map[string]any {
	a.s.t.Helper()
	m, _ := get(a.must(`{ sessionProject { `+modelFields+` } }`, nil), "sessionProject").(map[string]any)
	if m == nil {
		a.s.t.Fatal("the session has no session project")
	}
	return m
}

// noRedirect is a client that answers a redirect instead of following it.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// adopt opens an adoption link without following the redirect and returns
// the answer and the board session cookie it set ("" if none).
func adopt(t testing.TB, url string) (*http.Response, string) {
	t.Helper()
	resp, err := noRedirect.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, c := range resp.Cookies() {
		if c.Name == "mgq_board" && c.HttpOnly {
			return resp, "mgq_board=" + c.Value
		}
	}
	return resp, ""
}

// records lists the stored records of a project, by kind: its checkpoint,
// overlay rows, mutation answers, expiry index entry, adoption tokens, slug
// and its session's claim.
func records(t testing.TB, db *persistence.DB, projectID, slug string) []string {
	t.Helper()
	var found []string
	for _, kind := range []string{"project", "overlay", "reply", "expiry", "adoption", "slug", "session"} {
		err := db.Scan(kind, "", func(id string, v []byte) error {
			if strings.Contains(id, projectID) || kind == "slug" && id == slug ||
				kind != "expiry" && bytes.Contains(v, []byte(projectID)) {
				found = append(found, kind+"/"+id)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return found
}

// kinds returns the kinds of records lists.
func kinds(recs []string) map[string]bool {
	out := map[string]bool{}
	for _, r := range recs {
		out[strings.SplitN(r, "/", 2)[0]] = true
	}
	return out
}

// sha256Hex is how the store names a secret.
func sha256Hex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func TestAssistantFlow(t *testing.T) {
	s := startServer(t)
	seedPool(t, s)
	a := &assistant{s: s}
	created := time.Now()
	sp := buildSessionModel(t, a)
	pid := sp["projectId"].(string)

	t.Run("createSessionProject answers the link, the runtime and the cookie", func(t *testing.T) {
		if !strings.Contains(a.setCookie, "HttpOnly") || !strings.Contains(a.setCookie, "Path=/") {
			t.Errorf("session cookie: %s", a.setCookie)
		}
		token := sp["adoptionToken"].(string)
		if !regexp.MustCompile(`^adt_[0-9A-Za-z]{32}$`).MatchString(token) { // 32 × log2(62) ≈ 190 bits
			t.Errorf("adoption token %q", token)
		}
		if sp["adoptionUrl"] != s.base+"/auth/adopt/"+token {
			t.Errorf("adoptionUrl %v", sp["adoptionUrl"])
		}
		if sp["runtimeUrl"] != s.base+"/mock/"+sp["slug"].(string)+"/graphql?token="+sp["shareToken"].(string) {
			t.Errorf("runtimeUrl %v", sp["runtimeUrl"])
		}
		exp, err := time.Parse(time.RFC3339, sp["expiresAt"].(string))
		if err != nil || exp.Before(created.Add(24*time.Hour-time.Second)) || exp.After(time.Now().Add(24*time.Hour)) {
			t.Errorf("expiresAt %v, want 24 hours after creation", sp["expiresAt"])
		}
	})
	t.Run("availableDataSources", func(t *testing.T) {
		d := a.must(`{ availableDataSources { importCode fieldPaths recordCount variants { name recordCount } sampleDocuments(limit: 1) } }`, nil)
		var products any
		for _, ds := range get(d, "availableDataSources").([]any) {
			if get(ds, "importCode") == "products" {
				products = ds
			}
		}
		if get(products, "recordCount") != 4.0 || !strings.Contains(fmt.Sprint(get(products, "fieldPaths")), "price.amount") ||
			fmt.Sprint(get(products, "variants")) != "[map[name:eu recordCount:2] map[name:us recordCount:2]]" ||
			len(get(products, "sampleDocuments").([]any)) != 1 {
			t.Fatalf("products: %v", products)
		}
	})
	t.Run("runtimeList and the runtime answer", func(t *testing.T) {
		d := a.must(`query($p:ID!){ runtimeList(projectId:$p, operation:"products", sortField:"price", sortDirection:"DESC", pageSize:2) { items total page pageSize errors } }`,
			map[string]any{"p": pid})
		if get(d, "runtimeList", "total") != 4.0 || get(d, "runtimeList", "items", 0, "name") != "Desk" || len(get(d, "runtimeList", "items").([]any)) != 2 {
			t.Fatalf("runtimeList: %v", d)
		}
		r := s.gql(strings.TrimPrefix(sp["runtimeUrl"].(string), s.base), `{ reviews { items { stars product { name category { title } } } } }`, nil)
		if got := fmt.Sprint(get(r.data(t), "reviews", "items", 0)); got != "map[product:map[category:map[title:Office] name:Desk] stars:5]" {
			t.Fatalf("runtime: %s", got)
		}
		if d := a.must(`{ sessionProject { id kind expiresAt tables { name } } }`, nil); get(d, "sessionProject", "kind") != "SESSION" || get(d, "sessionProject", "id") != pid {
			t.Fatalf("sessionProject: %v", d)
		}
	})
	t.Run("introspection describes every type, field, argument and value", func(t *testing.T) {
		d := a.must(`{ __schema { queryType { name } mutationType { name } types { name kind description
			fields { name description args { name description } } inputFields { name description } enumValues { name description } } } }`, nil)
		described := func(v any) bool { d, _ := get(v, "description").(string); return strings.TrimSpace(d) != "" }
		seen := map[string]bool{}
		for _, ty := range get(d, "__schema", "types").([]any) {
			name := get(ty, "name").(string)
			if strings.HasPrefix(name, "__") || get(ty, "kind") == "SCALAR" && strings.Contains(" String Int Float Boolean ID ", " "+name+" ") {
				continue
			}
			if !described(ty) {
				t.Errorf("type %s has no description", name)
			}
			fields, _ := get(ty, "fields").([]any)
			inputs, _ := get(ty, "inputFields").([]any)
			values, _ := get(ty, "enumValues").([]any)
			for _, f := range append(append(fields, inputs...), values...) {
				fname := name + "." + get(f, "name").(string)
				if !described(f) {
					t.Errorf("%s has no description", fname)
				}
				args, _ := get(f, "args").([]any)
				for _, arg := range args {
					seen[fname+"("+get(arg, "name").(string)+")"] = true
					if !described(arg) {
						t.Errorf("%s(%s) has no description", fname, get(arg, "name"))
					}
				}
				seen[fname] = true
			}
		}
		// The walk covered the contract (docs/using/assistants.md), not an empty schema.
		for _, want := range []string{"Query.availableDataSources", "Query.sessionProject", "Query.runtimeList(projectId)", "Query.runtimeList(operation)",
			"Query.runtimeList(page)", "Query.runtimeList(pageSize)", "Query.runtimeList(sortField)", "Query.runtimeList(sortDirection)", "Query.runtimeList(args)",
			"Mutation.createSessionProject(name)", "Mutation.createAdoptionLink(projectId)", "Mutation.createGuestProject(name)",
			"Mutation.createModellingTable(input)", "Mutation.createModellingAttribute(input)", "Mutation.createRelation(input)",
			"Mutation.generateDefaultGqlOperations(projectId)", "Mutation.generateMissingViews(projectId)",
			"CreateModellingTableInput.source", "TableSourceInput.importCode", "CreateModellingAttributeInput.mappingType",
			"CreateModellingAttributeInput.sourceMapping", "SourceMappingInput.path", "MappingType.SOURCE",
			"SessionProject.adoptionUrl", "SessionProject.expiresAt", "DataSource.sampleDocuments(limit)"} {
			if !seen[want] {
				t.Errorf("introspection lacks %s", want)
			}
		}
	})
	t.Run("adoption link opens the board once", func(t *testing.T) {
		resp, board := adopt(t, sp["adoptionUrl"].(string))
		if resp.StatusCode != 302 || resp.Header.Get("Location") != "/board/projects/"+pid {
			t.Fatalf("adopt: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
		if board == "" {
			t.Fatalf("no HttpOnly board cookie: %v", resp.Header.Values("Set-Cookie"))
		}
		if r := s.do("GET", "/board/projects/"+pid, nil); r.Status != 200 || !strings.Contains(string(r.Raw), "mockgql board") {
			t.Fatalf("board page: %d", r.Status)
		}
		d := s.gql("/graphql", `query($id:ID){ project(id:$id) { name tables { name } } }`, map[string]any{"id": pid}, "Cookie", board).data(t)
		if get(d, "project", "name") != "Shop for Ann" {
			t.Fatalf("board session reads: %v", d)
		}
		url := strings.TrimPrefix(sp["adoptionUrl"].(string), s.base)
		s.do("GET", url, nil).refusal(t, 410, "ADOPTION_TOKEN_INVALID") // used
		s.do("GET", "/auth/adopt/adt_"+strings.Repeat("x", 32), nil).refusal(t, 410, "ADOPTION_TOKEN_INVALID")
		s.do("GET", "/auth/adopt/nothing", nil).refusal(t, 410, "ADOPTION_TOKEN_INVALID")

		fresh := get(a.must(`mutation($p:ID!){ createAdoptionLink(projectId:$p) { projectId adoptionToken adoptionUrl } }`, map[string]any{"p": pid}), "createAdoptionLink")
		if get(fresh, "projectId") != pid || get(fresh, "adoptionToken") == sp["adoptionToken"] || get(fresh, "adoptionUrl") != s.base+"/auth/adopt/"+get(fresh, "adoptionToken").(string) {
			t.Fatalf("createAdoptionLink: %v", fresh)
		}
		if resp, board := adopt(t, get(fresh, "adoptionUrl").(string)); resp.StatusCode != 302 || resp.Header.Get("Location") != "/board/projects/"+pid || board == "" {
			t.Fatalf("fresh link: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
		s.do("GET", strings.TrimPrefix(get(fresh, "adoptionUrl").(string), s.base), nil).refusal(t, 410, "ADOPTION_TOKEN_INVALID")
	})
	t.Run("isolation", func(t *testing.T) {
		before := a.sessionModel()
		tid := get(before, "tables", 0, "id")
		owner := s.signUp(fmt.Sprintf("isolation-%d@example.com", time.Now().UnixNano()))
		acct := get(owner.must(`mutation { createProject(name: "Owned") { id } }`, nil), "createProject", "id")
		other := &assistant{s: s}
		other.must(`mutation { createSessionProject { projectId } }`, nil)
		otherBefore := other.sessionModel()
		edits := []struct {
			name, query string
			vars        map[string]any
		}{
			{"createModellingTable", `mutation($p:ID!){ createModellingTable(input:{projectId:$p, name:"Intruder"}) { id } }`, map[string]any{"p": pid}},
			{"createModellingAttribute", `mutation($t:ID!){ createModellingAttribute(input:{tableId:$t, name:"intruder", type: STRING, mappingType: NONE}) { id } }`, map[string]any{"t": tid}},
			{"createRelation", `mutation($t:ID!){ createRelation(input:{sourceTableId:$t, targetTableId:$t, cardinality: ONE_TO_ONE, sourceAttribute:"id", targetAttribute:"id", fieldName:"intruder"}) { id } }`, map[string]any{"t": tid}},
			{"generateDefaultGqlOperations", `mutation($p:ID!){ generateDefaultGqlOperations(projectId:$p) { name } }`, map[string]any{"p": pid}},
			{"generateMissingViews", `mutation($p:ID!){ generateMissingViews(projectId:$p) { id } }`, map[string]any{"p": pid}},
			{"createAdoptionLink", `mutation($p:ID!){ createAdoptionLink(projectId:$p) { adoptionUrl } }`, map[string]any{"p": pid}},
			{"runtimeList", `query($p:ID!){ runtimeList(projectId:$p, operation:"products") { total } }`, map[string]any{"p": pid}},
		}
		forged := &assistant{s: s, cookie: "mgq_session=s" + strings.Repeat("A", 26)} // well-formed, never issued
		for _, e := range edits {
			for _, c := range []struct {
				who  string
				as   *assistant
				want string
			}{{"another session", other, "FORBIDDEN"}, {"a forged session", forged, "FORBIDDEN"}, {"no cookie", &assistant{s: s}, "UNAUTHENTICATED"}} {
				if r := c.as.gql(e.query, e.vars); r.errCode() != c.want || get(r.JSON, "data", e.name) != nil {
					t.Errorf("%s by %s: want %s, got %s", e.name, c.who, c.want, r.Raw)
				}
			}
		}
		// A guessed ID: an account project's answers like one that does not
		// exist (NOT_FOUND), so the answer does not tell that it exists.
		for _, guess := range []any{acct, "p" + strings.Repeat("G", 14)} {
			if r := a.gql(edits[0].query, map[string]any{"p": guess}); r.errCode() != "NOT_FOUND" {
				t.Errorf("guessed %v: %s", guess, r.Raw)
			}
			if r := a.gql(edits[5].query, map[string]any{"p": guess}); r.errCode() != "NOT_FOUND" {
				t.Errorf("adoption link for guessed %v: %s", guess, r.Raw)
			}
		}
		if after := a.sessionModel(); !reflect.DeepEqual(after, before) {
			t.Errorf("the project changed:\nbefore %v\nafter  %v", before, after)
		}
		if after := other.sessionModel(); !reflect.DeepEqual(after, otherBefore) {
			t.Errorf("the other session's project changed: %v", after)
		}
		if d := owner.must(`query($id:ID){ project(id:$id) { tables { id } } }`, map[string]any{"id": acct}); len(get(d, "project", "tables").([]any)) != 0 {
			t.Errorf("the account project changed: %v", d)
		}
	})
	t.Run("one session project per session", func(t *testing.T) {
		r := a.gql(`mutation { createSessionProject { projectId } }`, nil)
		if r.errCode() != "LIMIT_REACHED" || !strings.Contains(string(r.Raw), "1 session project") {
			t.Fatalf("second session project: %s", r.Raw)
		}
		if c := r.Header.Values("Set-Cookie"); len(c) != 0 {
			t.Fatalf("a session's cookie was replaced: %v", c)
		}
	})
}

// TestSessionLimits checks the documented defaults of a session project: 20
// tables, 30 attributes a table, and the daily runtime calls (3 here).
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
	m := a.sessionModel()
	if n := len(get(m, "tables").([]any)); n != 20 {
		t.Fatalf("%d tables after the refusal", n)
	}
	if n := len(get(m, "tables", 3, "attributes").([]any)); n != 30 {
		t.Fatalf("%d attributes after the refusal", n)
	}
	// 3 runtime calls a day here, runtimeList included.
	a.must(`query($p:ID!){ runtimeList(projectId:$p, operation:"products") { total } }`, map[string]any{"p": pid})
	path := strings.TrimPrefix(sp["runtimeUrl"].(string), s.base)
	s.gql(path, `{ products { total } }`, nil).data(t)
	s.gql(path, `{ products { total } }`, nil).data(t)
	r := s.gql(path, `{ products { total } }`, nil)
	r.refusal(t, 429, "TOO_MANY_REQUESTS")
	if !strings.Contains(fmt.Sprint(r.JSON["detail"]), "3 runtime calls a day") {
		t.Fatalf("the 429 does not name the limit: %s", r.Raw)
	}
	if r := a.gql(`query($p:ID!){ runtimeList(projectId:$p, operation:"products") { total } }`, map[string]any{"p": pid}); r.errCode() != "LIMIT_REACHED" ||
		!strings.Contains(string(r.Raw), "3 runtime calls a day") {
		t.Fatalf("runtimeList over quota: %s", r.Raw)
	}
}

// TestServeFlagDefaults: every session setting is a flag (and an
// environment variable) with the default of docs/reference/flags.md.
func TestServeFlagDefaults(t *testing.T) {
	var c serveConfig
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	serveFlags(fs, &c)
	t.Setenv("MGQ_SESSION_TABLES", "7")
	if err := parse(fs, nil); err != nil {
		t.Fatal(err)
	}
	got := []any{c.SessionTTL, c.AdoptionTTL, c.SessionProjects, c.SessionTables, c.SessionAttributes, c.SessionDailyCalls, c.GuestDailyCalls}
	want := []any{24 * time.Hour, 15 * time.Minute, 1, 7, 30, 100, 500}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("session settings %v, want %v", got, want)
	}
	os.Unsetenv("MGQ_SESSION_TABLES")
	fs = flag.NewFlagSet("serve", flag.ContinueOnError)
	serveFlags(fs, &c)
	if err := parse(fs, nil); err != nil || c.SessionTables != 20 {
		t.Fatalf("--session-tables default %d: %v", c.SessionTables, err)
	}
}

// TestSessionLimitFlags runs mockgql serve with every session limit set by
// its flag, and checks that each refusal names the limit it applies.
func TestSessionLimitFlags(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	clearOfWindowEdge(t, 24*time.Hour, time.Minute)
	p := startProc(t, t.TempDir(), freePort(t),
		"--session-projects 2 --session-tables 2 --session-attributes 2 --session-daily-calls 2 --adoption-ttl 1s")
	seedPool(t, p.server)
	a := &assistant{s: p.server}
	mk := `mutation { createSessionProject { projectId runtimeUrl adoptionUrl } }`
	first := get(a.must(mk, nil), "createSessionProject")
	created := time.Now()
	sp := get(a.must(mk, nil), "createSessionProject")
	if r := a.gql(mk, nil); r.errCode() != "LIMIT_REACHED" || !strings.Contains(string(r.Raw), "2 session projects") {
		t.Fatalf("third session project: %s", r.Raw)
	}
	pid := get(sp, "projectId")
	table := `mutation($p:ID!,$n:String!){ createModellingTable(input:{projectId:$p, name:$n, source:{importCode:"products"}}) { id } }`
	tid := get(a.must(table, map[string]any{"p": pid, "n": "Product"}), "createModellingTable", "id")
	a.must(table, map[string]any{"p": pid, "n": "Other"})
	if r := a.gql(table, map[string]any{"p": pid, "n": "Third"}); r.errCode() != "LIMIT_REACHED" || !strings.Contains(string(r.Raw), "2 tables") {
		t.Fatalf("third table: %s", r.Raw)
	}
	attr := `mutation($t:ID!,$n:String!){ createModellingAttribute(input:{tableId:$t, name:$n, type: STRING, mappingType: SOURCE, sourceMapping:{path:$n}}) { id } }`
	a.must(attr, map[string]any{"t": tid, "n": "id"})
	a.must(attr, map[string]any{"t": tid, "n": "name"})
	if r := a.gql(attr, map[string]any{"t": tid, "n": "market"}); r.errCode() != "LIMIT_REACHED" || !strings.Contains(string(r.Raw), "2 attributes") {
		t.Fatalf("third attribute: %s", r.Raw)
	}
	a.must(`mutation($p:ID!){ generateDefaultGqlOperations(projectId:$p) { name } }`, map[string]any{"p": pid})
	list := `query($p:ID!){ runtimeList(projectId:$p, operation:"products") { total } }`
	a.must(list, map[string]any{"p": pid})
	path := strings.TrimPrefix(get(sp, "runtimeUrl").(string), p.base)
	p.gql(path, `{ products { total } }`, nil).data(t)
	r := p.gql(path, `{ products { total } }`, nil)
	r.refusal(t, 429, "TOO_MANY_REQUESTS")
	if !strings.Contains(fmt.Sprint(r.JSON["detail"]), "2 runtime calls a day") {
		t.Fatalf("the 429 does not name the limit: %s", r.Raw)
	}
	if r := a.gql(list, map[string]any{"p": pid}); r.errCode() != "LIMIT_REACHED" || !strings.Contains(string(r.Raw), "2 runtime calls a day") {
		t.Fatalf("runtimeList over quota: %s", r.Raw)
	}
	// --adoption-ttl 1s: the first project's link has expired, unused.
	time.Sleep(time.Until(created.Add(1100 * time.Millisecond)))
	p.do("GET", strings.TrimPrefix(get(first, "adoptionUrl").(string), p.base), nil).refusal(t, 410, "ADOPTION_TOKEN_INVALID")
}

// TestSessionExpiry: after --session-ttl the sweeper deletes the session
// project with everything it had, on a running node; the guest project of
// the same session does not expire; a sign-up after the expiry moves nothing.
func TestSessionExpiry(t *testing.T) {
	s := startServer(t, func(c *serveConfig) {
		c.SessionTTL, c.AdoptionTTL, c.SweepEvery = 4*time.Second, time.Second, 200*time.Millisecond
	})
	seedPool(t, s)
	a := &assistant{s: s}
	sp := buildSessionModel(t, a)
	pid, slug := sp["projectId"].(string), sp["slug"].(string)
	exp, err := time.Parse(time.RFC3339, sp["expiresAt"].(string))
	if err != nil {
		t.Fatal(err)
	}
	path := strings.TrimPrefix(sp["runtimeUrl"].(string), s.base)
	s.gql(path, `mutation { createProduct(input: {name: "Mine"}) { id } }`, nil).data(t) // an overlay row and a mutation answer

	// A guest project on the same session: no new cookie, its own (30-day) expiry.
	r := a.gql(`mutation { createGuestProject(name: "Kept") { projectId slug shareToken runtimeUrl } }`, nil)
	g := get(r.data(t), "createGuestProject")
	if c := r.Header.Values("Set-Cookie"); len(c) != 0 {
		t.Fatalf("createGuestProject replaced the session cookie: %v", c)
	}
	gid := get(g, "projectId").(string)
	tid := get(a.must(`mutation($p:ID!){ createModellingTable(input:{projectId:$p, name:"Thing", source:{importCode:"categories"}}) { id } }`, map[string]any{"p": gid}), "createModellingTable", "id")
	a.must(`mutation($t:ID!){ createModellingAttribute(input:{tableId:$t, name:"title", type: STRING, mappingType: SOURCE, sourceMapping:{path:"title"}}) { id } }`, map[string]any{"t": tid})
	a.must(`mutation($p:ID!){ generateDefaultGqlOperations(projectId:$p) { name } }`, map[string]any{"p": gid})
	guestPath := strings.TrimPrefix(get(g, "runtimeUrl").(string), s.base)
	s.gql(guestPath, `{ things { total } }`, nil).data(t)

	if k := kinds(records(t, s.run.db, pid, slug)); len(k) != 7 {
		t.Fatalf("the test does not see every record of a live project: %v", k)
	}
	// --adoption-ttl: the link has expired while the project lives.
	time.Sleep(time.Until(exp.Add(-4 * time.Second).Add(1100 * time.Millisecond)))
	s.do("GET", strings.TrimPrefix(sp["adoptionUrl"].(string), s.base), nil).refusal(t, 410, "ADOPTION_TOKEN_INVALID")
	if time.Now().After(exp) {
		t.Fatal("too slow: the project expired before its adoption link was checked")
	}
	s.gql(path, `{ products { total } }`, nil).data(t)

	time.Sleep(time.Until(exp))
	for deadline := time.Now().Add(3 * time.Second); len(records(t, s.run.db, pid, slug)) > 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("left 3 s after the expiry: %v", records(t, s.run.db, pid, slug))
		}
	}
	s.gql(path, `{ products { total } }`, nil).refusal(t, 404, "PROJECT_NOT_FOUND")
	if d := a.must(`{ sessionProject { id } }`, nil); get(d, "sessionProject") != nil {
		t.Fatalf("expired project still listed: %v", d)
	}
	d := s.gql("/graphql", `query($id:ID){ project(id:$id) { kind expiresAt } }`, map[string]any{"id": gid}, "Cookie", a.cookie).data(t)
	if get(d, "project", "kind") != "GUEST" || get(d, "project", "expiresAt") == nil { // --guest-ttl after its last use (30 days)
		t.Fatalf("guest project: %v", d)
	}
	s.gql(guestPath, `{ things { total } }`, nil).data(t)
	// Too late to move it: a sign-up with the session's cookie gets nothing.
	su := s.gql("/graphql", `mutation { signUp(email:"late@example.com", password:"correct horse") { token } }`, nil, "Cookie", a.cookie)
	u := &user{s: s, token: get(su.data(t), "signUp", "token").(string)}
	if d := u.must(`{ projects { id } }`, nil); len(get(d, "projects").([]any)) != 0 {
		t.Fatalf("an expired project moved: %v", d)
	}
	// The session may start a new project once the old one is gone.
	a.must(`mutation { createSessionProject { projectId } }`, nil)
}

// TestSessionExpiresWhileDown: a project whose deadline passed while no
// node ran is deleted by the first sweep after start (no later one runs
// here). The store holds adoption tokens and sessions only as hashes.
func TestSessionExpiresWhileDown(t *testing.T) {
	data, port := t.TempDir(), freePort(t)
	p := startProc(t, data, port, "--session-ttl 3s")
	seedPool(t, p.server)
	a := &assistant{s: p.server}
	sp := buildSessionModel(t, a)
	pid, slug := sp["projectId"].(string), sp["slug"].(string)
	exp, err := time.Parse(time.RFC3339, sp["expiresAt"].(string))
	if err != nil {
		t.Fatal(err)
	}
	path := strings.TrimPrefix(sp["runtimeUrl"].(string), p.base)
	p.gql(path, `mutation { createProduct(input: {name: "Mine"}) { id } }`, nil).data(t)
	p.kill()
	if time.Now().After(exp) {
		t.Fatal("too slow: the project expired before the node went down")
	}

	raw, err := os.ReadFile(filepath.Join(data, "mockgql.db"))
	if err != nil {
		t.Fatal(err)
	}
	token, session := sp["adoptionToken"].(string), strings.TrimPrefix(a.cookie, "mgq_session=")
	for _, secret := range []string{token, session} {
		if bytes.Contains(raw, []byte(secret)) {
			t.Errorf("the store holds the secret %s itself", secret)
		}
		if !bytes.Contains(raw, []byte(sha256Hex(secret))) {
			t.Errorf("the store does not hold the hash of %s", secret)
		}
	}

	time.Sleep(time.Until(exp.Add(100 * time.Millisecond)))
	s := startServer(t, func(c *serveConfig) {
		c.Data, c.Node, c.SessionTTL, c.SweepEvery = data, "crash", 3*time.Second, time.Hour
	})
	for deadline := time.Now().Add(3 * time.Second); len(records(t, s.run.db, pid, slug)) > 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("left 3 s after start: %v", records(t, s.run.db, pid, slug))
		}
	}
	s.gql(path, `{ products { total } }`, nil).refusal(t, 404, "PROJECT_NOT_FOUND")
}

// TestSessionTransfer: a sign-up with the assistant's session cookie, or
// in the browser that opened the adoption link, moves the live session
// project into the new account, whole; it no longer expires, and neither
// the session nor the board session reach it any more.
func TestSessionTransfer(t *testing.T) {
	const ttl = 4 * time.Second
	s := startServer(t, func(c *serveConfig) { c.SessionTTL, c.SweepEvery = ttl, 200*time.Millisecond })
	seedPool(t, s)
	type moved struct {
		u    *user
		sp   map[string]any
		path string
	}
	var all []moved
	var deadline time.Time
	for _, via := range []string{"session cookie", "board session"} {
		t.Run(via, func(t *testing.T) {
			a := &assistant{s: s}
			sp := buildSessionModel(t, a)
			pid := sp["projectId"].(string)
			if deadline.IsZero() {
				deadline, _ = time.Parse(time.RFC3339, sp["expiresAt"].(string))
			}
			before := a.sessionModel()
			cookie := a.cookie
			var board string
			if via == "board session" {
				_, board = adopt(t, sp["adoptionUrl"].(string))
				cookie = board
			}
			email := strings.ReplaceAll(via, " ", "") + "@example.com"
			r := s.gql("/graphql", `mutation($e:String!){ signUp(email:$e, password:"correct horse") { token account { id } } }`, map[string]any{"e": email}, "Cookie", cookie)
			u := &user{s: s, token: get(r.data(t), "signUp", "token").(string)}
			d := u.must(`{ projects { kind expiresAt shareToken `+modelFields+` } }`, nil)
			p := get(d, "projects", 0).(map[string]any)
			if len(get(d, "projects").([]any)) != 1 || get(p, "kind") != "ACCOUNT" || get(p, "expiresAt") != nil || get(p, "shareToken") != nil {
				t.Fatalf("after sign-up: %v", d)
			}
			for _, f := range []string{"id", "name", "slug", "tables", "relations", "operations", "views", "sdl"} {
				if !reflect.DeepEqual(p[f], before[f]) {
					t.Errorf("%s changed in the move:\nbefore %v\nafter  %v", f, before[f], p[f])
				}
			}
			path := strings.TrimPrefix(sp["runtimeUrl"].(string), s.base)
			s.gql(path, `{ products { total } }`, nil).refusal(t, 401, "UNAUTHENTICATED")
			u.must(`mutation { setPlan(plan: PROFESSIONAL) { plan } }`, nil)
			key := get(u.must(`mutation($p:ID!){ createApiKey(projectId:$p, name:"k", scope: RUNTIME) { value } }`, map[string]any{"p": pid}), "createApiKey", "value").(string)
			keyed := strings.SplitN(path, "?", 2)[0]
			s.gql(keyed, `{ products { total } }`, nil, "X-API-Key", key).data(t)

			// The session and the board session no longer reach it.
			if r := a.gql(`mutation($p:ID!){ createModellingTable(input:{projectId:$p, name:"Late"}) { id } }`, map[string]any{"p": pid}); r.errCode() != "NOT_FOUND" {
				t.Errorf("the assistant's session still edits it: %s", r.Raw)
			}
			if board != "" {
				if r := s.gql("/graphql", `query($id:ID){ project(id:$id) { id } }`, map[string]any{"id": pid}, "Cookie", board); r.errCode() != "NOT_FOUND" {
					t.Errorf("the board session alone still reads it: %s", r.Raw)
				}
				d := s.gql("/graphql", `{ projects { id kind } }`, nil, "Cookie", board, "Authorization", "Bearer "+u.token).data(t)
				if get(d, "projects", 0, "id") != pid || get(d, "projects", 0, "kind") != "ACCOUNT" {
					t.Errorf("projects of the signed-in board: %v", d)
				}
			}
			// Its session may make a new one.
			a.must(`mutation { createSessionProject { projectId } }`, nil)
			all = append(all, moved{u: u, sp: sp, path: keyed + "\x00" + key})
		})
	}
	// Past the old deadline and some sweeps, the moved projects live on.
	time.Sleep(time.Until(deadline.Add(600 * time.Millisecond)))
	for _, m := range all {
		pid := m.sp["projectId"].(string)
		if k := kinds(records(t, s.run.db, pid, m.sp["slug"].(string))); !k["project"] || k["expiry"] || k["adoption"] {
			t.Errorf("records of a moved project after its old deadline: %v", k)
		}
		path, key, _ := strings.Cut(m.path, "\x00")
		s.gql(path, `{ products { total } }`, nil, "X-API-Key", key).data(t)
		if d := m.u.must(`{ projects { id } }`, nil); get(d, "projects", 0, "id") != pid {
			t.Errorf("moved project gone: %v", d)
		}
	}
}

// TestReadmeAssistantCalls runs the GraphQL calls of the assistants' guide
// (docs/using/assistants.md, "Over GraphQL") as written, so the guide cannot drift from the schema:
// each is valid, and each but the relation (whose foreign key attribute
// the guide leaves out) succeeds.
func TestReadmeAssistantCalls(t *testing.T) {
	readme, err := os.ReadFile("../../docs/using/assistants.md")
	if err != nil {
		t.Fatal(err)
	}
	guide := string(readme)
	guide = guide[strings.Index(guide, "## Over GraphQL"):]
	guide = guide[strings.Index(guide, "```graphql\n")+len("```graphql\n"):]
	guide = guide[:strings.Index(guide, "```")]
	var calls []string
	for _, line := range strings.Split(guide, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "#"), line == "":
		case strings.HasPrefix(line, "mutation"), strings.HasPrefix(line, "{"):
			calls = append(calls, line)
		default:
			calls[len(calls)-1] += " " + line
		}
	}
	if len(calls) != 8 {
		t.Fatalf("the guide has %d calls: %q", len(calls), calls)
	}
	s := startServer(t)
	seedPool(t, s)
	a := &assistant{s: s}
	ids := map[string]string{}
	for _, call := range calls {
		for k, v := range ids {
			call = strings.ReplaceAll(call, k, v)
		}
		r := a.gql(call, nil)
		if strings.Contains(call, "createRelation") {
			if r.Status != 200 {
				t.Errorf("%s: %s", call, r.Raw)
			}
			continue
		}
		d := r.data(t)
		if id, ok := get(d, "createSessionProject", "projectId").(string); ok {
			ids["<projectId>"] = id
		}
		if id, ok := get(d, "createModellingTable", "id").(string); ok {
			ids["<tableId>"], ids["<categoryTableId>"], ids["<productTableId>"] = id, id, id
		}
	}
	if d := a.must(`{ sessionProject { operations { name } } }`, nil); !strings.Contains(fmt.Sprint(d), "products") {
		t.Fatalf("the guide's calls made no products operation: %v", d)
	}
}
