package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mockgql/mockgql/internal/testdata"
	"github.com/mockgql/mockgql/model"
)

// Tests of issue 20, findings 2, 7, 8 and 9, against a real node: a
// project's model has a bounded size on every kind of project, guest
// projects expire, adoption links per project are capped, adoption tokens
// stay out of the log, and slug moves are compare-and-swap.

// settableClock is a settable clock, test-only: tests move time instead of
// sleeping. It is safe for concurrent use.
type settableClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *settableClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Add moves the clock forward by d.
func (c *settableClock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// constant is a JSON string value of n bytes (quotes included).
func constant(n int) string { return `"` + strings.Repeat("x", n-2) + `"` }

const createConstant = `mutation($t:ID!,$n:String!,$v:JSON){ createModellingAttribute(input:{tableId:$t, name:$n, type: STRING,
	mappingType: CONSTANT, constantValue:$v}) { id } }`

// dbSize is the size of a node's bbolt file.
func dbSize(t *testing.T, s *server) int64 {
	t.Helper()
	fi, err := os.Stat(filepath.Join(s.data, "mockgql.db"))
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestGuestProjectModelBounded: finding 2's anonymous attack, edits of
// 900 KB constants on one guest project (62 grew the store by 212 MB; 8
// here, which would add at least 7 MB), is refused edit by edit
// (LIMIT_REACHED naming the 16 KiB bound) and stores nothing; filling the
// project with values under that bound stops at its 1 MiB record bound; the
// data directory stays a few MB (it grew 212 MB before).
func TestGuestProjectModelBounded(t *testing.T) {
	s := startServer(t)
	a := &assistant{s: s}
	gid := get(a.must(`mutation { createGuestProject(name: "Big") { projectId } }`, nil), "createGuestProject", "projectId")
	newTable := func(i int) string {
		t.Helper()
		return get(a.must(`mutation($p:ID!,$n:String!){ createModellingTable(input:{projectId:$p, name:$n}) { id } }`,
			map[string]any{"p": gid, "n": fmt.Sprintf("T%d", i)}), "createModellingTable", "id").(string)
	}
	tid := newTable(0)
	before := dbSize(t, s)
	big := json.RawMessage(constant(900 << 10))
	for i := range 8 {
		r := a.gql(createConstant, map[string]any{"t": tid, "n": fmt.Sprintf("c%d", i), "v": big})
		if r.errCode() != "LIMIT_REACHED" || !strings.Contains(string(r.Raw), "16 KiB") {
			t.Fatalf("edit %d of a 900 KB constant: want LIMIT_REACHED naming 16 KiB, got %d %s", i, r.Status, model200(r.Raw))
		}
	}
	aid := get(a.must(createConstant, map[string]any{"t": tid, "n": "small", "v": json.RawMessage(`1`)}), "createModellingAttribute", "id")
	r := s.gql("/graphql", `mutation($a:ID!,$v:JSON){ updateModellingAttribute(input:{attributeId:$a, constantValue:$v}) { id } }`,
		map[string]any{"a": aid, "v": big}, "Cookie", a.cookie)
	if r.errCode() != "LIMIT_REACHED" {
		t.Fatalf("update to a 900 KB constant: want LIMIT_REACHED, got %s", model200(r.Raw))
	}
	if grew := dbSize(t, s) - before; grew > 4<<20 {
		t.Fatalf("8 refused edits grew the store by %d bytes", grew)
	}

	// Values under the bound fill the project up to its record bound.
	value := json.RawMessage(constant(15 << 10))
	stored, refused := 0, ""
	for ti := 1; ti < 20 && refused == ""; ti++ {
		tid := newTable(ti)
		for i := range 30 {
			r := a.gql(createConstant, map[string]any{"t": tid, "n": fmt.Sprintf("c%d", i), "v": value})
			if r.errCode() != "" {
				refused = string(r.Raw)
				break
			}
			stored++
		}
	}
	if !strings.Contains(refused, "LIMIT_REACHED") || !strings.Contains(refused, "1 MiB") {
		t.Fatalf("after %d values of 15 KiB: want LIMIT_REACHED naming the 1 MiB bound, got %s", stored, model200([]byte(refused)))
	}
	if stored < 50 || stored > 70 {
		t.Fatalf("%d values of 15 KiB fit in a 1 MiB project", stored)
	}
	// The project still works: it can shrink, and small edits are not refused for the size it has.
	d := s.gql("/graphql", `query($p:ID!){ project(id:$p) { tables { id } } }`, map[string]any{"p": gid}, "Cookie", a.cookie).data(t)
	if n := len(get(d, "project", "tables").([]any)); n < 3 {
		t.Fatalf("tables: %d", n)
	}
	size := dbSize(t, s)
	t.Logf("store after filling a guest project to its bound: %d bytes (%d values of 15 KiB)", size, stored)
	if size > 24<<20 {
		t.Fatalf("the store of one bounded guest project is %d bytes", size)
	}
}

// model200 clips an answer for a failure message.
func model200(raw []byte) string {
	if len(raw) > 300 {
		return string(raw[:300]) + "…"
	}
	return string(raw)
}

// TestAccountProjectModelBounded: a STARTER account's 15 MiB constant
// (finding 2: a free account stored 16 MB) is refused, attributes per table
// of an account project are bounded (--model-attributes), and a 20-alias
// read of a project with 600 KiB of constants answers (finding 2: with a
// 16 MB constant it ran the 30 s management timeout).
func TestAccountProjectModelBounded(t *testing.T) {
	s := startServer(t, func(c *serveConfig) { c.Model.Attributes = 40 })
	u := s.signUp("bounded@example.com")
	pid := get(u.must(`mutation { createProject(name: "Bounded") { id } }`, nil), "createProject", "id")
	tid := get(u.must(`mutation($p:ID!){ createModellingTable(input:{projectId:$p, name:"Thing"}) { id } }`, map[string]any{"p": pid}), "createModellingTable", "id")
	r := u.gql(createConstant, map[string]any{"t": tid, "n": "huge", "v": json.RawMessage(constant(15 << 20))})
	if r.errCode() != "LIMIT_REACHED" || !strings.Contains(string(r.Raw), "16 KiB") {
		t.Fatalf("a 15 MiB constant: want LIMIT_REACHED naming 16 KiB, got %d %s", r.Status, model200(r.Raw))
	}
	r = u.gql(`mutation($t:ID!,$v:String){ createModellingAttribute(input:{tableId:$t, name:"comp", type: STRING,
		mappingType: COMPUTED, computedExpression:$v}) { id } }`, map[string]any{"t": tid, "v": strings.Repeat("a+", 10<<10)})
	if r.errCode() != "LIMIT_REACHED" {
		t.Fatalf("a 20 KiB computed expression: want LIMIT_REACHED, got %s", model200(r.Raw))
	}
	value := json.RawMessage(constant(15 << 10))
	for i := range 40 {
		u.must(createConstant, map[string]any{"t": tid, "n": fmt.Sprintf("c%d", i), "v": value})
	}
	r = u.gql(createConstant, map[string]any{"t": tid, "n": "c40", "v": json.RawMessage(`1`)})
	if r.errCode() != "LIMIT_REACHED" || !strings.Contains(string(r.Raw), "40 attributes") {
		t.Fatalf("attribute 41 of a table: want LIMIT_REACHED naming 40 attributes, got %s", model200(r.Raw))
	}
	// The finding's read, 100 aliases of project(id), is over the /graphql
	// cost budget now (project costs 2); the most it admits, 50 aliases
	// of the full project, must answer.
	aliases := func(n int) string {
		var q strings.Builder
		q.WriteString("query($p:ID!){")
		for i := range n {
			fmt.Fprintf(&q, " a%d: project(id:$p) { name }", i)
		}
		q.WriteString(" }")
		return q.String()
	}
	if r := u.gql(aliases(100), map[string]any{"p": pid}); r.Status != 400 || !strings.Contains(string(r.Raw), "costs more than the limit") {
		t.Fatalf("100 aliased reads: want the cost budget's 400, got %d %s", r.Status, model200(r.Raw))
	}
	began := time.Now()
	d := u.must(aliases(50), map[string]any{"p": pid})
	t.Logf("50 aliased reads of a project of 40 constants of 15 KiB: %v", time.Since(began))
	if get(d, "a49", "name") != "Bounded" {
		t.Fatalf("aliased read: %v", get(d, "a49", "name"))
	}
}

// TestGuestProjectExpires: a guest project lives --guest-ttl after its last
// use (30 days), each use moving its expiry; then the sweeper deletes it
// with all its records. The clock is moved, not waited for.
func TestGuestProjectExpires(t *testing.T) {
	clock := &settableClock{now: time.Now().UTC()}
	s := startServer(t, func(c *serveConfig) { c.clock, c.SweepEvery = clock, 20*time.Millisecond })
	seedPool(t, s)
	a := &assistant{s: s}
	g := get(a.must(`mutation { createGuestProject(name: "Short-lived") { projectId slug runtimeUrl } }`, nil), "createGuestProject").(map[string]any)
	gid, slug := g["projectId"].(string), g["slug"].(string)
	tid := get(a.must(`mutation($p:ID!){ createModellingTable(input:{projectId:$p, name:"Thing", source:{importCode:"categories"}}) { id } }`, map[string]any{"p": gid}), "createModellingTable", "id")
	a.must(`mutation($t:ID!){ createModellingAttribute(input:{tableId:$t, name:"title", type: STRING, mappingType: SOURCE, sourceMapping:{path:"title"}}) { id } }`, map[string]any{"t": tid})
	a.must(`mutation($p:ID!){ generateDefaultGqlOperations(projectId:$p) { name } }`, map[string]any{"p": gid})
	path := strings.TrimPrefix(g["runtimeUrl"].(string), s.base)
	s.gql(path, `{ things { total } }`, nil).data(t)
	expiresAt := func() time.Time {
		t.Helper()
		d := s.gql("/graphql", `query($p:ID!){ project(id:$p) { expiresAt } }`, map[string]any{"p": gid}, "Cookie", a.cookie).data(t)
		e, err := time.Parse(time.RFC3339, fmt.Sprint(get(d, "project", "expiresAt")))
		if err != nil {
			t.Fatalf("a guest project's expiresAt: %v (%v)", get(d, "project", "expiresAt"), err)
		}
		return e
	}
	if e := expiresAt(); e.Sub(clock.Now()) < 29*24*time.Hour || e.Sub(clock.Now()) > 30*24*time.Hour+time.Minute {
		t.Fatalf("a new guest project expires at %v, now is %v; want 30 days on", e, clock.Now())
	}

	clock.Add(20 * 24 * time.Hour) // used on day 20: the expiry moves to day 50
	a.must(`mutation($t:ID!){ createModellingAttribute(input:{tableId:$t, name:"id", type: ID, mappingType: SOURCE, sourceMapping:{path:"id"}}) { id } }`, map[string]any{"t": tid})
	waitFor(t, 10*time.Second, "the expiry to move after a use", func() bool { return expiresAt().Sub(clock.Now()) > 29*24*time.Hour })

	clock.Add(25 * 24 * time.Hour) // day 45: alive (it was 30 days from creation)
	s.gql(path, `{ things { total } }`, nil).data(t)
	if len(records(t, s.run.db, gid, slug)) == 0 {
		t.Fatal("a guest project used 25 days ago was deleted")
	}
	clock.Add(31 * 24 * time.Hour) // 31 days after its last use
	waitFor(t, 10*time.Second, "the sweeper to delete the guest project", func() bool { return len(records(t, s.run.db, gid, slug)) == 0 })
	s.gql(path, `{ things { total } }`, nil).refusal(t, 404, "PROJECT_NOT_FOUND")
}

// TestAdoptionLinksCapped: finding 7. A session project keeps its newest 5
// adoption links: making 60 leaves the project's record the size it had at
// 5 and 5 adoption records; the oldest link no longer opens the board, the
// newest does. The log and /metrics never hold an adoption token (finding 8).
func TestAdoptionLinksCapped(t *testing.T) {
	var log testdata.SyncBuffer
	s := startServerLogging(t, &log)
	a := &assistant{s: s}
	sp := get(a.must(`mutation { createSessionProject(name: "Links") { projectId adoptionUrl } }`, nil), "createSessionProject").(map[string]any)
	pid := sp["projectId"].(string)
	urls := []string{sp["adoptionUrl"].(string)}
	newLink := func() {
		t.Helper()
		d := a.must(`mutation($p:ID!){ createAdoptionLink(projectId:$p) { adoptionUrl } }`, map[string]any{"p": pid})
		urls = append(urls, get(d, "createAdoptionLink", "adoptionUrl").(string))
	}
	recordSize := func() int {
		t.Helper()
		b, err := s.run.db.Get("project", pid)
		if err != nil || b == nil {
			t.Fatalf("project record: %v", err)
		}
		return len(b)
	}
	for len(urls) < 5 {
		newLink()
	}
	at5 := recordSize()
	for len(urls) < 60 {
		newLink()
	}
	if at60 := recordSize(); at60 != at5 {
		t.Fatalf("the project record grew from %d bytes at 5 links to %d at 60", at5, at60)
	}
	n := 0
	_ = s.run.db.Scan("adoption", "", func(_ string, v []byte) error {
		if strings.Contains(string(v), pid) {
			n++
		}
		return nil
	})
	if n != 5 {
		t.Fatalf("%d adoption records of one project, want 5", n)
	}
	if resp, _ := adopt(t, urls[0]); resp.StatusCode != 410 {
		t.Fatalf("the oldest of 60 links: %d, want 410", resp.StatusCode)
	}
	if resp, cookie := adopt(t, urls[len(urls)-1]); resp.StatusCode != 302 || cookie == "" {
		t.Fatalf("the newest link: %d %q", resp.StatusCode, cookie)
	}
	metrics := s.do("GET", "/metrics", nil)
	for _, u := range []string{urls[0], urls[len(urls)-1]} {
		token := u[strings.LastIndex(u, "/")+1:]
		if !strings.HasPrefix(token, "adt_") {
			t.Fatalf("not an adoption token: %q", token)
		}
		if strings.Contains(log.String(), token) || strings.Contains(string(metrics.Raw), token) {
			t.Fatalf("the adoption token %s… is in the log or the metrics", token[:8])
		}
	}
	if !strings.Contains(log.String(), `/auth/adopt/[redacted]`) {
		t.Fatalf("the adoption requests are not in the access log")
	}
}

// TestSlugMovesConcurrently: finding 9. Two concurrent moves of one
// project's slug: one wins; the project answers to the winner only; the
// other slug resolves to nothing and another project can take it.
func TestSlugMovesConcurrently(t *testing.T) {
	s := startServer(t)
	u := s.signUp("slugs@example.com")
	u.must(`mutation { setPlan(plan: PROFESSIONAL) { plan } }`, nil)
	pid := get(u.must(`mutation { createProject(name: "Mover", slug: "mover-0") { id } }`, nil), "createProject", "id")
	move := `mutation($p:ID!,$s:String!){ updateProject(projectId:$p, slug:$s) { slug } }`
	for round := range 12 {
		x, y := fmt.Sprintf("mover-%d-x", round), fmt.Sprintf("mover-%d-y", round)
		var wg sync.WaitGroup
		answers := make([]response, 2)
		for i, slug := range []string{x, y} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				answers[i], _ = s.try("POST", "/graphql", mustJSON(map[string]any{"query": move, "variables": map[string]any{"p": pid, "s": slug}}),
					"Authorization", "Bearer "+u.token)
			}()
		}
		wg.Wait()
		for _, r := range answers {
			if c := r.errCode(); r.Status != 200 || (c != "" && c != "CONFLICT") {
				t.Fatalf("round %d: a move answered %d %s", round, r.Status, model200(r.Raw))
			}
		}
		held := get(u.must(`query($p:ID!){ project(id:$p) { slug } }`, map[string]any{"p": pid}), "project", "slug")
		lost := x
		if held == x {
			lost = y
		} else if held != y {
			t.Fatalf("round %d: the project holds %v, neither %s nor %s", round, held, x, y)
		}
		if d := u.gql(`query($s:String){ project(slug:$s) { id } }`, map[string]any{"s": lost}); get(d.JSON, "data", "project") != nil {
			t.Fatalf("round %d: project(slug:%q) resolves to %v; the project holds %v", round, lost, get(d.JSON, "data", "project"), held)
		}
		s.gql("/mock/"+lost+"/graphql", `{ __typename }`, nil).refusal(t, 404, "PROJECT_NOT_FOUND")
		r := u.gql(`mutation($s:String!){ createProject(name: "Taker", slug:$s) { id slug } }`, map[string]any{"s": lost})
		if r.errCode() != "" {
			t.Fatalf("round %d: the slug %s the move lost cannot be taken: %s", round, lost, model200(r.Raw))
		}
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// mountTmpfs mounts a tmpfs of size bytes on a new folder and unmounts it
// when the test ends (register it before starting a server on it, so the
// server stops first). It skips the test where mounting is not allowed
// (not root, no CAP_SYS_ADMIN), unless MGQ_REQUIRE_TOOLS=1.
func mountTmpfs(t *testing.T, size int) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d", size)); err != nil {
		if os.Getenv("MGQ_REQUIRE_TOOLS") == "1" {
			t.Fatalf("mounting a tmpfs for the full-disk test: %v (MGQ_REQUIRE_TOOLS=1)", err)
		}
		t.Skipf("cannot mount a tmpfs here: %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

// fillDisk writes a file into dir until the file system is full and
// returns its path.
func fillDisk(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling the disk: %v", err)
			}
			break
		}
	}
	small := make([]byte, 512) // the last partial chunk's worth
	for {
		if _, err := f.Write(small); err != nil {
			break
		}
	}
	return path
}

