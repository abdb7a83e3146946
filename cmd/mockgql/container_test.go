package main

import (
	"bytes"
	"context"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The container tier: tests that build the image with `make image` and run
// it under Docker. They are in ALONE_TESTS (the Makefile): Docker adds
// bridges and veth pairs, and Chromium aborts requests in flight when the
// host's interfaces change.

// dockerCLI runs docker (or docker-compose) commands for a container test.
type dockerCLI struct{ t *testing.T }

// needDocker skips the test where Docker is missing or its daemon does not
// answer, or fails it under MGQ_REQUIRE_TOOLS=1 (CI, whose .ci/run
// installs docker.io and starts dockerd).
func needDocker(t *testing.T) dockerCLI {
	t.Helper()
	if testing.Short() {
		t.Skip("builds an image and runs containers")
	}
	for _, tool := range []string{"docker", "docker-compose", "make"} {
		if _, err := exec.LookPath(tool); err != nil {
			skipOrFail(t, tool+" not found")
		}
	}
	if out, err := exec.Command("docker", "info", "--format", "{{.ServerVersion}}").CombinedOutput(); err != nil {
		skipOrFail(t, fmt.Sprintf("the Docker daemon does not answer: %v %s", err, out))
	}
	return dockerCLI{t}
}

// run runs name args, fails the test on an error and returns the trimmed
// standard output.
func (d dockerCLI) run(name string, args ...string) string {
	d.t.Helper()
	out, err := d.try(name, args...)
	if err != nil {
		d.t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return out
}

// try runs name args (at most 5 minutes) and returns its trimmed output;
// the error holds its standard error.
func (d dockerCLI) try(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return strings.TrimSpace(out.String()), fmt.Errorf("%w: %s", err, strings.TrimSpace(errb.String()))
	}
	return strings.TrimSpace(out.String()), nil
}

// cleanup runs name args when the test ends, pass or fail, logging an error.
func (d dockerCLI) cleanup(name string, args ...string) {
	d.t.Cleanup(func() {
		if _, err := d.try(name, args...); err != nil {
			d.t.Logf("cleanup: %s %s: %v", name, strings.Join(args, " "), err)
		}
	})
}

// image builds the image with `make image` under a tag of this test's own
// and removes the tag when the test ends.
func (d dockerCLI) image(name string) string {
	d.t.Helper()
	tag := fmt.Sprintf("mockgql:%s-%d", name, os.Getpid())
	d.cleanup("docker", "rmi", "-f", tag)
	out := d.run("make", "-C", "../..", "image", "IMAGE="+tag)
	if size := regexp.MustCompile(`image \S+: [0-9.]+ MB`).FindString(out); size != "" {
		d.t.Logf("make image: %s", size)
	} else {
		d.t.Errorf("make image did not print the image's size: %s", out)
	}
	return tag
}

// hostURL is the loopback URL Docker published container port 8080 on.
func (d dockerCLI) hostURL(container string) string {
	d.t.Helper()
	out := d.run("docker", "port", container, "8080/tcp")
	addr, _, _ := strings.Cut(out, "\n")
	return "http://" + strings.Replace(addr, "0.0.0.0", "127.0.0.1", 1)
}

// containerTrio is three mockgql containers on a user network, with their
// addresses on it and the server each is reached through from the host.
type containerTrio struct {
	d     dockerCLI
	tag   string
	names [3]string
	ips   [3]string
	procs [3]*proc // procs[i].server only: no process of ours
}

// TestClusterContainers runs the image: three containers on a user-defined
// Docker network form a cluster (memberlist on 7946, the gRPC remote
// pinned on 7947), writes go through one, that one is SIGKILLed with
// docker kill, every acknowledged write is read through the two others,
// and the killed container starts again and serves them too. Then the
// compose file: docker-compose accepts it, and its cluster starts and
// answers /readyz with three members.
func TestClusterContainers(t *testing.T) {
	d := needDocker(t)
	tag := d.image("ctest")
	t.Run("three containers, one killed", func(t *testing.T) { containerFailover(t, tag) })
	t.Run("compose", func(t *testing.T) { composeCluster(t, tag) })
	t.Run("testcontainers modules", func(t *testing.T) { testcontainersModules(t, tag) })
}

// testcontainersModules runs the example tests of the Testcontainers
// modules (testcontainers/mockgql for Go, testcontainers/node for Node)
// against the image this test built. Ryuk, their reaper, is an image from
// a registry, so it is off (the examples stop their containers); the host
// override points them at this machine's dockerd, where they would take
// the default gateway inside a container.
func testcontainersModules(t *testing.T, tag string) {
	env := append(os.Environ(), "MOCKGQL_IMAGE="+tag, "TESTCONTAINERS_RYUK_DISABLED=true", "TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1")
	run := func(t *testing.T, dir string, name string, args ...string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %s in %s: %v\n%s", name, strings.Join(args, " "), dir, err, out)
		}
	}
	t.Run("go", func(t *testing.T) {
		dir := "../../testcontainers/mockgql"
		run(t, dir, "go", "vet", "./...")
		run(t, dir, "go", "test", "-count=1", "./...")
	})
	t.Run("node", func(t *testing.T) {
		dir := "../../testcontainers/node"
		if _, err := exec.LookPath("node"); err != nil {
			skipOrFail(t, "node not found")
		}
		if _, err := os.Stat(filepath.Join(dir, "node_modules", "testcontainers")); err != nil {
			skipOrFail(t, "testcontainers/node has no node_modules: run make js-deps")
		}
		run(t, dir, "node", "--test")
	})
}

