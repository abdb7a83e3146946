package main

import (
	"github.com/mockgql/mockgql/internal/upstream"

	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hashicorp/memberlist"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/app"
	"github.com/mockgql/mockgql/cluster"
	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/http"
	"github.com/mockgql/mockgql/persistence"
	"github.com/mockgql/mockgql/realtime"
)

// serveConfig is every setting of mockgql serve (docs/reference/flags.md).
type serveConfig struct {
	HTTP, Data, BaseURL, AppURL, JWTSecret string
	NoDemo                                 bool
	NoRequestLog                           bool
	UpstreamPrivate                        bool
	MaxDatasetBytes                        int64
	QueryTimeout                           time.Duration
	Node, ClusterBind, ClusterRemote       string
	Join                                   list
	LogLevel                               string
	DebugAddr                              string
	GCHeadroom, GCMaxGrowth                int64
	QueryCacheMB                           int
	AnswerCacheMB                          int
	IPLimit, ActorIssueLimit               int
	GuestDailyCalls, SessionDailyCalls     int
	SessionProjects, SessionTables         int
	SessionAttributes                      int
	QuotaStarter, QuotaPro, QuotaTeam      int64
	ActorIdle                              time.Duration
	SessionTTL, AdoptionTTL, SweepEvery    time.Duration
	Replicas                               int
	TrustedProxies                         list
	Surface                                surfaceConfig  // flags.go
	Teams                                  teamsConfig    // flags_teams.go
	Model                                  modelConfig    // flags_model.go
	Realtime                               realtimeConfig // flags_realtime.go
	PoolCurators                           list
	Plans                                  planConfig // flags_plans.go
	// bcryptCost is not a flag: tests lower it to keep sign-ups fast.
	bcryptCost int
	// clock is not a flag: tests move the time of the windows and quotas
	// instead of waiting for a minute's edge (nil: the system clock).
	clock actors.Clock
}

// testChild, when set (only by the tests' TestMain, in a test binary
// re-executed as a `mockgql serve` process), edits the parsed settings:
// the test clock and the tests' bcrypt cost.
var testChild func(*serveConfig)

