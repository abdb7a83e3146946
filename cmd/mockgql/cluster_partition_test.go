package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestClusterPartition cuts one node of three off the others with real
// network namespaces (a bridge in a hub namespace, one veth per node; a cut
// sets the node's bridge port down), three times: before the node wrote
// anything; briefly, healing before the node noticed; and for longer,
// healing as soon as it noticed. It checks the guarantees of docs/operating/cluster.md
// "Running a cluster" across the partitions and after they heal:
//   - the majority side keeps acknowledging writes;
//   - the cut-off node acknowledges none: it answers 503 with the
//     error body (docs/reference/errors.md) (or the GraphQL error UNAVAILABLE), and never hangs;
//   - actor slots stay strict: all nodes together never grant more than
//     maxActors, and the cut-off node grants none;
//   - once a partition heals, the node the majority dropped fences itself
//     (exit code 3) and the majority stays whole; restarted on its data,
//     the node catches up and serves every acknowledged write, those made
//     while it was away included.
//
// The test reaches each node's HTTP over a control veth of its own, which
// the cuts leave up, so it talks to both sides.
func TestClusterPartition(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	if testing.Short() {
		t.Skip("builds network namespaces and starts three processes")
	}
	lab := newNetLab(t, 3)
	c := lab.startCluster()
	const cut = 2 // node 3

	// First partition: node 3 is cut off at once, before it wrote anything,
	// and the majority builds the fixture without it.
	lab.cut(cut)
	c.waitSeen(t, 0, 2)
	c.waitSeen(t, 1, 2)
	sh := newShop(t, c.node(0), "partition@example.com", "pt")
	const maxActors = 3
	capKey := func(name string) string {
		return get(sh.owner.must(`mutation($p:ID!,$n:String!,$m:Int){ createApiKey(projectId:$p, name:$n, scope: RUNTIME, maxActors:$m) { value } }`,
			map[string]any{"p": sh.project["id"], "n": name, "m": maxActors}), "createApiKey", "value").(string)
	}
	slotKey, blipKey := capKey("slots"), capKey("blip")
	t.Run("a node cut off before its first write acknowledges none", func(t *testing.T) {
		// Until memberlist gives up on the others (its longest suspicion
		// timeout, as nobody can confirm its suspicions) its calls to them
		// time out; once it is alone it must know that one node of three
		// is no majority.
		c.waitSeen(t, cut, 1)
		for i := range 3 {
			signUpRefused(t, c.node(cut), fmt.Sprintf("minority-%d@example.com", i))
		}
		lab.heal(cut)
		c.restartFenced(t, cut)
	})
	if t.Failed() {
		t.FailNow()
	}

	var acked ledger
	var slots [3]int // actor slots granted, by node

	// Second partition, a short one: it heals once the majority dropped
	// node 3 (for good: protoactor never takes a member back) but before
	// node 3 gave up on them. Node 3 serves until it reads in the others'
	// memberlist metadata that they dropped it, and then fences itself;
	// what it acknowledges meanwhile must hold.
	t.Run("a short partition only the majority noticed", func(t *testing.T) {
		lab.cut(cut)
		c.waitSeen(t, 0, 2)
		c.waitSeen(t, 1, 2)
		lab.heal(cut)
		grants := c.loadUntilExit(t, cut, sh, blipKey, &acked)
		// Two activations of the key's grain may serve side by side here
		// (node 3's and the majority's): each grants only what a majority
		// of the replicas acknowledged under its own generation, so the
		// older one's writes fail once the newer one took over. Node 3 fences
		// itself as soon as the majority's metadata tells it that it was
		// dropped (about a second), not when protoactor's gossip expires.
		if n := slotTotal(grants); n > maxActors {
			t.Errorf("granted %d actor slots (by node %v) while node %d was excluded but serving, maxActors is %d", n, grants, cut+1, maxActors)
		}
		c.restartFenced(t, cut)
	})
	if t.Failed() {
		t.FailNow()
	}

	for i := range 3 {
		for j := range 5 {
			acked.write(t, c.node(i), sh, fmt.Sprintf("before-n%d-%d", i+1, j))
		}
	}

	t.Run("the majority goes on, the cut-off node acknowledges nothing", func(t *testing.T) {
		lab.cut(cut)
		probe := probeIsolated(t, c.node(cut), sh, slotKey)
		defer probe.stop()
		// The majority notices the loss within a second or two, the
		// cut-off node only after its longest suspicion timeout: the slot
		// requests below run while it still calls the others, the probe's
		// in both phases.
		c.waitSeen(t, 0, 2)
		c.waitSeen(t, 1, 2)
		before := len(acked.names())
		for i := range 2 {
			for j := range 10 { // the first ones may meet 503s while grains move
				acked.write(t, c.node(i), sh, fmt.Sprintf("during-n%d-%d", i+1, j))
			}
		}
		t.Logf("the majority acknowledged %d writes during the partition", len(acked.names())-before)
		addSlots(&slots, grabSlots(t, c.nodes(), slotKey, maxActors))
		c.waitSeen(t, cut, 1)
		// Heal at once: the cut-off node's last gossip, which declares the
		// majority's nodes dead, then reaches them; they refute it, and it
		// must not split them.
		probe.quit.Store(true)
		lab.heal(cut)
		probe.stop()
		slots[cut] += int(probe.granted.Load())
		if slots[cut] > 0 {
			t.Errorf("node %d granted %d actor slots while cut off from the majority", cut+1, slots[cut])
		}
		if n := slotTotal(slots); n > maxActors {
			t.Errorf("granted %d actor slots across the partition (by node %v), maxActors is %d", n, slots, maxActors)
		}
		if probe.sent.Load() == 0 {
			t.Error("no request reached the cut-off node")
		}
	})
	if t.Failed() {
		t.FailNow()
	}

	t.Run("after the heal the cut-off node fences itself and catches up", func(t *testing.T) {
		c.restartFenced(t, cut)
	})
	if t.Failed() {
		t.FailNow()
	}

	t.Run("every acknowledged write is on every node", func(t *testing.T) {
		for _, i := range []int{cut, 0, 1} {
			have := namesEventually(t, sh.on(c.node(i)))
			var lost []string
			for _, n := range acked.names() {
				if !have[n] {
					lost = append(lost, n)
				}
			}
			if len(lost) > 0 {
				t.Errorf("node %d lacks %d of %d acknowledged writes, e.g. %v", i+1, len(lost), len(acked.names()), lost[:min(5, len(lost))])
			}
		}
	})

	t.Run("actor slots stay strict after the heal", func(t *testing.T) {
		addSlots(&slots, grabSlots(t, c.nodes(), slotKey, maxActors-slotTotal(slots)))
		if n := slotTotal(slots); n != maxActors {
			t.Errorf("granted %d actor slots in all (by node %v), maxActors is %d", n, slots, maxActors)
		}
	})
}

