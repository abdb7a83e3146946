package realtime

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/internal/testdata"
)

const jsDir = "testdata/js"

// runClient starts the real client kind ("ws" or "sse") of testdata/js
// and returns its output lines as they come. The test fails when node or
// the packages are missing under MGQ_REQUIRE_TOOLS=1 (CI), and skips
// otherwise.
func runClient(t *testing.T, kind, url, token, query string, want int) <-chan string {
	t.Helper()
	testdata.RequireNodeModule(t, jsDir, "graphql-ws")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, "node", "clients.mjs", kind, url, token, query, strconv.Itoa(want))
	cmd.Dir = jsDir
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		_ = cmd.Wait()
	}()
	return lines
}

func nextLine(t *testing.T, lines <-chan string) string {
	t.Helper()
	select {
	case l, ok := <-lines:
		if !ok {
			t.Fatal("the client ended early")
		}
		return l
	case <-time.After(20 * time.Second):
		t.Fatal("no line from the client within 20 s")
	}
	return ""
}

// TestRealClients: graphql-ws's client over WebSocket and graphql-sse's
// client over Server-Sent Events subscribe, receive the hub's events in
// order, and see refusals and invalid documents as their protocols say.
func TestRealClients(t *testing.T) {
	for _, kind := range []string{"ws", "sse"} {
		t.Run(kind, func(t *testing.T) {
			ts, rt := testServer(t, quickConfig())
			url := ts.URL + "/mock/shop/graphql"
			if kind == "ws" {
				url = "ws" + strings.TrimPrefix(url, "http")
			}
			lines := runClient(t, kind, url, "good", "subscription { tick }", 2)
			waitFor(t, func() bool { return rt.hub.Subscribers("p") == 1 })
			rt.hub.Publish(Event{Topic: "p", Data: 1, Size: 1})
			rt.hub.Publish(Event{Topic: "p", Data: 2, Size: 1})
			for _, want := range []string{`{"data":{"tick":1}}`, `{"data":{"tick":2}}`, "done"} {
				if got := nextLine(t, lines); got != want {
					t.Fatalf("got %q, want %q", got, want)
				}
			}
			waitFor(t, func() bool { return rt.hub.Subscribers("p") == 0 && rt.open.Load() == 0 })

			bad := runClient(t, kind, url, "good", "bad { x }", 0)
			if got := nextLine(t, bad); !strings.Contains(got, "Cannot query field") {
				t.Fatalf("an invalid document: %q", got)
			}
			refused := runClient(t, kind, url, "nope", "subscription { tick }", 0)
			got := nextLine(t, refused)
			if kind == "ws" && !strings.HasPrefix(got, "closed 4403") || kind == "sse" && !strings.HasPrefix(got, "error") {
				t.Fatalf("a refused credential: %q", got)
			}
		})
	}
}