func containerFailover(t *testing.T, tag string) {
	d := dockerCLI{t}
	tr := &containerTrio{d: d, tag: tag}
	network := fmt.Sprintf("mgq-ctest-%d", os.Getpid())
	prefix := tr.network(network)
	for i := range 3 {
		ip := prefix.Masked().Addr()
		for range 11 + i { // .11, .12, .13: clear of the gateway and of what Docker hands out first
			ip = ip.Next()
		}
		tr.ips[i] = ip.String()
		tr.names[i] = fmt.Sprintf("%s-n%d", network, i+1)
		d.cleanup("docker", "rm", "-f", "-v", tr.names[i])
	}
	for i := range 3 {
		var join []string
		for j := range 3 {
			if j != i {
				join = append(join, tr.ips[j]+":7946")
			}
		}
		d.run("docker", "run", "-d", "--name", tr.names[i], "--network", network, "--ip", tr.ips[i], "-p", "127.0.0.1::8080",
			"-e", "MGQ_JWT_SECRET="+clusterJWTSecret, tag,
			"--node", fmt.Sprintf("c%d", i+1), "--cluster-bind", tr.ips[i]+":7946", "--cluster-remote", tr.ips[i]+":7947",
			"--join", strings.Join(join, ","), "--no-demo", "--ip-limit", "0", "--pool-curators", poolCurator)
	}
	for i := range 3 {
		tr.connect(i)
	}
	defer func() {
		if t.Failed() {
			for _, n := range tr.names {
				out, _ := d.try("docker", "logs", "--tail", "30", n)
				t.Logf("docker logs %s:\n%s", n, out)
			}
		}
	}()
	tr.waitMembers(3)

	sh := newShop(t, tr.procs[0].server, "containers@example.com", "ct")
	q := `query($p:Int){ products(page:$p, pageSize: 1000) { total items { name } } }`
	var acked []string
	for n := range 20 {
		name := fmt.Sprintf("ct-%d", n)
		sh.query(`mutation($n:String!){ createProduct(input: {name: $n}) { id } }`, map[string]any{"n": name}).data(t)
		acked = append(acked, name) // a 200 with data: acknowledged
	}
	d.run("docker", "kill", tr.names[0])
	tr.procs[0] = nil
	tr.waitMembers(2)
	for i := 1; i < 3; i++ {
		tr.waitAll(t, sh.on(tr.procs[i].server), q, acked, i)
	}
	// A write during the outage, through a survivor: two of three is a majority.
	sh.on(tr.procs[1].server).query(`mutation { createProduct(input: {name: "during"}) { id } }`, nil).data(t)
	acked = append(acked, "during")

	d.run("docker", "start", tr.names[0])
	tr.connect(0)
	tr.waitMembers(3)
	for i := range 3 {
		tr.waitAll(t, sh.on(tr.procs[i].server), q, acked, i)
	}
	// The image's HEALTHCHECK (mockgql healthcheck) reports the node healthy.
	deadline := time.Now().Add(60 * time.Second)
	for {
		status := d.run("docker", "inspect", "-f", "{{.State.Health.Status}}", tr.names[1])
		if status == "healthy" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("container %s: health %q, want healthy", tr.names[1], status)
		}
		time.Sleep(time.Second)
	}
	if user := d.run("docker", "inspect", "-f", "{{.Config.User}}", tr.names[1]); user != "65532:65532" {
		t.Errorf("the image runs as %q, want 65532:65532 (non-root)", user)
	}
}

