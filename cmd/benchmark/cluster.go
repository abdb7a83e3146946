package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// clusterBench compares the 10k list query through a 3-node cluster
// (requests spread over the nodes, all three on core 0 like the single
// node) with one node, and the latency of an acknowledged write with three
// replicas with one.
func clusterBench(bin, dir string, single *mockgql, fxSingle *fixture, o options, rep *report) error {
	ml := make([]string, 3)
	for i := range ml {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		ml[i] = ln.Addr().String()
		ln.Close()
	}
	var nodes []*mockgql
	for i := range 3 {
		var join []string
		for j := range 3 {
			if j != i {
				join = append(join, ml[j])
			}
		}
		extra := []string{"--ip-limit", "0", "--cluster-bind", ml[i], "--join", strings.Join(join, ","), "--node", fmt.Sprintf("n%d", i+1)}
		if os.Getenv("BENCH_CLUSTER_PPROF") != "" { // node i serves pprof on 127.0.0.1:1910<i>
			extra = append(extra, "--debug-addr", fmt.Sprintf("127.0.0.1:1910%d", i))
		}
		n, err := startMockgql(bin, filepath.Join(dir, fmt.Sprintf("cluster%d", i)), extra...)
		if err != nil {
			return err
		}
		defer n.stop()
		nodes = append(nodes, n)
	}
	if err := waitMembers(nodes, 3); err != nil {
		return err
	}
	fx, err := setup(nodes[0], options{rowsSmall: o.rowsSmall})
	if err != nil {
		return err
	}
	body := []byte(fmt.Sprintf(`{"query":%q}`, fx.scenarios[0].query))
	var addrs []string
	var reqs [][]byte
	for _, n := range nodes {
		addrs = append(addrs, n.addr)
		reqs = append(reqs, httpRequest(n.addr, fx.runtimePath, body, "X-API-Key", fx.key))
	}
	one := httpRequest(single.addr, fxSingle.runtimePath, body, "X-API-Key", fxSingle.key)
	if _, err := loadSpread(addrs, reqs, o.conns, 500*time.Millisecond, 200); err != nil {
		return err
	}
	spread := func(d time.Duration) (result, error) { return loadSpread(addrs, reqs, o.conns, d, 200) }
	c, s, err := sideBySide(o.duration, spread, loader(single.addr, one, o.conns, 200))
	if err != nil {
		return err
	}
	if c.errors > 0 {
		return fmt.Errorf("%d of %d cluster requests failed", c.errors, c.n)
	}
	rep.addNamed("list 10k, 3-node cluster vs 1 node", "1 node", c, s)
	return writeLatency(nodes[0], fx, single, fxSingle, rep)
}

// writeLatency measures acknowledged mutations of one project at
// concurrency 1 and 8 on the cluster (three replicas, a majority
// acknowledges) and on one node.
func writeLatency(cn *mockgql, fx *fixture, single *mockgql, fxSingle *fixture, rep *report) error {
	body := []byte(`{"query":"mutation { createSmall(input: {name: \"bench\"}) { id } }"}`)
	for _, conns := range []int{1, 8} {
		c, s, err := sideBySide(2*time.Second, loader(cn.addr, httpRequest(cn.addr, fx.runtimePath, body, "X-API-Key", fx.key), conns, 200),
			loader(single.addr, httpRequest(single.addr, fxSingle.runtimePath, body, "X-API-Key", fxSingle.key), conns, 200))
		if err != nil {
			return err
		}
		if c.errors > 0 || s.errors > 0 {
			return fmt.Errorf("acknowledged writes at c=%d: %d of %d (cluster) and %d of %d (one node) failed", conns, c.errors, c.n, s.errors, s.n)
		}
		rep.addNamed(fmt.Sprintf("acknowledged write, 3 replicas vs 1 (c=%d)", conns), "1 replica", c, s)
	}
	return nil
}

func waitMembers(nodes []*mockgql, n int) error {
	deadline := time.Now().Add(20 * time.Second)
	for _, node := range nodes {
		for {
			out, err := node.get("/readyz")
			if err == nil && strings.Contains(out, fmt.Sprintf(`"members":%d`, n)) {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("node %s does not see %d members: %v %s", node.addr, n, err, out)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return nil
}
