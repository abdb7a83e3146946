package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary act as a mockgql process for the crash
// tests: with MGQ_TEST_CHILD set it runs `mockgql serve` with the args in
// MGQ_TEST_ARGS instead of the tests.
func TestMain(m *testing.M) {
	if os.Getenv("MGQ_TEST_CHILD") == "1" {
		testChild = childSettings
		if err := serve(strings.Fields(os.Getenv("MGQ_TEST_ARGS"))); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	closeBrowser()
	removeClocks()
	os.Exit(code)
}

// server is a real node (bbolt in a temp dir, protoactor cluster of one,
// HTTP on a free loopback port) for end-to-end tests.
type server struct {
	t    testing.TB
	base string
	run  *running
	data string
}

// startServer starts a node; edit may change the settings. It stops when the test ends.
// Its test must not call t.Parallel: protoactor-go writes process-wide
// globals (gRPC's logger) when a node starts, which races under -race
// with another in-process node running. Tests whose nodes are processes
// (startProc) run in parallel instead.
func startServer(t testing.TB, edit ...func(*serveConfig)) *server {
	t.Helper()
	c := testServeConfig(t, edit...)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	return startServerLog(t, c, log)
}

// testServeConfig is the settings of a test node, changed by edit.
func testServeConfig(t testing.TB, edit ...func(*serveConfig)) serveConfig {
	c := serveConfig{HTTP: "127.0.0.1:0", Data: t.TempDir(), NoDemo: true, MaxDatasetBytes: 1 << 30,
		QueryTimeout: 5 * time.Second, Node: "test", bcryptCost: 4,
		IPLimit: 0, ActorIssueLimit: 10, GuestDailyCalls: 500, SessionDailyCalls: 100, ActorIdle: 15 * time.Minute,
		QuotaStarter: 1000, QuotaPro: 100000, QuotaTeam: 1000000,
		SessionTTL: 24 * time.Hour, AdoptionTTL: 15 * time.Minute, SweepEvery: 10 * time.Second,
		PoolCurators: list{poolCurator}, clock: clockOf(t)}
	for _, e := range edit {
		e(&c)
	}
	return c
}

// startServerLogging is startServer whose log (info and above, JSON lines)
// goes to w.
func startServerLogging(t testing.TB, w io.Writer, edit ...func(*serveConfig)) *server {
	t.Helper()
	c := testServeConfig(t, edit...)
	return startServerLog(t, c, slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo})))
}

func startServerLog(t testing.TB, c serveConfig, log *slog.Logger) *server {
	t.Helper()
	run, err := start(c, log)
	if err != nil {
		t.Fatalf("start server: %v", err)
	}
	t.Cleanup(func() { run.stop(false) })
	return &server{t: t, base: run.srv.BaseURL(), run: run, data: c.Data}
}

// response is an HTTP answer with its body decoded as JSON (if it is JSON).
type response struct {
	Status int
	Header http.Header
	Raw    []byte
	JSON   map[string]any
}

// do sends a request; headers alternate name, value. It fails the test
// when the server cannot be reached.
func (s *server) do(method, path string, body []byte, headers ...string) response {
	s.t.Helper()
	r, err := s.try(method, path, body, headers...)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	return r
}

// try is do that returns the transport error instead of failing (safe to
// call from other goroutines).
func (s *server) try(method, path string, body []byte, headers ...string) (response, error) {
	return s.tryWithin(0, method, path, body, headers...)
}

// tryWithin is try with a time limit (0: none).
func (s *server) tryWithin(within time.Duration, method, path string, body []byte, headers ...string) (response, error) {
	req, err := http.NewRequest(method, s.base+path, bytes.NewReader(body))
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := (&http.Client{Timeout: within}).Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	r := response{Status: resp.StatusCode, Header: resp.Header, Raw: raw}
	_ = json.Unmarshal(raw, &r.JSON)
	return r, err
}

// gql posts a GraphQL request to path.
func (s *server) gql(path, query string, vars map[string]any, headers ...string) response {
	s.t.Helper()
	b, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	return s.do(http.MethodPost, path, b, headers...)
}

