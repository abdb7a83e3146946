package main

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The peer (BENCH_PEERS=1): the same varied queries against PostGraphile 4
// over PostgreSQL, the tables indexed as one would (btree on price, name
// and category, a pg_trgm GIN index on name for ILIKE), both pinned to the
// same core as mockgql and measured side by side with it. Debian's
// postgresql is installed when missing (apt-get) and PostGraphile with its
// filter plugin at pinned versions (npm), into the bench's temporary
// folder; nothing of it runs in make test. Loopback only.

const (
	postgraphileVersion = "4.14.1"
	filterPluginVersion = "2.3.0"
)

// pgPeer is a PostgreSQL server and PostGraphile in front of it.
type pgPeer struct {
	dir       string
	pgPort    int
	postgres  *exec.Cmd
	graphile  *exec.Cmd
	graphAddr string
}

// peerBench measures the varied scenario against the peer at both sizes.
func peerBench(srv *mockgql, fx *fixture, o options, rep *report) error {
	p, err := startPeer(o)
	if err != nil {
		return err
	}
	defer p.stop()
	sizes := []struct {
		name, table, op string
		seed            uint64
	}{{"10k", "small", "mixSmall", 1}, {"1M", "large", "mixLarge", 2}}
	if o.rowsLarge == 0 {
		sizes = sizes[:1]
	}
	for _, sz := range sizes {
		args := mixArgSets(mixCount, sz.seed)
		var ours, theirs []string
		for _, a := range args {
			ours = append(ours, fmt.Sprintf(`{"query":%q}`, a.text(sz.op)))
			theirs = append(theirs, fmt.Sprintf(`{"query":%q}`, a.postgraphile(sz.table)))
		}
		for _, b := range theirs[:20] { // warm up, and check the peer answers
			if resp, err := postTo(p.graphAddr, "/graphql", b); err != nil || strings.Contains(resp, `"errors"`) {
				return fmt.Errorf("postgraphile: %v %.300s", err, resp)
			}
		}
		m, c, err := sideBySide(o.duration, mixLoader(srv.addr, requests(srv.addr, fx.runtimePath, ours, "X-API-Key", fx.key), o.conns),
			mixLoader(p.graphAddr, requests(p.graphAddr, "/graphql", theirs), o.conns))
		if err != nil {
			return err
		}
		rep.addNamed("list mix "+sz.name+" vs PostGraphile", "PostGraphile "+postgraphileVersion+" + PostgreSQL", m, c)
	}
	return nil
}

// postgraphile is the query as PostGraphile with the connection filter
// plugin takes it.
func (a mixArgs) postgraphile(table string) string {
	var f []string
	var price []string
	if a.minPrice != nil {
		price = append(price, fmt.Sprintf("greaterThanOrEqualTo: %d", *a.minPrice))
	}
	if a.maxPrice != nil {
		price = append(price, fmt.Sprintf("lessThanOrEqualTo: %d", *a.maxPrice))
	}
	if len(price) > 0 {
		f = append(f, "price: {"+strings.Join(price, ", ")+"}")
	}
	if a.category != nil {
		f = append(f, fmt.Sprintf("category: {equalTo: %q}", *a.category))
	}
	if a.q != nil {
		f = append(f, fmt.Sprintf("name: {includesInsensitive: %q}", *a.q))
	}
	dir := "ASC"
	if a.desc {
		dir = "DESC"
	}
	filter := ""
	if len(f) > 0 {
		filter = ", filter: {" + strings.Join(f, ", ") + "}"
	}
	conn := "all" + strings.ToUpper(table[:1]) + table[1:] + "s"
	return fmt.Sprintf("{ %s(first: 20, offset: %d, orderBy: [%s_%s]%s) { totalCount nodes { id name price category } } }",
		conn, (a.page-1)*20, strings.ToUpper(a.sortField), dir, filter)
}

// pgBin finds a PostgreSQL server binary, installing Debian's package
// when there is none.
func pgBin(name string) (string, error) {
	find := func() string {
		m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/" + name)
		if len(m) == 0 {
			return ""
		}
		return m[len(m)-1]
	}
	if p := find(); p != "" {
		return p, nil
	}
	fmt.Println("installing postgresql (apt-get) ...")
	if out, err := exec.Command("apt-get", "install", "-y", "postgresql").CombinedOutput(); err != nil {
		return "", fmt.Errorf("apt-get install postgresql: %v\n%s", err, out)
	}
	if p := find(); p != "" {
		return p, nil
	}
	return "", fmt.Errorf("no %s after installing postgresql", name)
}

// asPostgres runs a command as the postgres user when we are root (the
// server refuses to run as root).
func asPostgres(name string, args ...string) *exec.Cmd {
	if os.Geteuid() == 0 {
		return exec.Command("runuser", append([]string{"-u", "postgres", "--", name}, args...)...)
	}
	return exec.Command(name, args...)
}