// network creates a user network with a subnet of its own (Docker gives
// fixed addresses, which --cluster-bind needs, only on a subnet the user
// configured): a /24 of 10.213.0.0/16 that no other network uses, which
// Docker refuses to overlap.
func (tr *containerTrio) network(name string) netip.Prefix {
	t := tr.d.t
	start := os.Getpid() % 250
	for i := range 250 {
		prefix := netip.MustParsePrefix(fmt.Sprintf("10.213.%d.0/24", (start+i)%250))
		if _, err := tr.d.try("docker", "network", "create", "--subnet", prefix.String(), name); err == nil {
			tr.d.cleanup("docker", "network", "rm", name)
			return prefix
		} else if !strings.Contains(err.Error(), "overlap") {
			t.Fatalf("docker network create: %v", err)
		}
	}
	t.Fatal("no free /24 in 10.213.0.0/16 for a Docker network")
	return netip.Prefix{}
}

// connect points procs[i] at container i's published HTTP port (a
// restarted container may get another one) and waits until it is ready.
func (tr *containerTrio) connect(i int) {
	p := &proc{server: &server{t: tr.d.t, base: tr.d.hostURL(tr.names[i])}}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if r, err := p.try("GET", "/readyz", nil); err == nil && r.Status == 200 {
			break
		}
		if time.Now().After(deadline) {
			tr.d.t.Fatalf("container %s (%s) is not ready", tr.names[i], p.base)
		}
		time.Sleep(200 * time.Millisecond)
	}
	tr.procs[i] = p
}

// waitMembers waits until every running container sees n members.
func (tr *containerTrio) waitMembers(n int) {
	(&trio{t: tr.d.t, procs: tr.procs}).waitMembers(n)
}

// waitAll waits (failover takes a few seconds) until node i serves every
// name in want, and fails naming the missing ones if it does not.
func (tr *containerTrio) waitAll(t *testing.T, sh *shop, q string, want []string, i int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := sh.query(q, map[string]any{"p": 1})
		var missing []string
		if r.Status == 200 && r.JSON["errors"] == nil {
			have := names(t, r)
			for _, n := range want {
				if !have[n] {
					missing = append(missing, n)
				}
			}
			if len(missing) == 0 {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("container %d: %d acknowledged writes missing (%v), last answer %d %s", i+1, len(missing), missing, r.Status, r.Raw)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// composeCluster checks deploy/docker-compose.yml with Debian's
// docker-compose: `config` accepts it, and the cluster it describes starts
// from the image and answers /readyz with three members on every node. It
// runs a copy under a project name of its own, with the image tag of this
// test and its HTTP ports left to Docker (the file publishes 8081-8083,
// which the machine may be using).
func composeCluster(t *testing.T, tag string) {
	d := dockerCLI{t}
	file := filepath.Join(deployDir, "docker-compose.yml")
	d.run("docker-compose", "-f", file, "config", "-q")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	copyText := regexp.MustCompile(`"127\.0\.0\.1:808\d:8080"`).ReplaceAllString(string(b), `"127.0.0.1::8080"`)
	if strings.Count(copyText, `"127.0.0.1::8080"`) != 3 {
		t.Fatalf("the compose file does not publish 127.0.0.1:808N:8080 on three nodes")
	}
	copyPath := filepath.Join(t.TempDir(), "docker-compose.yml")
	if err := os.WriteFile(copyPath, []byte(copyText), 0o644); err != nil {
		t.Fatal(err)
	}
	project := fmt.Sprintf("mgqctest%d", os.Getpid())
	compose := []string{"-p", project, "-f", copyPath}
	t.Setenv("MOCKGQL_IMAGE", tag)
	d.cleanup("docker-compose", append(compose, "down", "-v", "--timeout", "5")...)
	d.run("docker-compose", append(compose, "up", "-d")...)
	tr := &containerTrio{d: d}
	for i := range 3 {
		tr.names[i] = fmt.Sprintf("%s_mgq%d_1", project, i+1)
	}
	defer func() {
		if t.Failed() {
			out, _ := d.try("docker-compose", append(compose, "logs", "--tail", "30")...)
			t.Logf("docker-compose logs:\n%s", out)
		}
	}()
	for i := range 3 {
		tr.connect(i)
	}
	tr.waitMembers(3)
}