// signUpRefused checks that s does not acknowledge a sign-up: it answers
// 503 with the error body (docs/reference/errors.md), or a GraphQL error UNAVAILABLE (or
// QUERY_TIMEOUT) without data.
func signUpRefused(t *testing.T, s *server, email string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": `mutation($e:String!){ signUp(email:$e, password:"correct horse", name:"Minority") { user { id } } }`,
		"variables": map[string]any{"e": email}})
	r, err := s.tryWithin(labRequest, "POST", "/graphql", body)
	switch {
	case err != nil:
		t.Errorf("sign-up on the cut-off node: no answer: %v", err)
	case r.Status == 200 && (r.errCode() == "UNAVAILABLE" || r.errCode() == "QUERY_TIMEOUT") && get(r.JSON, "data", "signUp") == nil:
	case r.Status == 200:
		t.Errorf("the cut-off node answered a sign-up without a majority: %s", r.Raw)
	default:
		if msg := errorBodyProblem(r); msg != "" || r.Status != 503 {
			t.Errorf("the cut-off node refused a sign-up with %d, not 503 with the error body (%s): %s", r.Status, msg, r.Raw)
		}
	}
}

func addSlots(sum *[3]int, got []int) {
	for i, g := range got {
		sum[i] += g
	}
}

func slotTotal(slots [3]int) int { return slots[0] + slots[1] + slots[2] }

// netLab is a private network for one test: a hub namespace holding a
// bridge, and one namespace per node with a veth into the bridge (the
// cluster network, 10.a.b.0/24) and a control veth to the test's own
// namespace (a /30 per node in a 10.c.d.0/24 that no route of this machine
// uses), so that the test reaches a node the cluster network no longer
// reaches. Deleting the namespaces removes every interface.
type netLab struct {
	t       *testing.T
	name    string // mgq-p<pid>-<random>: the namespaces' prefix
	tag     string // random: names the control veths in the test's namespace
	cluster string // "10.a.b."
	control string // "10.c.d."
}

