// Package http is mockgql's HTTP layer: gin routes, credential extraction,
// error bodies, metrics and request logs. It decodes requests, calls the
// use cases through the small interfaces it declares per surface (see
// Backends), and encodes answers; it keeps no state of its own. No other
// package imports gin.
package http

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// Config configures a Server. Every field has a usable default from DefaultConfig.
type Config struct {
	// Addr is the listener address; port 0 picks a free one.
	Addr string
	// BaseURL and AppURL are the public addresses used in links; empty means
	// the listener's address.
	BaseURL, AppURL string
	// JWTSecret signs session JWTs (at least 32 bytes).
	JWTSecret []byte
	JWTTTL    time.Duration
	// MaxBodyBytes bounds runtime and public request bodies (1 MB).
	MaxBodyBytes int64
	// MaxManagementBodyBytes bounds /graphql bodies (importDataset carries up to 16 MB).
	MaxManagementBodyBytes int64
	// MaxSchemaBodyBytes bounds a /graphql or /public-graphql body that
	// imports or checks a GraphQL schema (schema_body.go); SchemaBodies
	// is how many bodies over their surface's bound a node reads at once.
	MaxSchemaBodyBytes int64
	SchemaBodies       int
	// EdgeLimits are the grains' (cmd/mockgql copies them): MaxDatasetBytes
	// bounds a streaming dataset upload; IPLimit > 0 turns the runtime's
	// per-IP window on (its size is the grains'); at 0 the client IP is
	// not worked out.
	model.EdgeLimits
	// QueryTimeout bounds one runtime query.
	QueryTimeout time.Duration
	// ManagementQueryTimeout bounds the validation of a /graphql or
	// /public-graphql request and the execution of a query there;
	// ManagementMutationTimeout the whole of a mutation there.
	ManagementQueryTimeout, ManagementMutationTimeout time.Duration
	// MaxCost is the cost budget of one /graphql or /public-graphql
	// operation (SurfaceConfig.MaxCost): 0 means DefaultMaxCost, a
	// negative value none.
	MaxCost int
	// TrustedProxies are the CIDRs whose X-Forwarded-For is believed; the
	// client IP is otherwise the peer address.
	TrustedProxies []string
	// IPLimitManagement and IPLimitPublic turn the per-IP windows of
	// /graphql and /datasets, and of /public-graphql, on (> 0); their
	// sizes are the grains' (Edge.CheckWindow).
	IPLimitManagement, IPLimitPublic int
	// Bounds limit the response of one /graphql or /public-graphql request
	// (the runtime's are the grains'); zero fields take the defaults.
	Bounds exec.Bounds
	// MaxIncrements caps the deferred fragments and streams a runtime
	// answer delivers apart (incremental.Split); 0 means
	// incremental.DefaultMax.
	MaxIncrements int
	// BodyTimeout is how long a request body may take to arrive after its
	// headers (a dataset upload: the longest pause), and the longest pause
	// of a client reading a large GraphQL answer (writeAnswer); 0 means 30s.
	BodyTimeout time.Duration
	// MaxConnsPerIP caps the connections one peer IP holds at once (0 = off).
	MaxConnsPerIP int
	// MetricsAddr, when set, serves /metrics on its own listener there
	// and not on Addr.
	MetricsAddr string
	// Ready reports readiness (cluster joined, store open); nil = always.
	Ready func() bool
	// Members is the number of cluster members this node sees; may be nil.
	Members func() int
	Logger  *slog.Logger

	// MCP serves the Model Context Protocol's Streamable HTTP transport at
	// /mcp (package mcp); nil leaves the route out. It bounds its own body.
	MCP http.Handler
	// Subscriptions serves WebSocket upgrades and event-stream requests on
	// /mock/{slug}/graphql (Server.NewSubscriptions; docs/using/
	// realtime.md); nil serves none. It may be set after NewServer, before
	// Start (SetSubscriptions).
	Subscriptions http.Handler
}

// DefaultMaxConnsPerIP is the connection cap `mockgql serve` sets unless
// told otherwise; DefaultConfig leaves the cap off (0), as a server built
// in a test or a program needs none.
const DefaultMaxConnsPerIP = 128

// DefaultConfig returns the defaults of docs/reference/bounds.md, with the
// connection cap off (see DefaultMaxConnsPerIP).
func DefaultConfig() Config {
	return Config{Addr: "127.0.0.1:8080", JWTTTL: 7 * 24 * time.Hour, MaxBodyBytes: 1 << 20,
		MaxManagementBodyBytes: 24 << 20, MaxSchemaBodyBytes: DefaultMaxSchemaBodyBytes, SchemaBodies: DefaultSchemaBodies, EdgeLimits: model.DefaultEdgeLimits(), QueryTimeout: 5 * time.Second,
		ManagementQueryTimeout: 10 * time.Second, ManagementMutationTimeout: 30 * time.Second, MaxCost: DefaultMaxCost,
		BodyTimeout: 30 * time.Second}
}

