package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mockgql/mockgql/internal/testdata"
)

// storeKeysWith lists the keys of every bucket of a stopped node's bbolt
// file that contain one of the needles.
func storeKeysWith(t *testing.T, path string, needles ...string) []string {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var found []string
	err = db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(bucket []byte, b *bolt.Bucket) error {
			return b.ForEach(func(k, _ []byte) error {
				for _, n := range needles {
					if bytes.Contains(k, []byte(n)) {
						found = append(found, string(bucket)+"/"+string(k[:min(len(k), 80)]))
					}
				}
				return nil
			})
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// TestAbuseState replays the state findings of issue 11 against a real
// mockgql process, each with the bounded answer it must get:
//   - lookups of unknown project IDs, slugs, login e-mails and session
//     cookies write nothing (the process is stopped and its bbolt file
//     searched for every key they named);
//   - a 40 KB project ID is BAD_USER_INPUT naming the limit, at once, not
//     "UNAVAILABLE … moving", and the log stays small;
//   - a planted mgq_session value is ignored and a new session minted;
//   - a 4,000-level OpenAPI document is BAD_USER_INPUT naming the limit;
//   - a 40 KB project name, a 100 KB attribute name: BAD_USER_INPUT;
//   - maxActors: 0 is refused; another account's project ID is not named
//     in NOT_FOUND; signUp of a taken e-mail does not say it exists.
func TestAbuseState(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	began := time.Now()
	data := t.TempDir()
	var log testdata.SyncBuffer
	p := startProcLogging(t, data, freePort(t), &log)
	const marker = "zz9qabuse"

	// A session the server minted, to reach /public-graphql's project
	// lookups as an assistant would.
	r := p.gql("/public-graphql", `mutation { createSessionProject(name: "mine") { projectId } }`, nil)
	cookie := sessionCookie(t, r)

	// Lookups of things that do not exist.
	logBefore := log.Len()
	for i := range 30 {
		id := fmt.Sprintf("p%s%04d%s", marker, i, strings.Repeat("x", 40))
		r := p.gql("/public-graphql", `query($p: ID!) { runtimeList(projectId: $p, operation: "products") { total } }`,
			map[string]any{"p": id}, "Cookie", cookie)
		if code := r.errCode(); code != "NOT_FOUND" && code != "BAD_USER_INPUT" && code != "FORBIDDEN" {
			t.Fatalf("unknown project ID: %s", r.Raw)
		}
		slug := fmt.Sprintf("%s-%d", marker, i)
		if r := p.do(http.MethodPost, "/mock/"+slug+"/graphql", []byte(`{"query":"{ __typename }"}`)); r.Status != 404 {
			t.Fatalf("unknown slug: %d %s", r.Status, r.Raw)
		}
		if i%10 != 0 {
			continue // a login costs a bcrypt check (the same for unknown e-mails)
		}
		email := fmt.Sprintf("%s%d@example.com", marker, i)
		if r := p.gql("/graphql", `mutation($e: String!) { login(email: $e, password: "wrong password") { token } }`, map[string]any{"e": email}); r.errCode() != "UNAUTHENTICATED" {
			t.Fatalf("login of an unknown e-mail: %s", r.Raw)
		}
	}
	t.Logf("lookups done after %v", time.Since(began))
	// Over-long IDs: refused before any grain, naming the limit.
	huge := "p" + marker + strings.Repeat("y", 40<<10)
	for _, q := range []string{
		`query($p: ID!) { runtimeList(projectId: $p, operation: "products") { total } }`,
		`mutation($p: ID!) { createModellingTable(input: {projectId: $p, name: "T"}) { id } }`,
	} {
		start := time.Now()
		r := p.gql("/public-graphql", q, map[string]any{"p": huge}, "Cookie", cookie)
		msg := fmt.Sprint(get(r.JSON, "errors", 0, "message"))
		if r.errCode() != "BAD_USER_INPUT" || !strings.Contains(msg, "limit is 64") || len(r.Raw) > 2000 {
			t.Errorf("a 40 KB project ID: %.300s; want BAD_USER_INPUT naming the limit, short", r.Raw)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("a 40 KB project ID took %v", d)
		}
	}
	// Planted session cookies: ignored, a fresh session minted.
	var planted []string
	for i := range 5 {
		forged := fmt.Sprintf("s%s%017d", marker, i)
		h := sha256.Sum256([]byte(forged))
		planted = append(planted, hex.EncodeToString(h[:]))
		r := p.gql("/public-graphql", `mutation { createSessionProject(name: "victim") { projectId } }`, nil, "Cookie", "mgq_session="+forged)
		if got := sessionCookie(t, r); got == "mgq_session="+forged {
			t.Fatalf("the planted session %q was kept", forged)
		}
	}
	if grew := log.Len() - logBefore; grew > 64<<10 {
		t.Errorf("the lookups logged %d bytes; want under 64 KB:\n%.2000s", grew, log.String()[logBefore:])
	}

	t.Logf("sessions done after %v", time.Since(began))
	// Account-side inputs.
	ann, bob := p.signUp("ann@example.com"), p.signUp("bob@example.com")
	ann.must(`mutation { setPlan(plan: PROFESSIONAL) { plan } }`, nil)
	pid := get(ann.must(`mutation { createProject(name: "Shop") { id } }`, nil), "createProject", "id").(string)
	refusals := []struct {
		name, query string
		vars        map[string]any
		code, says  string
	}{
		{"40 KB project name", `mutation($n: String!) { createProject(name: $n) { id } }`, map[string]any{"n": strings.Repeat("n", 40<<10)}, "BAD_USER_INPUT", "limit is 100"},
		{"100 KB table name", `mutation($p: ID!, $n: String!) { createModellingTable(input: {projectId: $p, name: $n}) { id } }`, map[string]any{"p": pid, "n": strings.Repeat("T", 100<<10)}, "BAD_USER_INPUT", "limit is 64"},
		{"maxActors 0", `mutation($p: ID!) { createApiKey(projectId: $p, name: "k", scope: RUNTIME, maxActors: 0) { key { id } } }`, map[string]any{"p": pid}, "BAD_USER_INPUT", "maxActors is 1 to 1000"},
		{"4,000-level OpenAPI", `mutation($p: ID!, $d: String!) { importOpenApi(projectId: $p, document: $d) { id } }`, map[string]any{"p": pid, "d": deepOpenAPI(4000)}, "BAD_USER_INPUT", "nests deeper than 128"},
	}
	for _, rf := range refusals {
		start := time.Now()
		r := ann.gql(rf.query, rf.vars)
		msg := fmt.Sprint(get(r.JSON, "errors", 0, "message"))
		if r.errCode() != rf.code || !strings.Contains(msg, rf.says) || len(r.Raw) > 2000 {
			t.Errorf("%s: %.300s; want %s saying %q", rf.name, r.Raw, rf.code, rf.says)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s took %v", rf.name, d)
		}
	}
	if r := bob.gql(`query($p: ID) { project(id: $p) { id } }`, map[string]any{"p": pid}); r.errCode() != "NOT_FOUND" || strings.Contains(string(r.Raw), pid) {
		t.Errorf("another account's project: %s; want NOT_FOUND without its ID", r.Raw)
	}
	r = p.gql("/graphql", `mutation { signUp(email: "ann@example.com", password: "another password") { token } }`, nil)
	if msg := fmt.Sprint(get(r.JSON, "errors", 0, "message")); r.errCode() != "CONFLICT" || strings.Contains(msg, "exists") || strings.Contains(msg, "ann@") {
		t.Errorf("signUp of a taken e-mail: %s", r.Raw)
	}

	t.Logf("account inputs done after %v", time.Since(began))
	// Stop the node and look for anything the lookups wrote.
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	if _, err := p.cmd.Process.Wait(); err != nil {
		t.Fatal(err)
	}
	if found := storeKeysWith(t, filepath.Join(data, "mockgql.db"), append(planted, marker)...); len(found) > 0 {
		t.Errorf("lookups of things that do not exist wrote %d records, e.g. %q", len(found), found[:min(len(found), 5)])
	}
}

// sessionCookie is the mgq_session cookie an answer set ("mgq_session=…").
func sessionCookie(t *testing.T, r response) string {
	t.Helper()
	for _, c := range r.Header.Values("Set-Cookie") {
		if strings.HasPrefix(c, "mgq_session=") {
			v, _, _ := strings.Cut(c, ";")
			return v
		}
	}
	t.Fatalf("no mgq_session cookie set: %d %s", r.Status, r.Raw)
	return ""
}

// deepOpenAPI is an OpenAPI document whose one schema nests levels objects.
func deepOpenAPI(levels int) string {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"deep","version":"1"},"paths":{},"components":{"schemas":{"Deep":`)
	for range levels {
		b.WriteString(`{"type":"object","properties":{"a":`)
	}
	b.WriteString(`{"type":"string"}` + strings.Repeat("}}", levels) + `}}}`)
	return b.String()
}