// labNames matches a lab's namespaces; the number is the pid of the test
// process that made them.
var labNames = regexp.MustCompile(`^mgq-p(\d+)-[0-9a-f]+-(hub|\d+)$`)

// newNetLab builds the network for the given number of nodes and deletes
// it when the test ends. It skips the test, saying why, when the machine
// does not allow it (not root, no ip command, no namespaces); with
// MGQ_REQUIRE_NETNS=1 it fails instead, for CI that must run it.
func newNetLab(t *testing.T, nodes int) *netLab {
	t.Helper()
	skip := func(why string) {
		t.Helper()
		msg := fmt.Sprintf("network partition test cannot run here: %s. It needs Linux, root (CAP_NET_ADMIN and CAP_SYS_ADMIN; "+
			"in Docker --privileged, or --cap-add NET_ADMIN --cap-add SYS_ADMIN) and iproute2's ip with network namespace, veth and "+
			"bridge support (running as uid %d)", why, os.Geteuid())
		if os.Getenv("MGQ_REQUIRE_NETNS") == "1" {
			t.Fatal(msg)
		}
		// Loudly: go test prints a skip's reason only with -v.
		fmt.Fprintf(os.Stderr, "\n*** SKIPPED %s: %s\n\n", t.Name(), msg)
		t.Skip(msg)
	}
	if _, err := exec.LookPath("ip"); err != nil {
		skip("the ip command (iproute2) is not in PATH")
	}
	removeStaleLabs(t)
	tag := randomHex(3)
	l := &netLab{t: t, name: fmt.Sprintf("mgq-p%d-%s", os.Getpid(), tag), tag: tag,
		cluster: fmt.Sprintf("10.%d.%d.", 100+randomByte()%100, randomByte())}
	control, err := unusedSubnet()
	if err != nil {
		skip(err.Error())
	}
	l.control = control
	if _, err := ipRun("netns", "add", l.hub()); err != nil {
		skip(err.Error())
	}
	made := []string{l.hub()}
	t.Cleanup(func() {
		// A namespace outlives its deletion while the kernel still holds
		// sockets of it (a connection of a killed node retransmitting its
		// FIN), and with it the control veth in this namespace: delete
		// those first, which removes both ends.
		for i := range nodes {
			_, _ = ipRun("link", "del", fmt.Sprintf("mgq%sc%d", l.tag, i))
		}
		for _, ns := range made {
			if _, err := ipRun("netns", "del", ns); err != nil {
				t.Logf("cleaning up: %v", err)
			}
		}
	})
	steps := [][]string{
		{"-n", l.hub(), "link", "set", "lo", "up"},
		{"-n", l.hub(), "link", "add", "br0", "type", "bridge"},
		{"-n", l.hub(), "link", "set", "br0", "up"},
	}
	for i := range nodes {
		if _, err := ipRun("netns", "add", l.ns(i)); err != nil {
			skip(err.Error())
		}
		made = append(made, l.ns(i))
		steps = append(steps, l.nodeSteps(i)...)
	}
	for _, s := range steps {
		if _, err := ipRun(s...); err != nil {
			skip(err.Error())
		}
	}
	// The nodes run as this test binary under ip netns exec, which needs
	// to set up a mount namespace: check that it can.
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := exec.Command("ip", "netns", "exec", l.ns(0), exe, "-test.run=^$").Run(); err != nil {
		skip(fmt.Sprintf("ip netns exec %s <test binary>: %v", l.ns(0), err))
	}
	return l
}

// nodeSteps are the ip commands that wire node i's namespace.
func (l *netLab) nodeSteps(i int) [][]string {
	ns, port, host := l.ns(i), fmt.Sprintf("p%d", i), fmt.Sprintf("mgq%sc%d", l.tag, i)
	return [][]string{
		{"-n", ns, "link", "set", "lo", "up"},
		{"link", "add", "cl0", "netns", ns, "type", "veth", "peer", "name", port, "netns", l.hub()},
		{"-n", l.hub(), "link", "set", port, "master", "br0", "up"},
		{"-n", ns, "addr", "add", l.clusterIP(i) + "/24", "dev", "cl0"},
		{"-n", ns, "link", "set", "cl0", "up"},
		{"link", "add", host, "type", "veth", "peer", "name", "ctl0", "netns", ns},
		{"addr", "add", fmt.Sprintf("%s%d/30", l.control, 4*i+1), "dev", host},
		{"link", "set", host, "up"},
		{"-n", ns, "addr", "add", l.controlIP(i) + "/30", "dev", "ctl0"},
		{"-n", ns, "link", "set", "ctl0", "up"},
	}
}