// data returns the GraphQL data of a 200 answer, failing on errors.
func (r response) data(t testing.TB) map[string]any {
	t.Helper()
	if r.Status != 200 || r.JSON["errors"] != nil {
		t.Fatalf("want 200 without errors, got %d: %s", r.Status, r.Raw)
	}
	d, _ := r.JSON["data"].(map[string]any)
	return d
}

// errCode returns extensions.code of the first GraphQL error.
func (r response) errCode() string {
	errs, _ := r.JSON["errors"].([]any)
	if len(errs) == 0 {
		return ""
	}
	e, _ := errs[0].(map[string]any)
	ext, _ := e["extensions"].(map[string]any)
	code, _ := ext["code"].(string)
	return code
}

// refusal checks an HTTP refusal's status and error body code.
func (r response) refusal(t testing.TB, status int, code string) {
	t.Helper()
	if r.Status != status || r.JSON["code"] != code || r.JSON["message"] != code {
		t.Fatalf("want %d %s, got %d: %s", status, code, r.Status, r.Raw)
	}
	for _, f := range []string{"statusCode", "path", "timestamp"} {
		if _, ok := r.JSON[f]; !ok {
			t.Fatalf("error body lacks %s: %s", f, r.Raw)
		}
	}
}

// get walks a decoded JSON value by keys and indexes: get(v, "a", 0, "b").
func get(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

// user is a signed-up account owner.
type user struct {
	s     *server
	token string
	email string
}

// signUp creates an account and returns its owner.
func (s *server) signUp(email string) *user {
	s.t.Helper()
	r := s.gql("/graphql", `mutation($e:String!){ signUp(email:$e, password:"correct horse", name:"Test") { token user { id } account { id plan } } }`,
		map[string]any{"e": email})
	d := r.data(s.t)
	return &user{s: s, token: get(d, "signUp", "token").(string), email: email}
}

// on returns the user talking to another node.
func (u *user) on(s *server) *user {
	c := *u
	c.s = s
	return &c
}

// gql runs a management request as this user.
func (u *user) gql(query string, vars map[string]any) response {
	u.s.t.Helper()
	return u.s.gql("/graphql", query, vars, "Authorization", "Bearer "+u.token)
}

// must runs a management request and returns its data, failing on errors.
func (u *user) must(query string, vars map[string]any) map[string]any {
	u.s.t.Helper()
	return u.gql(query, vars).data(u.s.t)
}

// clearOfWindowEdge makes sure at least need is left in the current
// fixed window of the given length (a UTC minute or day) of the test's
// servers, so a test that counts against a fixed-window limit cannot
// straddle a reset. A minute window's edge is skipped by moving the
// test's clock past it (advance; see testClock), which is what waiting
// would do to the servers, without the wait. A day's edge is waited for:
// tests compare day windows with the real date, and they meet the edge
// only in the last minutes before midnight UTC.
func clearOfWindowEdge(t testing.TB, window, need time.Duration) {
	t.Helper()
	now := testNow(t).UTC()
	left := now.Truncate(window).Add(window).Sub(now)
	if left >= need {
		return
	}
	if window <= time.Hour {
		advance(t, left+50*time.Millisecond)
		return
	}
	if left > 2*time.Minute {
		t.Skipf("%s left before the %s window resets; rerun later", left, window)
	}
	time.Sleep(left + 50*time.Millisecond)
}

// poolCurator is the user whose uploads go to the curated pool every
// session and guest sees (--pool-curators) on the test servers.
const poolCurator = "curator@example.com"

// curator signs poolCurator up, or in when a node of the cluster has it.
func (s *server) curator() *user {
	s.t.Helper()
	q := `mutation($e:String!){ signUp(email:$e, password:"correct horse") { token } }`
	r := s.gql("/graphql", q, map[string]any{"e": poolCurator})
	if r.errCode() == "CONFLICT" {
		r = s.gql("/graphql", `mutation($e:String!){ login(email:$e, password:"correct horse") { token } }`, map[string]any{"e": poolCurator})
	}
	d := r.data(s.t)
	tok, _ := get(d, "signUp", "token").(string)
	if tok == "" {
		tok, _ = get(d, "login", "token").(string)
	}
	return &user{s: s, token: tok, email: poolCurator}
}