func serveFlags(fs *flag.FlagSet, c *serveConfig) {
	host, _ := os.Hostname()
	// Defaults come from the packages' DefaultConfig (docs/reference/bounds.md), written there once.
	a, h := actors.DefaultConfig(), http.DefaultConfig()
	fs.StringVar(&c.HTTP, "http", h.Addr, "HTTP listener")
	fs.StringVar(&c.Data, "data", "./data", "data folder (bbolt files)")
	fs.StringVar(&c.BaseURL, "base-url", "", "public address of the API (default: from --http)")
	fs.StringVar(&c.AppURL, "app-url", "", "public address of the board (default: --base-url)")
	fs.StringVar(&c.JWTSecret, "jwt-secret", "", "signs session JWTs (default: generated once and kept in the data folder)")
	fs.BoolVar(&c.NoDemo, "no-demo", false, "skip the demo data pool and project")
	fs.BoolVar(&c.NoRequestLog, "no-request-log", false, "keep no runtime request log (Project.requestLog stays empty; faults still apply)")
	fs.BoolVar(&c.UpstreamPrivate, "upstream-private", false, "let the drift check (checkUpstream, checkOperations) reach loopback, private and this node's own addresses, for a real API on the same network")
	fs.Int64Var(&c.MaxDatasetBytes, "max-dataset-bytes", a.MaxDatasetBytes, "largest dataset upload in bytes")
	fs.DurationVar(&c.QueryTimeout, "query-timeout", h.QueryTimeout, "runtime query time limit")
	fs.StringVar(&c.Node, "node", host, "this node's name in the cluster")
	fs.StringVar(&c.ClusterBind, "cluster-bind", "", "memberlist address host:port (default: 127.0.0.1 on a free port, a cluster of one)")
	fs.StringVar(&c.ClusterRemote, "cluster-remote", "", "gRPC remote address host:port between nodes (grain calls, replication); pin the port for a firewall. Empty host or 0.0.0.0: all interfaces, advertising --cluster-bind's host (default: --cluster-bind's host on a free port)")
	fs.Var(&c.Join, "join", "comma-separated memberlist addresses of nodes to join")
	fs.IntVar(&c.Replicas, "replicas", cluster.DefaultReplicas, "copies of every grain's checkpoint, owner included (capped at the cluster size); a write is acknowledged once a majority holds it")
	fs.StringVar(&c.LogLevel, "log-level", "info", "debug, info, warn or error")
	fs.IntVar(&c.IPLimit, "ip-limit", a.IPLimit, "runtime requests a minute per client IP (0 = off)")
	fs.Var(&c.TrustedProxies, "trusted-proxies", "comma-separated CIDRs whose X-Forwarded-For names the client IP")
	fs.Var(&c.PoolCurators, "pool-curators", "comma-separated account IDs and user e-mails whose dataset uploads go to the curated pool every project, session and guest sees (anyone else's belong to their account)")
	fs.Int64Var(&c.QuotaStarter, "quota-starter", a.Limits.StarterQuota, "STARTER plan: runtime requests a day")
	fs.Int64Var(&c.QuotaPro, "quota-professional", a.Limits.ProfessionalQuota, "PROFESSIONAL plan: runtime requests a month")
	fs.Int64Var(&c.QuotaTeam, "quota-team", a.Limits.TeamQuota, "TEAM plan: runtime requests a month")
	fs.IntVar(&c.GuestDailyCalls, "guest-daily-calls", a.GuestDailyCalls, "runtime calls a day of a guest session")
	fs.IntVar(&c.SessionDailyCalls, "session-daily-calls", a.SessionDailyCalls, "runtime calls a day of a session project")
	fs.IntVar(&c.SessionProjects, "session-projects", a.Limits.SessionProjects, "live session projects a session may hold")
	fs.IntVar(&c.SessionTables, "session-tables", a.Limits.SessionTables, "tables of a session or guest project")
	fs.IntVar(&c.SessionAttributes, "session-attributes", a.Limits.SessionAttributes, "attributes a table of a session or guest project")
	fs.DurationVar(&c.ActorIdle, "actor-idle", a.ActorIdle, "an actor token expires after this long without requests")
	fs.IntVar(&c.ActorIssueLimit, "actor-issue-limit", a.ActorIssueLimit, "actor tokens a key may request a minute")
	fs.DurationVar(&c.SessionTTL, "session-ttl", a.SessionTTL, "life of a session project")
	fs.DurationVar(&c.AdoptionTTL, "adoption-ttl", a.AdoptionTTL, "life of a one-time adoption link")
	fs.DurationVar(&c.SweepEvery, "sweep-every", a.SweepEvery, "how often expired session projects are deleted")
	fs.IntVar(&c.AnswerCacheMB, "answer-cache-mb", actors.DefaultAnswerCacheBytes>>20, "the node's cache of repeated runtime queries' answers, shared by all its projects, in MB (0: off)")
	fs.IntVar(&c.QueryCacheMB, "query-cache-mb", graphql.DefaultCacheRows*graphql.CacheRowBytes>>20, "the node's cache of filtered and sorted row lists and resolved overlays, shared by all its projects, in MB")
	fs.Int64Var(&c.GCHeadroom, "gc-headroom", defaultGCHeadroom, "while the live heap is smaller, collect garbage once per this many bytes allocated rather than at every doubling (0: Go's default; GOGC in the environment overrides)")
	fs.Int64Var(&c.GCMaxGrowth, "gc-max-growth", defaultGCMaxGrowth, "while the live heap is larger, collect garbage once per this many bytes allocated rather than at every doubling, so resident memory stays near the live heap (0: Go's doubling)")
	fs.StringVar(&c.DebugAddr, "debug-addr", "", "serve Go's pprof profiles on this address (off when empty; keep it private)")
	surfaceFlags(fs, &c.Surface)
	planFlags(fs, &c.Plans)
	teamsFlags(fs, &c.Teams)
	modelFlags(fs, &c.Model)
	realtimeFlags(fs, &c.Realtime)
}