func (l *netLab) hub() string            { return l.name + "-hub" }
func (l *netLab) ns(i int) string        { return fmt.Sprintf("%s-%d", l.name, i+1) }
func (l *netLab) clusterIP(i int) string { return fmt.Sprintf("%s%d", l.cluster, i+1) }
func (l *netLab) controlIP(i int) string { return fmt.Sprintf("%s%d", l.control, 4*i+2) }

// cut takes node i off the cluster network: its bridge port goes down, so
// frames to and from it are dropped silently, as by a failed switch port.
func (l *netLab) cut(i int) {
	l.t.Helper()
	if _, err := ipRun("-n", l.hub(), "link", "set", fmt.Sprintf("p%d", i), "down"); err != nil {
		l.t.Fatal(err)
	}
}

// heal puts node i back on the cluster network.
func (l *netLab) heal(i int) {
	l.t.Helper()
	if _, err := ipRun("-n", l.hub(), "link", "set", fmt.Sprintf("p%d", i), "up"); err != nil {
		l.t.Fatal(err)
	}
}

// ipRun runs ip with args.
func ipRun(args ...string) (string, error) {
	out, err := exec.Command("ip", args...).CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("ip %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	return string(out), nil
}

// removeStaleLabs deletes the namespaces of labs whose test process is
// gone (a run killed before its cleanup); their nodes died with it
// (Pdeathsig).
func removeStaleLabs(t *testing.T) {
	out, err := ipRun("netns", "list")
	if err != nil {
		return
	}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		m := labNames.FindStringSubmatch(f[0])
		if m == nil {
			continue
		}
		pid, _ := strconv.Atoi(m[1])
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			if _, err := ipRun("netns", "del", f[0]); err == nil {
				t.Logf("removed namespace %s, left over by an earlier run", f[0])
			}
		}
	}
}

// unusedSubnet returns "10.c.d." for a 10.c.d.0/24 that overlaps no route
// of this machine, so that the control veths shadow nothing.
func unusedSubnet() (string, error) {
	out, err := ipRun("-4", "route", "show", "table", "all")
	if err != nil {
		return "", err
	}
	var used []*net.IPNet
	for _, f := range strings.Fields(out) {
		if !strings.Contains(f, "/") {
			f += "/32"
		}
		if _, n, err := net.ParseCIDR(f); err == nil && n.IP.To4() != nil {
			used = append(used, n)
		}
	}
	for range 50 {
		_, cand, _ := net.ParseCIDR(fmt.Sprintf("10.%d.%d.0/24", 200+randomByte()%50, randomByte()))
		free := true
		for _, u := range used {
			if ones, _ := u.Mask.Size(); ones > 0 && (u.Contains(cand.IP) || cand.Contains(u.IP)) {
				free = false
			}
		}
		if free {
			return strings.TrimSuffix(cand.IP.String(), "0"), nil
		}
	}
	return "", errors.New("no free 10.x.y.0/24 for the control links: this machine routes them all")
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func randomByte() int {
	var b [1]byte
	_, _ = rand.Read(b[:])
	return int(b[0])
}

// Deadlines of the partition test: generous caps for a loaded 2-core
// machine, not expectations (each wait polls and returns as soon as it can).
const (
	labWait    = 45 * time.Second // a node becomes ready, sees a membership change, fences, acknowledges a write
	labRequest = 30 * time.Second // one HTTP request; past it, the node hangs (its own deadline is 5 s)
)

// labCluster is three mockgql processes, node i in namespace i, memberlist
// and gRPC on the cluster network, HTTP on the control link.
type labCluster struct {
	t     *testing.T
	lab   *netLab
	data  [3]string
	procs [3]*labProc
}

// labProc is a node process; exited closes when it has ended, and state
// then says how.
type labProc struct {
	*proc
	exited chan struct{}
	state  *os.ProcessState
}

func (l *netLab) startCluster() *labCluster {
	c := &labCluster{t: l.t, lab: l}
	for i := range 3 {
		c.data[i] = l.t.TempDir()
	}
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = c.start(i) }()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		l.t.Fatal(err)
	}
	c.waitMembers(l.t, 3)
	return c
}