// Server serves every route of docs/reference/routes.md on one listener.
type Server struct {
	cfg     Config
	log     *slog.Logger
	b       Backends
	mgmt    *Surface
	public  *Surface
	metrics *Metrics
	engine  *gin.Engine
	handler http.Handler // the IP gate in front of engine
	srv     *http.Server
	ln      net.Listener
	demo    atomic.Pointer[demoRef] // board_demo.go
	cors    *corsCache              // cors.go
	streams streams                 // subscriptions.go
	msrv    *http.Server            // /metrics on MetricsAddr, or nil
	mln     net.Listener
	// schemaBodies holds one token for each schema import body being
	// read past its surface's bound (schema_body.go).
	schemaBodies chan struct{}
}

// NewServer builds a server over b, whose fields must all be set; Start
// begins listening.
func NewServer(cfg Config, b Backends, metrics *Metrics) (*Server, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	def := DefaultConfig()
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = def.MaxBodyBytes
	}
	if cfg.MaxManagementBodyBytes <= 0 {
		cfg.MaxManagementBodyBytes = def.MaxManagementBodyBytes
	}
	if cfg.MaxSchemaBodyBytes <= 0 {
		cfg.MaxSchemaBodyBytes = def.MaxSchemaBodyBytes
	}
	if cfg.SchemaBodies <= 0 {
		cfg.SchemaBodies = def.SchemaBodies
	}
	if cfg.MaxDatasetBytes <= 0 {
		cfg.MaxDatasetBytes = def.MaxDatasetBytes
	}
	if cfg.QueryTimeout <= 0 {
		cfg.QueryTimeout = def.QueryTimeout
	}
	if cfg.ManagementQueryTimeout <= 0 {
		cfg.ManagementQueryTimeout = def.ManagementQueryTimeout
	}
	if cfg.ManagementMutationTimeout <= 0 {
		cfg.ManagementMutationTimeout = def.ManagementMutationTimeout
	}
	if cfg.JWTTTL <= 0 {
		cfg.JWTTTL = def.JWTTTL
	}
	if cfg.BodyTimeout <= 0 {
		cfg.BodyTimeout = def.BodyTimeout
	}
	if len(cfg.JWTSecret) < 32 {
		return nil, errors.New("http: JWTSecret needs at least 32 bytes")
	}
	if metrics == nil {
		metrics = NewMetrics()
	}
	s := &Server{cfg: cfg, log: logger(cfg.Logger), b: b, metrics: metrics,
		cors: &corsCache{m: map[string]corsEntry{}, now: time.Now}, schemaBodies: make(chan struct{}, cfg.SchemaBodies)}
	return s, nil
}

// Start listens on cfg.Addr and serves in the background. It returns once
// the listener is open, so Addr is known.
func (s *Server) Start() error {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return err
	}
	if err := s.startMetrics(); err != nil {
		ln.Close()
		return err
	}
	s.ln = ln
	base := "http://" + ln.Addr().String()
	if s.cfg.BaseURL == "" {
		s.cfg.BaseURL = base
	}
	if s.cfg.AppURL == "" {
		s.cfg.AppURL = s.cfg.BaseURL
	}
	if err := s.buildSurfaces(); err != nil {
		ln.Close()
		return err
	}
	if s.engine, err = s.routes(); err != nil {
		ln.Close()
		return err
	}
	g, err := newGate(s, s.engine)
	if err != nil {
		ln.Close()
		return err
	}
	s.handler = g
	ln = limitConns(ln, s.cfg.MaxConnsPerIP, g.trustedPeer)
	s.srv = &http.Server{Handler: s.handler, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		MaxHeaderBytes: 64 << 10}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("http server stopped", "err", err)
		}
	}()
	return nil
}

// startMetrics serves /metrics on MetricsAddr, when set.
func (s *Server) startMetrics() error {
	if s.cfg.MetricsAddr == "" {
		return nil
	}
	ln, err := net.Listen("tcp", s.cfg.MetricsAddr)
	if err != nil {
		return fmt.Errorf("metrics listener: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.metrics.Handler())
	s.mln, s.msrv = ln, &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := s.msrv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("metrics server stopped", "err", err)
		}
	}()
	return nil
}

// MetricsAddr is the address of the /metrics listener, "" when /metrics
// is on the main one.
func (s *Server) MetricsAddr() string {
	if s.mln == nil {
		return ""
	}
	return s.mln.Addr().String()
}

