package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The schema group's peers: graphql-yoga with @graphql-tools/mock
// (testdata/schemapeers/yoga/yoga.cjs) and graphql-faker, serving the
// group's SDL, each pinned to core 0 as mockgql is. Each has a folder of
// its own (graphql-faker's graphql 14 must not meet yoga's 16) whose
// package-lock.json pins every version, installed with npm ci when its
// node_modules lacks that lock (as make js-deps does); a failed install
// fails the group. graphql-faker is 2.0.0-rc.25: the 2.0.0 on npm holds no
// code.

// schemaPeersDir holds the peers' packages, from the repository's root.
const schemaPeersDir = "cmd/benchmark/testdata/schemapeers"

// schemaPeer is one peer: its name as the report prints it, its folder
// under schemaPeersDir and the command that serves sdlFile on port.
type schemaPeer struct {
	name, dir string
	cmd       func(dir, sdlFile string, port int) *exec.Cmd
}

var schemaPeerList = []schemaPeer{
	{"graphql-yoga 5.24.1 + @graphql-tools/mock 9.1.14", "yoga", func(dir, sdlFile string, port int) *exec.Cmd {
		return exec.Command("node", filepath.Join(dir, "yoga.cjs"), sdlFile, strconv.Itoa(port))
	}},
	{"graphql-faker 2.0.0-rc.25", "faker", func(dir, sdlFile string, port int) *exec.Cmd {
		return exec.Command("node", filepath.Join(dir, "node_modules", "graphql-faker", "dist", "index.js"), sdlFile, "--port", strconv.Itoa(port))
	}},
}

// schemaPeers measures the group's queries on mockgql against each peer
// and notes mockgql's ratio to the best of them.
func schemaPeers(srv *mockgql, path, key, sdl string, set *mixSet, dir string, o options, rep *report) error {
	for _, p := range schemaPeerList {
		if err := installSchemaPeer(filepath.Join(schemaPeersDir, p.dir)); err != nil {
			return err
		}
	}
	sdlFile := filepath.Join(dir, "schema-peers.graphql")
	if err := os.WriteFile(sdlFile, []byte(sdl), 0o600); err != nil {
		return err
	}
	least, best := 0.0, ""
	for _, p := range schemaPeerList {
		ratio, err := schemaPeerRun(p, srv, path, key, sdlFile, set, o, rep)
		if err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
		if best == "" || ratio < least {
			least, best = ratio, p.name
		}
	}
	r := rep.find("schema: 50 nested queries, 24 types")
	rep.note("schema: %.2f of the ceiling (target ≥ 0.4); %.1f× the best SDL mock peer, %s (target ≥ 10×), each measured side by side with mockgql",
		r.ours.rps()/r.bare.rps(), least, best)
	return nil
}

// schemaPeerRun starts p, checks it answers every query without errors,
// and measures it side by side with mockgql; it returns mockgql's
// requests a second over the peer's.
func schemaPeerRun(p schemaPeer, srv *mockgql, path, key, sdlFile string, set *mixSet, o options, rep *report) (float64, error) {
	port, err := freePort()
	if err != nil {
		return 0, err
	}
	cmd := pinnedCmd(p.cmd(filepath.Join(schemaPeersDir, p.dir), sdlFile, port))
	cmd.Env = append(os.Environ(), "NODE_ENV=production")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() }()
	addr := "127.0.0.1:" + strconv.Itoa(port)
	if err := waitGraphQL(addr); err != nil {
		return 0, fmt.Errorf("%w\n%s", err, stderr.String())
	}
	for _, b := range set.bodies { // warm up, and check the peer answers each query
		resp, err := postTo(addr, "/graphql", b)
		if err != nil || strings.Contains(resp, `"errors"`) || !strings.Contains(resp, `"data"`) {
			return 0, fmt.Errorf("%s: %v %.300s", b, err, resp)
		}
	}
	m, c, err := sideBySide(o.duration, mixLoader(srv.addr, requests(srv.addr, path, set.bodies, "X-API-Key", key), o.conns),
		mixLoader(addr, requests(addr, "/graphql", set.bodies), o.conns))
	if err != nil {
		return 0, err
	}
	if m.errors > 0 || c.errors > 0 {
		return 0, fmt.Errorf("%d of %d requests failed (peer: %d of %d)", m.errors, m.n, c.errors, c.n)
	}
	rep.addNamed("schema: 50 nested queries vs "+strings.Fields(p.name)[0], p.name, m, c)
	return m.rps() / c.rps(), nil
}

// waitGraphQL waits up to 30 s for a GraphQL server at addr.
func waitGraphQL(addr string) error {
	for range 300 {
		if _, err := postTo(addr, "/graphql", `{"query":"{ __typename }"}`); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("%s did not answer { __typename }", addr)
}

// installSchemaPeer runs npm ci in dir unless its node_modules already
// holds its lock.
func installSchemaPeer(dir string) error {
	want, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return fmt.Errorf("a peer's lock (run from the repository's root): %w", err)
	}
	stamp := filepath.Join(dir, "node_modules", ".mgq-installed-lock")
	if have, err := os.ReadFile(stamp); err == nil && bytes.Equal(have, want) {
		return nil
	}
	fmt.Println("installing the peer in", dir, "(npm ci) ...")
	npm := exec.Command("npm", "ci", "--no-audit", "--no-fund")
	npm.Dir = dir
	if out, err := npm.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ci in %s (the schema group needs npm and the registry): %v\n%s", dir, err, out)
	}
	return os.WriteFile(stamp, want, 0o644)
}