func serve(args []string) error {
	var c serveConfig
	fset := flag.NewFlagSet("serve", flag.ContinueOnError)
	serveFlags(fset, &c)
	if err := parse(fset, args); err != nil {
		return err
	}
	if testChild != nil {
		testChild(&c)
	}
	log := newLogger(c.LogLevel)
	startGCTuner(uint64(max(c.GCHeadroom, 0)), uint64(max(c.GCMaxGrowth, 0)), log)
	if c.DebugAddr != "" {
		go servePprof(c.DebugAddr, log)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	n, err := start(c, log)
	if err != nil {
		return err
	}
	if !c.NoDemo {
		seeded := make(chan error, 1)
		go func() { seeded <- n.seedDemo() }()
		select {
		case err := <-seeded:
			if err != nil {
				n.stop(false)
				return fmt.Errorf("demo: %w", err)
			}
		case s := <-sig: // stop cleanly even while seeding
			log.Info("shutting down during demo seeding", "signal", s.String())
			n.stop(true)
			return nil
		}
	}
	if c.NoDemo { // seedDemo prints it next to the demo's addresses otherwise
		fmt.Fprintf(os.Stdout, "\nBoard (sign up, log in, or try without an account):\n  %s/\n\n", n.srv.AppURL())
	}
	log.Info("mockgql serving", "http", n.srv.BaseURL(), "node", c.Node, "cluster", n.node.Addr())
	s := <-sig
	log.Info("shutting down", "signal", s.String())
	n.stop(true)
	return nil
}

func newLogger(level string) *slog.Logger {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		lv = slog.LevelInfo
	}
	return slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: lv}))
}

// running is a started node: store, cluster member, service and HTTP server.
type running struct {
	stopSweep context.CancelFunc
	log       *slog.Logger
	db        *persistence.DB
	node      *cluster.Node
	svc       *app.Service
	srv       *http.Server
}