func (c *labCluster) node(i int) *server { return c.procs[i].server }

func (c *labCluster) nodes() []*server {
	return []*server{c.node(0), c.node(1), c.node(2)}
}

// start runs node i (again, on the same data) in its namespace and waits
// until it is ready. The process is killed when the whole test ends.
func (c *labCluster) start(i int) error {
	l := c.lab
	var join []string
	for j := range 3 {
		if j != i {
			join = append(join, l.clusterIP(j)+":7946")
		}
	}
	args := fmt.Sprintf("--http %s:8080 --data %s --no-demo --node n%d --ip-limit 0 --actor-issue-limit 1000 --sweep-every 1h --cluster-bind %s:7946 --join %s",
		l.controlIP(i), c.data[i], i+1, l.clusterIP(i), strings.Join(join, ","))
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command("ip", "netns", "exec", l.ns(i), exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), "MGQ_TEST_CHILD=1", "MGQ_TEST_ARGS="+args, "MGQ_LOG_LEVEL=warn")
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // ip execs the node: it dies with the test
	if err := cmd.Start(); err != nil {
		return err
	}
	p := &labProc{proc: &proc{server: &server{t: c.t, base: fmt.Sprintf("http://%s:8080", l.controlIP(i)), data: c.data[i]}, cmd: cmd},
		exited: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		p.state = cmd.ProcessState
		close(p.exited)
	}()
	c.t.Cleanup(func() { _ = cmd.Process.Kill(); <-p.exited })
	c.procs[i] = p
	deadline := time.Now().Add(labWait)
	for {
		r, err := p.server.tryWithin(labRequest, "GET", "/readyz", nil)
		if err == nil && r.Status == 200 {
			return nil
		}
		select {
		case <-p.exited:
			return fmt.Errorf("node %d exited while starting: %v", i+1, p.state)
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("node %d did not become ready: %v %s", i+1, err, r.Raw)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// members is what node i's /readyz reports (-1 when it does not answer 200).
func (c *labCluster) members(i int) int {
	r, err := c.node(i).tryWithin(labRequest, "GET", "/readyz", nil)
	if err != nil || r.Status != 200 {
		return -1
	}
	n, _ := r.JSON["members"].(float64)
	return int(n)
}

// waitSeen waits until node i sees n members.
func (c *labCluster) waitSeen(t *testing.T, i, n int) {
	t.Helper()
	deadline := time.Now().Add(labWait)
	for {
		m := c.members(i)
		if m == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("node %d sees %d members, not %d", i+1, m, n)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitMembers waits until every node sees n members.
func (c *labCluster) waitMembers(t *testing.T, n int) {
	t.Helper()
	for i := range 3 {
		c.waitSeen(t, i, n)
	}
}

// waitFenced waits until node i, back on the network after a partition,
// fences itself by exiting with code 3: protoactor never lets the two
// sides of a partition merge again (cluster.Node.fenceReason).
func (c *labCluster) waitFenced(t *testing.T, i int) {
	t.Helper()
	p := c.procs[i]
	select {
	case <-p.exited:
		if code := p.state.ExitCode(); code != 3 {
			t.Fatalf("node %d exited with %v after the partition healed; a fenced node exits with code 3", i+1, p.state)
		}
		t.Logf("node %d fenced itself (exit code 3) after the partition healed", i+1)
	case <-time.After(labWait):
		t.Fatalf("%s after the partition healed node %d has not fenced itself (exit code 3); nodes 1-3 see %d, %d and %d members",
			labWait, i+1, c.members(0), c.members(1), c.members(2))
	}
}

// restartFenced waits until node i fences itself, starts it again on its
// data and waits until all three nodes see each other.
func (c *labCluster) restartFenced(t *testing.T, i int) {
	t.Helper()
	c.waitFenced(t, i)
	if err := c.start(i); err != nil {
		t.Fatal(err)
	}
	c.waitMembers(t, 3)
}

// loadUntilExit sends writes through node i, and actor slot requests with
// key to all three nodes at once, until node i exits. It adds the writes
// node i acknowledges to acked, checks every refusal's body and returns
// the slots granted by node.
func (c *labCluster) loadUntilExit(t *testing.T, i int, sh *shop, key string, acked *ledger) (grants [3]int) {
	t.Helper()
	answers := map[string]int{}
	deadline := time.Now().Add(labWait)
	var mu sync.Mutex
	note := func(what string, r response, err error) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case err == nil && r.Status == 200 && r.JSON["errors"] != nil:
			t.Errorf("%s: 200 with errors: %s", what, r.Raw)
		case err == nil && r.Status != 200 && errorBodyProblem(r) != "":
			t.Errorf("%s: %s: %d %s", what, errorBodyProblem(r), r.Status, r.Raw)
		}
		answers[fmt.Sprintf("%s %d %v", what, r.Status, r.JSON["code"])]++
	}
	for k := 0; ; k++ {
		select {
		case <-c.procs[i].exited:
			t.Logf("answers until node %d fenced itself: %v", i+1, answers)
			return grants
		default:
		}
		if time.Now().After(deadline) {
			t.Logf("answers: %v", answers)
			return grants // waitFenced reports it
		}
		name := fmt.Sprintf("blip-%d", k)
		r, err := createProduct(c.node(i), sh, name)
		if err == nil && r.Status == 200 && r.JSON["errors"] == nil {
			acked.add(name)
		}
		note(fmt.Sprintf("write on node %d", i+1), r, err)
		var wg sync.WaitGroup
		for j := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := c.node(j).tryWithin(labRequest, "POST", "/runtime/actors", nil, "X-API-Key", key)
				if err == nil && r.Status == 200 {
					mu.Lock()
					grants[j]++
					mu.Unlock()
				}
				note(fmt.Sprintf("actor on node %d", j+1), r, err)
			}()
		}
		wg.Wait()
		time.Sleep(200 * time.Millisecond)
	}
}

