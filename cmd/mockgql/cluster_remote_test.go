package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestClusterRemotePort pins the gRPC remote's port with --cluster-remote
// (one node on a loopback address, one on the wildcard, which advertises
// its --cluster-bind host) and checks that each node listens on exactly
// the TCP ports a firewall would be told of — HTTP, memberlist, the
// pinned remote — and that the two form a cluster whose grain calls cross
// those ports: a project made through one node is written through the
// other and read back on both.
func TestClusterRemotePort(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	if testing.Short() {
		t.Skip("starts two processes")
	}
	var (
		httpPort, ml, rem [2]int
		procs             [2]*proc
	)
	for i := range 2 {
		httpPort[i], ml[i], rem[i] = freePort(t), freePort(t), freePort(t)
	}
	remote := [2]string{fmt.Sprintf("127.0.0.1:%d", rem[0]), fmt.Sprintf(":%d", rem[1])}
	for i := range 2 {
		procs[i] = startProc(t, t.TempDir(), httpPort[i], fmt.Sprintf("--node r%d --cluster-bind 127.0.0.1:%d --cluster-remote %s --join 127.0.0.1:%d --jwt-secret %s",
			i+1, ml[i], remote[i], ml[1-i], clusterJWTSecret))
	}
	for _, p := range procs {
		waitReadyMembers(t, p, 2)
	}
	for i, p := range procs {
		want := map[int]bool{httpPort[i]: true, ml[i]: true, rem[i]: true}
		if got := listeningTCP(t, p.cmd.Process.Pid); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("node %d listens on TCP %v, want exactly HTTP, memberlist and --cluster-remote %v", i+1, got, want)
		}
	}
	// Grains land on either node: several projects make both nodes call
	// each other through the pinned ports.
	for n := range 4 {
		sh := newShop(t, procs[n%2].server, fmt.Sprintf("remote%d@example.com", n), fmt.Sprintf("rp%d", n))
		sh.on(procs[1-n%2].server).query(`mutation { createProduct(input: {name: "pinned"}) { id } }`, nil).data(t)
		for i := range 2 {
			if d := sh.on(procs[i].server).query(`{ products(pageSize: 100) { total items { name } } }`, nil).data(t); !strings.Contains(fmt.Sprint(d), "pinned") {
				t.Fatalf("project %d on node %d: %v", n, i+1, d)
			}
		}
	}
}

// waitReadyMembers waits until p's /readyz reports n members.
func waitReadyMembers(t *testing.T, p *proc, n int) {
	t.Helper()
	tr := &trio{t: t, procs: [3]*proc{p}}
	tr.waitMembers(n)
}

// listeningTCP is the set of TCP ports (IPv4 and IPv6) on which process
// pid has a listening socket: the sockets of /proc/net/tcp{,6} in state
// LISTEN whose inodes are among the process's open files.
func listeningTCP(t *testing.T, pid int) map[int]bool {
	t.Helper()
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Skipf("no /proc for process %d: %v", pid, err)
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		link, err := os.Readlink(filepath.Join(fmt.Sprintf("/proc/%d/fd", pid), fd.Name()))
		if inode, ok := strings.CutPrefix(link, "socket:["); err == nil && ok {
			inodes[strings.TrimSuffix(inode, "]")] = true
		}
	}
	ports := map[int]bool{}
	for _, table := range []string{"tcp", "tcp6"} {
		f, err := os.Open(fmt.Sprintf("/proc/%d/net/%s", pid, table))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
			f := strings.Fields(sc.Text())
			if len(f) < 10 || f[3] != "0A" || !inodes[f[9]] { // 0A: LISTEN
				continue
			}
			_, portHex, _ := strings.Cut(f[1], ":")
			if port, err := strconv.ParseInt(portHex, 16, 32); err == nil {
				ports[int(port)] = true
			}
		}
		f.Close()
	}
	return ports
}