func start(c serveConfig, log *slog.Logger) (*running, error) {
	log = quietFullDisk(log, time.Minute)
	if err := os.MkdirAll(c.Data, 0o700); err != nil {
		return nil, err
	}
	db, err := persistence.Open(filepath.Join(c.Data, "mockgql.db"))
	if err != nil {
		return nil, err
	}
	secret, err := jwtSecret(c)
	if err != nil {
		db.Close()
		return nil, err
	}
	metrics := http.NewMetrics()
	acfg := actors.DefaultConfig()
	acfg.MaxDatasetBytes = c.MaxDatasetBytes
	acfg.AnswerCacheBytes = int64(max(c.AnswerCacheMB, 0)) << 20
	acfg.IPLimit, acfg.ActorIssueLimit, acfg.ActorIdle = c.IPLimit, c.ActorIssueLimit, c.ActorIdle
	acfg.GuestDailyCalls, acfg.SessionDailyCalls = c.GuestDailyCalls, c.SessionDailyCalls
	acfg.SessionTTL, acfg.AdoptionTTL, acfg.SweepEvery = c.SessionTTL, c.AdoptionTTL, c.SweepEvery
	acfg.NoRequestLog = c.NoRequestLog
	acfg.BaseURL = strings.TrimRight(c.BaseURL, "/")
	// Session limits left at 0 (tests that build a serveConfig) keep the documented defaults.
	setPositive(&acfg.Limits.SessionProjects, c.SessionProjects)
	setPositive(&acfg.Limits.SessionTables, c.SessionTables)
	setPositive(&acfg.Limits.SessionAttributes, c.SessionAttributes)
	acfg.Limits.StarterQuota, acfg.Limits.ProfessionalQuota, acfg.Limits.TeamQuota = c.QuotaStarter, c.QuotaPro, c.QuotaTeam
	if c.bcryptCost > 0 {
		acfg.BcryptCost = c.bcryptCost
	}
	c.Surface.applyGrains(&acfg)
	c.Plans.apply(&acfg)
	c.Teams.apply(&acfg)
	c.Model.apply(&acfg)
	for _, cur := range c.PoolCurators {
		acfg.PoolCurators = append(acfg.PoolCurators, strings.ToLower(cur))
	}
	acfg.SessionKey = secret // sessions minted on one node are the cluster's (every node has this secret)
	var clock actors.Clock = actors.SystemClock{}
	if c.clock != nil {
		clock = c.clock
	}
	env := &actors.Env{Local: &actors.Local{}, Clock: clock, Config: acfg, Log: log, Metrics: metrics,
		QueryCache: graphql.NewCache(max(c.QueryCacheMB, 1) << 20 / graphql.CacheRowBytes), Bounds: c.Surface.bounds(),
		Compiles: graphql.NewCompiles(graphql.DefaultCompileSlots())}
	bind := c.ClusterBind
	if bind == "" {
		bind = "127.0.0.1:0"
	}
	hub := realtime.NewHub(c.Realtime.config())
	var rtime *app.Realtime // made once the service is; a broadcast before it has no subscriber to reach
	var rtimeReady atomic.Pointer[app.Realtime]
	onBroadcast := func(data []byte) {
		if r := rtimeReady.Load(); r != nil {
			r.Deliver(data)
		}
	}
	node, err := cluster.Start(cluster.Config{NodeName: c.Node, OnBroadcast: onBroadcast, Bind: bind, Remote: c.ClusterRemote, Join: c.Join, Kinds: actors.Kinds(env), Logger: log,
		Tune: fastFailureDetection, DB: db, OnFenced: fenced(log), Protocol: actors.ProtocolVersion,
		Store: cluster.StoreConfig{Replicas: c.Replicas, KeyOf: actors.GrainKeyOf, Records: actors.GrainRecords, Everywhere: actors.Everywhere}})
	if err != nil {
		db.Close()
		return nil, err
	}
	env.Store, env.Caller, env.Broadcast = node.Store(), node, node.Broadcast
	env.Pool = actors.NewPool(node.Store())
	// Abandoned dataset uploads are collected only from a node that caught
	// up (its catalog is complete) and only once they are a day old (an
	// upload may be under way on another node): see Pool.CollectGarbage.
	// A node that cannot catch up must not serve: it may lack the newest
	// copy of grains it is a replica of. A few tries (a peer's connection
	// may still be forming), then it exits; its supervisor restarts it.
	var caught error
	for try := range 3 {
		if caught = node.CatchUp(len(c.Join)); caught == nil {
			break
		}
		log.Warn("catching up with the cluster failed; trying again", "try", try+1, "err", caught)
		time.Sleep(time.Duration(try+1) * time.Second)
	}
	if caught != nil {
		node.Stop(false)
		db.Close()
		return nil, fmt.Errorf("catching up with the cluster: %w (not serving stale state)", caught)
	}
	if err := env.Pool.CollectGarbage(time.Now(), 24*time.Hour); err != nil {
		log.Warn("dataset garbage collection failed", "err", err)
	}
	svc := app.NewService(env)
	svc.Management.Upstream = &upstream.Client{AllowPrivate: c.UpstreamPrivate}
	rtime = app.NewRealtime(svc, hub)
	rtimeReady.Store(rtime)
	hcfg := http.DefaultConfig()
	hcfg.Addr, hcfg.BaseURL, hcfg.AppURL, hcfg.JWTSecret = c.HTTP, strings.TrimRight(c.BaseURL, "/"), strings.TrimRight(c.AppURL, "/"), secret
	hcfg.EdgeLimits, hcfg.QueryTimeout, hcfg.Logger, hcfg.Ready = acfg.EdgeLimits, c.QueryTimeout, log, node.Ready
	hcfg.TrustedProxies, hcfg.Members = c.TrustedProxies, node.Members
	c.Surface.applyHTTP(&hcfg)
	hcfg.Bounds = env.Bounds
	var srv *http.Server
	if hcfg.MCP, err = newMCP(c, acfg, svc, secret, func() string { return srv.BaseURL() }, log); err == nil {
		srv, err = http.NewServer(hcfg, backends(svc), metrics)
	}
	if err == nil {
		srv.SetSubscriptions(srv.NewSubscriptions(c.Realtime.config(), rtime))
	}
	if err == nil {
		err = srv.Start()
	}
	if err != nil {
		node.Stop(false)
		db.Close()
		return nil, err
	}
	sweepCtx, stopSweep := context.WithCancel(context.Background())
	go env.RuntimePath().Client().RunSweeper(sweepCtx)
	return &running{stopSweep: stopSweep, log: log, db: db, node: node, svc: svc, srv: srv}, nil
}

