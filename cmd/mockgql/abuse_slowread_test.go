package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stuckReader sends a runtime request over a raw TCP connection with a
// tiny receive buffer, reads the answer's status line and then stops
// reading: a slow client whose 200 answer is being written. Another
// request's execution can take the budget first (then the answer is a
// 503): it tries again. Close makes it go away.
func stuckReader(t *testing.T, p *proc, path string, body []byte, headers ...string) net.Conn {
	t.Helper()
	for attempt := 0; ; attempt++ {
		conn := dialTinyWindow(t, strings.TrimPrefix(p.base, "http://"))
		var req strings.Builder
		fmt.Fprintf(&req, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n",
			path, strings.TrimPrefix(p.base, "http://"), len(body))
		for i := 0; i+1 < len(headers); i += 2 {
			fmt.Fprintf(&req, "%s: %s\r\n", headers[i], headers[i+1])
		}
		req.WriteString("\r\n")
		if _, err := conn.Write(append([]byte(req.String()), body...)); err != nil {
			t.Fatal(err)
		}
		_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
		status, err := bufio.NewReaderSize(conn, 16).ReadString('\n')
		if err != nil {
			t.Fatalf("a slow reader's status line: %v", err)
		}
		if strings.HasPrefix(status, "HTTP/1.1 200 ") {
			return conn
		}
		conn.Close()
		if attempt == 10 {
			t.Fatalf("a slow reader's request: %q", status)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// dialTinyWindow connects to addr with a 4 KB receive buffer, set before
// the connection is made so the window the server sees stays small.
func dialTinyWindow(t *testing.T, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		if err != nil {
			return err
		}
		return serr
	}}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// bigAnswer is a request whose answer is about 6.4 MB, and the credential
// it goes with.
type bigAnswer struct {
	path    string
	body    []byte
	headers []string
}

// TestAbuseSlowReadersHoldTheBudget: answers being written to clients that
// stopped reading keep their bytes of --response-budget-mb until they are
// written or the connection is gone, so while two 6.4 MB answers are stuck
// in a 16 MB budget a third is refused 503 UNAVAILABLE (small answers
// still pass); once the readers go away, or stay idle past --body-timeout
// (the connection is then closed), large answers are served again. So on
// the runtime and on /graphql. The bytes used to go back to the budget
// before the write, so any number of stuck readers could each hold an
// answer beyond it.
func TestAbuseSlowReadersHoldTheBudget(t *testing.T) {
	// The 25 dataSources of the management answer are over its cost
	// budget (abuse_budget_test.go), which is not what this test is about.
	p := abuseProc(t, "--max-response-bytes", "8000000", "--response-budget-mb", "16", "--body-timeout", "10s", "--max-management-cost", "-1",
		"--model-value-bytes", "300000")
	sh := newShop(t, p.server, "slow@example.com", "slow")
	t.Parallel() // its node is a process: see startProc
	sh.owner.must(`mutation($t:ID!,$v:JSON){ createModellingAttribute(input:{tableId:$t, name:"blob", type:STRING, mappingType: CONSTANT, constantValue:$v}) { id } }`,
		map[string]any{"t": sh.tables["Product"], "v": strings.Repeat("x", 200<<10)})
	docs := strings.Repeat(`{"id":1,"text":"`+strings.Repeat("y", 10<<10)+`"}`+"\n", 25)
	if r := p.do("POST", "/datasets/slowdocs?format=ndjson", []byte(docs), "Authorization", "Bearer "+sh.owner.token); r.Status != 200 {
		t.Fatalf("upload: %d %s", r.Status, r.Raw)
	}
	runtime, _ := json.Marshal(map[string]any{"query": `{` + repeated(8, ` a%d: products { items { blob } }`) + `}`})
	samples, _ := json.Marshal(map[string]any{"query": `{` + repeated(25, ` a%d: dataSources { sampleDocuments(limit: 50) }`) + `}`})
	for name, a := range map[string]bigAnswer{
		"runtime":        {sh.runtime, runtime, []string{"X-API-Key", sh.fullKey}},
		"management API": {"/graphql", samples, []string{"Authorization", "Bearer " + sh.owner.token}},
	} {
		t.Run(name, func(t *testing.T) { slowReaders(t, p, sh, a) })
	}
}

// slowReaders makes two slow readers of a's answer, checks that a third
// is refused while they are stuck and served once they go away, then
// again once they stay idle past --body-timeout.
func slowReaders(t *testing.T, p *proc, sh *shop, a bigAnswer) {
	large := func() response {
		t.Helper()
		r, err := p.tryWithin(30*time.Second, "POST", a.path, a.body, a.headers...)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := large(); r.Status != 200 || len(r.Raw) < 6<<20 {
		t.Fatalf("a large answer with the budget free: %d, %d bytes", r.Status, len(r.Raw))
	}
	// until polls until a large answer has status want.
	until := func(want int, within time.Duration) response {
		t.Helper()
		deadline := time.Now().Add(within)
		for {
			r := large()
			if r.Status == want || time.Now().After(deadline) {
				return r
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	stuck := func() []net.Conn {
		one := stuckReader(t, p, a.path, a.body, a.headers...)
		return []net.Conn{one, stuckReader(t, p, a.path, a.body, a.headers...)}
	}
	refusedWhileStuck := func(t *testing.T) {
		t.Helper()
		r := large() // nothing else runs: the two stuck answers hold the budget
		if r.Status != 503 || r.JSON["code"] != "UNAVAILABLE" || r.Header.Get("Retry-After") != "1" {
			t.Fatalf("a large answer while two are stuck on slow readers: %d %.200s; want 503 UNAVAILABLE, Retry-After: 1", r.Status, r.Raw)
		}
		sh.query(`{ products { items { name } } }`, nil).data(t)
	}

	t.Run("readers go away", func(t *testing.T) {
		conns := stuck()
		refusedWhileStuck(t)
		for _, c := range conns {
			c.Close()
		}
		if r := until(200, 20*time.Second); r.Status != 200 {
			t.Fatalf("after the slow readers left: %d %.200s", r.Status, r.Raw)
		}
	})
	t.Run("readers stay idle past --body-timeout", func(t *testing.T) {
		stuck()
		refusedWhileStuck(t)
		if r := until(200, 60*time.Second); r.Status != 200 {
			t.Fatalf("slow readers idle past --body-timeout still hold the budget: %d %.200s", r.Status, r.Raw)
		}
	})
}