func (s *Server) buildSurfaces() error {
	sc := SurfaceConfig{BaseURL: s.cfg.BaseURL, AppURL: s.cfg.AppURL,
		IssueToken: s.issueJWT, JWTTTL: s.cfg.JWTTTL, Demo: s.demoProject, Bounds: s.cfg.Bounds,
		MaxCost: s.cfg.MaxCost, QueryTimeout: s.cfg.ManagementQueryTimeout,
		CheckCreate: func(ctx context.Context, ip string) error { return s.b.Edge.CheckWindow(ctx, "create", ip) }}
	var err error
	if s.mgmt, err = NewManagementSurface(sc, s.b.Management); err != nil {
		return err
	}
	s.public, err = NewPublicSurface(sc, s.b.Public)
	return err
}

// Addr is the listener's address.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// BaseURL is the public base address.
func (s *Server) BaseURL() string { return s.cfg.BaseURL }

// Handler is the server's handler (for in-process benchmarks).
func (s *Server) Handler() http.Handler { return s.handler }

// Shutdown stops accepting requests and waits for those under way, up to ctx's deadline.
func (s *Server) Shutdown(ctx context.Context) error {
	s.endStreams() // subscriptions.go: net/http would wait for them
	if s.msrv != nil {
		_ = s.msrv.Shutdown(ctx)
	}
	return s.srv.Shutdown(ctx)
}

func (s *Server) routes() (*gin.Engine, error) {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	if err := r.SetTrustedProxies(s.cfg.TrustedProxies); err != nil {
		return nil, fmt.Errorf("trusted proxies: %w", err)
	}
	r.RemoteIPHeaders = []string{"X-Forwarded-For"}
	r.HandleMethodNotAllowed = true
	r.Use(s.recoverPanics, s.requestLog)
	r.GET("/", s.serveLanding) // the board's landing page (board.go)
	r.GET("/favicon.ico", s.serveFavicon)
	r.GET("/img/:spec", s.metricsFor("img"), s.serveImage) // img.go
	r.GET("/healthz", func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"status": "ok"}) })
	r.GET("/readyz", s.readyz)
	if s.cfg.MetricsAddr == "" {
		r.GET("/metrics", gin.WrapH(s.metrics.Handler()))
	}
	r.POST("/mock/:slug/graphql", s.corsRuntime, s.metricsFor("runtime"), s.serveRuntime)
	r.GET("/mock/:slug/graphql", s.corsRuntime, s.metricsFor("runtime"), s.serveRuntime)
	r.OPTIONS("/mock/:slug/graphql", s.corsRuntime, s.servePreflight) // cors.go
	r.POST("/runtime/actors", s.corsActors, s.metricsFor("actors"), s.serveIssueActor)
	r.DELETE("/runtime/actors", s.corsActors, s.metricsFor("actors"), s.serveReleaseActor)
	r.OPTIONS("/runtime/actors", s.servePreflight)
	r.GET("/graphql", s.metricsFor("management"), s.serveManagement)
	r.POST("/graphql", s.metricsFor("management"), s.serveManagement)
	r.POST("/public-graphql", s.metricsFor("public"), s.servePublic)
	r.POST("/datasets/:importCode", s.metricsFor("datasets"), s.serveDatasetUpload)
	r.GET("/auth/adopt/:token", s.metricsFor("adopt"), s.serveAdopt)
	r.GET("/board/*path", s.serveBoard)
	r.GET("/preview/:slug", s.servePreviewPage)
	r.GET("/preview/:slug/data", s.metricsFor("preview"), s.servePreviewData)
	if s.cfg.MCP != nil {
		mcp := func(c *gin.Context) { // the client IP rides along for the creation window
			s.cfg.MCP.ServeHTTP(c.Writer, c.Request.WithContext(model.WithClientIP(c.Request.Context(), c.ClientIP())))
		}
		r.POST("/mcp", s.metricsFor("mcp"), mcp)
		r.GET("/mcp", s.metricsFor("mcp"), mcp)
		r.DELETE("/mcp", s.metricsFor("mcp"), mcp)
	}
	r.NoRoute(func(c *gin.Context) {
		s.writeError(c, model.Errorf(model.CodeNotFound, "no route %s %s", c.Request.Method, c.Request.URL.Path))
	})
	r.NoMethod(func(c *gin.Context) {
		s.writeError(c, model.Errorf(model.CodeBadRequest, "method %s is not allowed on %s", c.Request.Method, c.Request.URL.Path))
	})
	return r, nil
}

func (s *Server) readyz(c *gin.Context) {
	if s.cfg.Ready != nil && !s.cfg.Ready() {
		s.writeError(c, &model.Error{Code: model.CodeUnavailable, Message: "this node has not joined the cluster yet", RetryAfter: 1})
		return
	}
	members := 1
	if s.cfg.Members != nil {
		members = s.cfg.Members()
	}
	c.JSON(http.StatusOK, gin.H{"status": "ready", "members": members})
}