// backends serves every surface of the HTTP layer with its service of
// svc. The literal is also the compile-time check that each service
// satisfies its surface's interface (http.Edge, Runtime, Management,
// Public, Previewer, Adopter, DatasetImporter).
func backends(svc *app.Service) http.Backends {
	return http.Backends{Edge: svc.Edge, Runtime: svc.Runtime, Management: svc.Management, Public: svc.Public,
		Preview: svc.Preview, Adoption: svc.Adoption, Datasets: svc.Datasets}
}

// setPositive sets *to to v when v is positive.
func setPositive(to *int, v int) {
	if v > 0 {
		*to = v
	}
}

// stop drains HTTP, leaves the cluster (graceful: grains stop and
// checkpoint) and closes the store.
func (r *running) stop(graceful bool) {
	r.stopSweep()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.srv.Shutdown(ctx); err != nil {
		r.log.Warn("http drain incomplete", "err", err)
	}
	r.node.Stop(graceful)
	if err := r.db.Close(); err != nil {
		r.log.Warn("closing the store", "err", err)
	}
}

// fastFailureDetection tunes memberlist so a crashed node is noticed in
// about a second (the LAN defaults take 5 to 25): a probe every 250 ms
// that times out after 150 ms, then a suspicion of 3 probe intervals
// (0.75 s) once the other members confirm it. memberlist's own awareness
// (Lifeguard) stretches the timeouts of a node that is itself slow, so a
// loaded node does not declare healthy ones dead.
func fastFailureDetection(c *memberlist.Config) {
	c.ProbeInterval, c.ProbeTimeout, c.SuspicionMult = 250*time.Millisecond, 150*time.Millisecond, 3
	c.GossipInterval, c.PushPullInterval = 100*time.Millisecond, 5*time.Second
}

// fenced is what a node does when the cluster has declared it dead: it
// must not answer with state others now own, so it exits (a supervisor
// restarts it, and it rejoins as a new member and catches up).
func fenced(log *slog.Logger) func() {
	return func() {
		log.Error("this node was declared dead by the cluster; exiting so it cannot serve stale state")
		os.Exit(3)
	}
}

// jwtSecret is the flag's value, or one generated once and kept in the data folder.
func jwtSecret(c serveConfig) ([]byte, error) {
	if c.JWTSecret != "" {
		if len(c.JWTSecret) < 32 {
			return nil, errors.New("--jwt-secret needs at least 32 characters")
		}
		return []byte(c.JWTSecret), nil
	}
	path := filepath.Join(c.Data, "jwt.secret")
	b, err := os.ReadFile(path)
	if err == nil && len(b) >= 32 {
		return b, nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	b = []byte(hex.EncodeToString(raw))
	return b, os.WriteFile(path, b, 0o600)
}