func startPeer(o options) (*pgPeer, error) {
	initdb, err := pgBin("initdb")
	if err != nil {
		return nil, err
	}
	postgres := filepath.Join(filepath.Dir(initdb), "postgres")
	dir, err := os.MkdirTemp("", "mockgql-peer-")
	if err != nil {
		return nil, err
	}
	p := &pgPeer{dir: dir}
	pgdata := filepath.Join(dir, "pg")
	if err := os.Mkdir(pgdata, 0o700); err != nil {
		return nil, err
	}
	_ = os.Chmod(dir, 0o755)
	if os.Geteuid() == 0 {
		if out, err := exec.Command("chown", "-R", "postgres", pgdata).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("chown: %v %s", err, out)
		}
	}
	if out, err := asPostgres(initdb, "-D", pgdata, "-U", "bench", "--auth=trust", "-E", "UTF8", "--no-sync").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	if p.pgPort, err = freePort(); err != nil {
		return nil, err
	}
	args := []string{"-D", pgdata, "-p", strconv.Itoa(p.pgPort), "-k", pgdata, "-c", "listen_addresses=127.0.0.1",
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "shared_buffers=256MB", "-c", "jit=off"}
	p.postgres = pinnedCmd(asPostgres(postgres, args...))
	p.postgres.Stderr = os.Stderr
	if err := p.postgres.Start(); err != nil {
		return nil, err
	}
	if err := p.load(o); err != nil {
		p.stop()
		return nil, err
	}
	if err := p.startGraphile(); err != nil {
		p.stop()
		return nil, err
	}
	return p, nil
}

// psql runs SQL (and stdin, for COPY) as the bench user over loopback.
func (p *pgPeer) psql(db, sql string, stdin []byte) error {
	cmd := exec.Command("psql", "-h", "127.0.0.1", "-p", strconv.Itoa(p.pgPort), "-U", "bench", "-d", db, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("psql %.80s: %v\n%s", sql, err, out)
	}
	return nil
}

// load creates the database, the two tables with the benchmark's rows,
// and their indexes.
func (p *pgPeer) load(o options) error {
	var err error
	for i := 0; i < 100; i++ {
		if err = p.psql("postgres", "select 1", nil); err == nil {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err != nil {
		return err
	}
	if err := p.psql("postgres", "create database bench", nil); err != nil {
		return err
	}
	if err := p.psql("bench", "create extension pg_trgm", nil); err != nil {
		return err
	}
	for _, t := range []struct {
		name string
		n    int
	}{{"small", o.rowsSmall}, {"large", o.rowsLarge}} {
		if t.n == 0 {
			continue
		}
		if err := p.psql("bench", fmt.Sprintf("create table %s (id integer primary key, name text, price double precision, category text, in_stock boolean, sku text)", t.name), nil); err != nil {
			return err
		}
		if err := p.psql("bench", fmt.Sprintf("copy %s from stdin with (format csv)", t.name), csvRows(t.n)); err != nil {
			return err
		}
		for _, s := range []string{
			"create index on %s (price)", "create index on %s (name)", "create index on %s (category)",
			"create index on %s using gin (name gin_trgm_ops)", "vacuum analyze %s",
		} {
			if err := p.psql("bench", fmt.Sprintf(s, t.name), nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// csvRows is rows(n) as CSV.
func csvRows(n int) []byte {
	var b bytes.Buffer
	for i := 1; i <= n; i++ {
		price := float64((i*7919)%100000) / 100
		fmt.Fprintf(&b, "%d,Product %d,%s,cat-%d,%t,SKU-%08d\n", i, i, strconv.FormatFloat(price, 'f', -1, 64), i%50, i%3 != 0, i)
	}
	return b.Bytes()
}

// startGraphile installs PostGraphile and its filter plugin at pinned
// versions and serves the database.
func (p *pgPeer) startGraphile() error {
	gdir := filepath.Join(p.dir, "graphile")
	if err := os.Mkdir(gdir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(gdir, "package.json"), []byte(`{"private": true}`), 0o644); err != nil {
		return err
	}
	fmt.Println("installing postgraphile (npm) ...")
	npm := exec.Command("npm", "install", "--no-audit", "--no-fund", "--save-exact",
		"postgraphile@"+postgraphileVersion, "postgraphile-plugin-connection-filter@"+filterPluginVersion)
	npm.Dir = gdir
	if out, err := npm.CombinedOutput(); err != nil {
		return fmt.Errorf("npm install: %v\n%s", err, out)
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	p.graphAddr = "127.0.0.1:" + strconv.Itoa(port)
	cmd := pinnedCmd(exec.Command("node", filepath.Join(gdir, "node_modules", "postgraphile", "cli.js"),
		"-c", fmt.Sprintf("postgres://bench@127.0.0.1:%d/bench", p.pgPort), "--host", "127.0.0.1", "--port", strconv.Itoa(port),
		"--append-plugins", "postgraphile-plugin-connection-filter", "--disable-query-log", "--disable-default-mutations"))
	cmd.Dir = gdir
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	p.graphile = cmd
	for i := 0; i < 300; i++ {
		if _, err := postTo(p.graphAddr, "/graphql", `{"query":"{ __typename }"}`); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("postgraphile did not start")
}

func (p *pgPeer) stop() {
	if p.graphile != nil {
		_ = p.graphile.Process.Kill()
		_, _ = p.graphile.Process.Wait()
	}
	if p.postgres != nil {
		_ = p.postgres.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _, _ = p.postgres.Process.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = p.postgres.Process.Kill()
		}
	}
	_ = os.RemoveAll(p.dir)
}

// pinnedCmd puts cmd on core 0, as pinned does for ours.
func pinnedCmd(cmd *exec.Cmd) *exec.Cmd {
	if _, err := exec.LookPath("taskset"); err != nil {
		return cmd
	}
	c := exec.Command("taskset", append([]string{"-c", "0", cmd.Path}, cmd.Args[1:]...)...)
	c.Dir, c.Env = cmd.Dir, cmd.Env
	return c
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// postTo posts a JSON body and returns the answer; a status other than
// 200 is an error.
func postTo(addr, path, body string) (string, error) {
	resp, err := http.Post("http://"+addr+path, "application/json", strings.NewReader(body))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	if resp.StatusCode != 200 {
		return b.String(), fmt.Errorf("%s: %d", path, resp.StatusCode)
	}
	return b.String(), nil
}