// TestStorageFull: finding 11. On a full disk, writes are refused with
// STORAGE_FULL (HTTP 507 on the error body routes), not "the service is
// moving … between nodes"; the log says so once a minute per message with
// the number it suppressed, not once a write; what was stored stays, and
// writes work again once there is room.
func TestStorageFull(t *testing.T) {
	dir := mountTmpfs(t, 32<<20)
	var log testdata.SyncBuffer
	s := startServerLogging(t, &log, func(c *serveConfig) { c.Data = dir })
	u := s.signUp("full@example.com")
	u.importVia("before", "json", bigDataset(1000), "").data(t)
	filler := fillDisk(t, dir)

	content := bigDataset(4000) // about 400 KB: more than a full disk has
	for i := range 30 {
		r := u.importVia(fmt.Sprintf("during%d", i), "json", content, "")
		if c := r.errCode(); c != "STORAGE_FULL" {
			t.Fatalf("import %d on a full disk: want STORAGE_FULL, got %q: %s", i, c, model200(r.Raw))
		}
	}
	r := u.gql(`mutation { createProject(name: "Full") { id } }`, nil)
	if c := r.errCode(); c != "STORAGE_FULL" && c != "" {
		t.Fatalf("createProject on a full disk: %q %s", c, model200(r.Raw))
	}
	a := &assistant{s: s}
	a.gql(`mutation { createGuestProject(name: "Full") { projectId } }`, nil) // whatever it answers, it answers
	lines, full, suppressedNoted := 0, 0, false
	for _, l := range strings.Split(log.String(), "\n") {
		if strings.Contains(l, `"level":"INFO"`) || l == "" {
			continue
		}
		lines++
		if strings.Contains(l, "STORAGE_FULL") || strings.Contains(l, "storage is full") {
			full++
			suppressedNoted = suppressedNoted || strings.Contains(l, `"suppressed"`)
		}
		if strings.Contains(l, "moving") {
			t.Fatalf("a full disk logged as moving data: %s", l)
		}
	}
	t.Logf("%d warning and error lines, %d about the full disk, for 30+ refused writes", lines, full)
	if testing.Verbose() {
		for _, l := range strings.Split(log.String(), "\n") {
			if !strings.Contains(l, `"level":"INFO"`) {
				t.Log(l)
			}
		}
	}
	if full == 0 || !suppressedNoted || lines > 12 {
		t.Fatalf("want a few rate-limited lines about the full disk, got %d lines (%d about it):\n%s", lines, full, log.String())
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	u.importVia("after", "json", content, "").data(t)
	d := u.must(`{ dataSources { importCode } }`, nil)
	codes := fmt.Sprint(get(d, "dataSources"))
	if !strings.Contains(codes, "before") || !strings.Contains(codes, "after") || strings.Contains(codes, "during") {
		t.Fatalf("data sources after the disk had room again: %s", codes)
	}
}

// bigDataset is a JSON dataset of n records of about 100 bytes.
func bigDataset(n int) string {
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"item %d","note":"%s"}`, i, i, strings.Repeat("n", 60))
	}
	b.WriteString("]")
	return b.String()
}

// TestDemoProjectIsKept: the node's demo guest project does not expire
// (--guest-ttl is for visitors' guest projects), also after the sweeper's
// start-up pass over stored guest projects.
func TestDemoProjectIsKept(t *testing.T) {
	s := startServer(t)
	if err := s.run.seedDemo(); err != nil {
		t.Fatal(err)
	}
	pr, err := s.run.svc.Management.Project(context.Background(), model.Principal{System: true}, "", "demo")
	if err != nil {
		t.Fatal(err)
	}
	if !pr.ExpiresAt.IsZero() {
		t.Fatalf("the demo project expires at %v", pr.ExpiresAt)
	}
	if k := kinds(records(t, s.run.db, pr.ID, pr.Slug)); k["expiry"] {
		t.Fatalf("the demo project has an expiry index entry: %v", records(t, s.run.db, pr.ID, pr.Slug))
	}
}
