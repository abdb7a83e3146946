package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// proc is a mockgql serve process (this test binary re-executed, see
// TestMain) for tests that kill or signal it.
type proc struct {
	*server
	cmd *exec.Cmd
}

// freePort returns a loopback port that was free a moment ago, outside
// the kernel's range of ephemeral ports: a node restarted on its port
// (rolling restarts, failover tests) must find it free, and a port from
// that range may meanwhile be the local end of any outgoing connection
// (a restart failed once on "address already in use" that way).
func freePort(t testing.TB) int {
	lo, hi := 32768, 60999
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		_, _ = fmt.Sscan(string(b), &lo, &hi)
	}
	if lo > 10000+2000 { // below the ephemeral range, above the well-known and registered-early ports
		for range 200 {
			port := 10000 + rand.IntN(lo-10000)
			if ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
				ln.Close()
				return port
			}
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startProc runs `mockgql serve` on data dir and waits until it is ready.
// A test whose nodes are all processes shares nothing with other such
// tests (own ports, data, clock; no environment changes) and calls
// t.Parallel; a test with an in-process node (startServer) must not.
func startProc(t *testing.T, data string, port int, extra ...string) *proc {
	t.Helper()
	return startProcLogging(t, data, port, os.Stderr, extra...)
}

// startProcLogging is startProc with the process's log written to stderr.
func startProcLogging(t *testing.T, data string, port int, stderr io.Writer, extra ...string) *proc {
	t.Helper()
	args := fmt.Sprintf("--http 127.0.0.1:%d --data %s --no-demo --node crash --ip-limit 0 --pool-curators %s", port, data, poolCurator)
	for _, e := range extra {
		args += " " + e
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MGQ_TEST_CHILD=1", "MGQ_TEST_ARGS="+args, "MGQ_LOG_LEVEL=warn", "MGQ_TEST_CLOCK="+clockFile(t))
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{server: &server{t: t, base: fmt.Sprintf("http://127.0.0.1:%d", port), data: data}, cmd: cmd}
	followedBy(t, p)
	t.Cleanup(func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() })
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get(p.base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("mockgql did not become ready: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// kill sends SIGKILL and waits for the process to be gone.
func (p *proc) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	_, _ = p.cmd.Process.Wait()
}
