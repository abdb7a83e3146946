package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// mockgql is the server under test, a child process on core 0.
type mockgql struct {
	cmd    *exec.Cmd
	addr   string
	token  string
	exited chan struct{} // closed once the process has exited and been waited for
}

func startMockgql(bin, dir string, extra ...string) (*mockgql, error) {
	// The port is found free and then given to the child, which another
	// process (the other binary of make bench-ab) may take in between: a
	// server that exits before it is ready is started again on another.
	var err error
	for range 3 {
		var m *mockgql
		if m, err = startMockgqlOnce(bin, dir, extra...); err == nil {
			return m, nil
		}
	}
	return nil, err
}

func startMockgqlOnce(bin, dir string, extra ...string) (*mockgql, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	// The bench user's datasets are the curated pool, as the demo's are,
	// so the session flow's tables read them (datasets belong to their
	// account otherwise).
	args := []string{"serve", "--http", addr, "--data", dir, "--no-demo", "--log-level", "error", "--max-dataset-bytes", strconv.Itoa(2 << 30),
		"--pool-curators", "bench@example.com"}
	args = append(args, extra...)
	// BENCH_SERVER_ARGS adds flags to every mockgql the bench starts (an
	// A/B of a setting, e.g. --gc-max-growth 0).
	args = append(args, strings.Fields(os.Getenv("BENCH_SERVER_ARGS"))...)
	if pp := os.Getenv("BENCH_PPROF"); pp != "" {
		args = append(args, "--debug-addr", pp)
	}
	cmd := pinned(bin, args...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	m := &mockgql{cmd: cmd, addr: addr, exited: exited}
	for i := 0; i < 400; i++ {
		if resp, err := http.Get("http://" + addr + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return m, nil
			}
		}
		select {
		case <-exited:
			return nil, fmt.Errorf("mockgql on %s exited before it was ready", addr)
		case <-time.After(50 * time.Millisecond):
		}
	}
	m.stop()
	return nil, fmt.Errorf("mockgql did not become ready")
}

func (m *mockgql) stop() { _ = m.cmd.Process.Kill(); <-m.exited }

// rss is the server's resident memory in bytes.
func (m *mockgql) rss() int64 { return m.status("VmRSS:") }

// peak is the most resident memory the server had so far.
func (m *mockgql) peak() int64 { return m.status("VmHWM:") }

// cpu is the CPU time the server has used, user and system (Linux, at
// the usual 100 ticks a second); 0 when it cannot be read.
func (m *mockgql) cpu() time.Duration { return procCPU(m.cmd.Process.Pid) }

// procCPU is the CPU time process pid has used, user and system; 0 when
// it cannot be read.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]) // the name may hold spaces
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// status reads a size in kB from /proc/<pid>/status.
func (m *mockgql) status(field string) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", m.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			kb, _ := strconv.ParseInt(strings.Fields(rest)[0], 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// post sends a body and returns the answer text.
func (m *mockgql) post(path, body string, headers ...string) (string, error) {
	return m.postReader(path, strings.NewReader(body), headers...)
}

func (m *mockgql) postReader(path string, body io.Reader, headers ...string) (string, error) {
	req, err := http.NewRequest(http.MethodPost, "http://"+m.addr+path, body)
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	if m.token != "" {
		req.Header.Set("Authorization", "Bearer "+m.token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		return "", fmt.Errorf("%s: %d %s", path, resp.StatusCode, b)
	}
	return string(b), err
}

// gql runs a management operation and decodes its data.
func (m *mockgql) gql(query string, vars map[string]any) (map[string]any, error) {
	b, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	out, err := m.postReader("/graphql", bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	var r struct {
		Data   map[string]any
		Errors []any
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		return nil, err
	}
	if len(r.Errors) > 0 {
		return nil, fmt.Errorf("%s: %v", query, r.Errors)
	}
	return r.Data, nil
}

// get fetches a path and returns the body.
func (m *mockgql) get(path string) (string, error) {
	resp, err := http.Get("http://" + m.addr + path)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}