// ledger is the names of the acknowledged writes. Safe for concurrent use.
type ledger struct {
	mu    sync.Mutex
	acked []string
}

func (l *ledger) add(name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.acked = append(l.acked, name)
}

func (l *ledger) names() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.acked...)
}

// write creates a product named name through s, retrying on 503 (and on
// a connection error) until it is acknowledged.
func (l *ledger) write(t *testing.T, s *server, sh *shop, name string) {
	t.Helper()
	deadline := time.Now().Add(labWait)
	for {
		r, err := createProduct(s, sh, name)
		switch {
		case err == nil && r.Status == 200 && r.JSON["errors"] == nil:
			l.add(name)
			return
		case err == nil && r.Status != 503:
			t.Fatalf("write %s through %s: %d %s", name, s.base, r.Status, r.Raw)
		}
		if time.Now().After(deadline) {
			t.Fatalf("write %s through %s not acknowledged within %s: %v %d %s", name, s.base, labWait, err, r.Status, r.Raw)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// createProduct sends one runtime mutation through s.
func createProduct(s *server, sh *shop, name string) (response, error) {
	body, _ := json.Marshal(map[string]any{"query": `mutation($n:String){ createProduct(input:{name:$n}) { id } }`, "variables": map[string]any{"n": name}})
	return s.tryWithin(labRequest, "POST", sh.runtime, body, "X-API-Key", sh.fullKey)
}

// isolatedProbe sends the cut-off node a write and an actor slot request,
// one after the other, until quit. It reports every acknowledged write,
// every refusal without the error body and every hang (no answer
// before quit), and counts the slots granted.
type isolatedProbe struct {
	t       *testing.T
	sent    atomic.Int32
	granted atomic.Int32
	quit    atomic.Bool
	done    chan struct{}
	once    sync.Once
	answers map[string]int // "<route> <status> <code>" → count
	slowest time.Duration  // logged: the node's own deadline is 5 s
}

func probeIsolated(t *testing.T, s *server, sh *shop, slotKey string) *isolatedProbe {
	p := &isolatedProbe{t: t, done: make(chan struct{}), answers: map[string]int{}}
	go func() {
		defer close(p.done)
		for i := 0; !p.quit.Load(); i++ {
			name := fmt.Sprintf("isolated-%d", i)
			p.check("write", func() (response, error) { return createProduct(s, sh, name) })
			p.check("actor", func() (response, error) {
				return s.tryWithin(labRequest, "POST", "/runtime/actors", nil, "X-API-Key", slotKey)
			})
			time.Sleep(50 * time.Millisecond)
		}
	}()
	return p
}

func (p *isolatedProbe) check(route string, send func() (response, error)) {
	began := time.Now()
	r, err := send()
	p.slowest = max(p.slowest, time.Since(began))
	p.sent.Add(1)
	switch {
	case err != nil && p.quit.Load(): // healed meanwhile: the node may have fenced itself
		p.answers[route+" no answer after the heal"]++
		return
	case err != nil:
		p.t.Errorf("the cut-off node gave no answer (%s): %v", route, err)
		return
	case r.Status == 200 && route == "actor":
		p.granted.Add(1)
	case r.Status == 200:
		p.t.Errorf("the cut-off node acknowledged a write without a majority: %s", r.Raw)
	default:
		if msg := errorBodyProblem(r); msg != "" {
			p.t.Errorf("the cut-off node refused a request (%s) without the error body (%s): %d %s", route, msg, r.Status, r.Raw)
		}
	}
	p.answers[fmt.Sprintf("%s %d %v", route, r.Status, r.JSON["code"])]++
}

// stop ends the probe and logs what the cut-off node answered.
func (p *isolatedProbe) stop() {
	p.once.Do(func() {
		p.quit.Store(true)
		<-p.done
		p.t.Logf("the cut-off node answered %d requests: %v (the slowest in %s)", p.sent.Load(), p.answers, p.slowest.Round(time.Millisecond))
	})
}

// errorBodyProblem says how r's body differs from the error body (docs/reference/errors.md), or
// returns "" when it does not.
func errorBodyProblem(r response) string {
	if r.JSON == nil {
		return "not JSON"
	}
	if r.JSON["statusCode"] != float64(r.Status) {
		return "statusCode is not the HTTP status"
	}
	code, _ := r.JSON["code"].(string)
	if code == "" || r.JSON["message"] != code {
		return "message is not the code"
	}
	for _, f := range []string{"path", "timestamp"} {
		if _, ok := r.JSON[f]; !ok {
			return "no " + f
		}
	}
	if r.Status == 503 && code != "UNAVAILABLE" && code != "QUERY_TIMEOUT" {
		return "a 503 with code " + code
	}
	return ""
}

// grabSlots sends waves of concurrent POST /runtime/actors with key, four
// to each node, until want slots were granted in all (or the deadline),
// then one more wave; it returns the grants by node.
func grabSlots(t *testing.T, nodes []*server, key string, want int) []int {
	t.Helper()
	got := make([]int, len(nodes))
	answers := map[string]int{}
	deadline := time.Now().Add(labWait)
	for extra := 1; extra >= 0; {
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i, s := range nodes {
			for range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r, err := s.tryWithin(labRequest, "POST", "/runtime/actors", nil, "X-API-Key", key)
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err != nil:
						t.Errorf("POST /runtime/actors on node %d: %v", i+1, err)
					case r.Status == 200:
						got[i]++
					case errorBodyProblem(r) != "":
						t.Errorf("POST /runtime/actors on node %d: %s: %d %s", i+1, errorBodyProblem(r), r.Status, r.Raw)
					}
					answers[fmt.Sprintf("node %d: %d %v", i+1, r.Status, r.JSON["code"])]++
				}()
			}
		}
		wg.Wait()
		total := 0
		for _, g := range got {
			total += g
		}
		if total >= want || time.Now().After(deadline) {
			extra--
		} else {
			time.Sleep(200 * time.Millisecond)
		}
	}
	t.Logf("actor slot requests: grants by node %v; answers %v", got, answers)
	return got
}

// namesEventually reads every product name through sh, retrying while the
// node answers 503 (a grain moving).
func namesEventually(t *testing.T, sh *shop) map[string]bool {
	t.Helper()
	q := `query($p:Int){ products(page:$p, pageSize: 1000) { total items { name } } }`
	deadline := time.Now().Add(labWait)
	out := map[string]bool{}
	for page := 1; ; {
		body, _ := json.Marshal(map[string]any{"query": q, "variables": map[string]any{"p": page}})
		r, err := sh.s.tryWithin(labRequest, "POST", sh.runtime, body, "X-API-Key", sh.fullKey)
		if err != nil || r.Status == 503 {
			if time.Now().After(deadline) {
				t.Fatalf("reading through %s: %v %d %s", sh.s.base, err, r.Status, r.Raw)
			}
			time.Sleep(200 * time.Millisecond)
			continue
		}
		n := names(t, r)
		for k := range n {
			out[k] = true
		}
		if len(n) < 1000 {
			return out
		}
		page++
	}
}
