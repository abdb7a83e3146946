package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mockgql/mockgql/contract"
)

// maxBatch bounds a JSON-RPC batch (protocol 2025-03-26 allows them; the
// SDK runs a batch's calls at once), so one request cannot fan out into
// thousands of tool calls and answers.
const maxBatch = 10

// Version is the implementation version the server announces.
const Version = "1.0.0"

// Limits are the public API's session-project limits, quoted in the tools'
// descriptions. The use cases enforce them; these numbers only tell the
// assistant what to expect.
type Limits struct {
	Projects, Tables, Attributes, DailyCalls int
	ProjectTTL, AdoptionTTL                  time.Duration
}

// Config configures a Server. Every field but Backend and Secret has a
// usable default from DefaultConfig.
type Config struct {
	Backend Backend
	// Secret seals session handles: at least 32 bytes, the same on every
	// node of a cluster and across restarts (the JWT secret).
	Secret []byte
	// BaseURL and AppURL return the public addresses used in links (the
	// runtime, the preview page, the adoption link); they are called per
	// call, as the listener's address is known only once it listens.
	BaseURL, AppURL func() string
	// MaxBodyBytes bounds a request body (1 MB, as /public-graphql);
	// MaxSchemaBodyBytes a single call of import_graphql_schema, of which
	// SchemaBodies are read at once (schema_body.go).
	MaxBodyBytes       int64
	MaxSchemaBodyBytes int64
	SchemaBodies       int
	// MaxResultBytes bounds a tool's structured result; a larger one is
	// refused with a hint to narrow the call.
	MaxResultBytes int
	// QueryTimeout bounds run_query's runtime call (--query-timeout, 5 s);
	// CallTimeout bounds any tool call (30 s: add_attributes makes up to
	// 30 acknowledged writes).
	QueryTimeout, CallTimeout time.Duration
	Limits                    Limits
	// CheckCreate counts a new session against the client IP's creation
	// window (the one /public-graphql's createSessionProject counts in),
	// with the IP the HTTP layer put in the context (model.ClientIP); nil
	// counts none.
	CheckCreate func(ctx context.Context, ip string) error
	Logger      *slog.Logger
}

// DefaultConfig returns the limits and bounds of docs/reference/bounds.md ("MCP").
func DefaultConfig() Config {
	return Config{MaxBodyBytes: 1 << 20, MaxSchemaBodyBytes: 2*contract.MaxDocumentBytes + 1<<20, SchemaBodies: 2, MaxResultBytes: 256 << 10, QueryTimeout: 5 * time.Second, CallTimeout: 30 * time.Second,
		Limits: Limits{Projects: 1, Tables: 20, Attributes: 30, DailyCalls: 100, ProjectTTL: 24 * time.Hour, AdoptionTTL: 15 * time.Minute}}
}

// Server is mockgql's MCP server: the session-project flow of the public
// API as MCP tools, resources and a prompt, served over MCP's Streamable
// HTTP transport (Handler) or any other SDK transport (MCP). It keeps no
// per-session state: a session is a handle the tools return and take back
// (see sealer), so every node of a cluster serves every session, before
// and after a restart. All methods are safe for concurrent use.
type Server struct {
	cfg    Config
	log    *slog.Logger
	seal   *sealer
	mcp    *sdk.Server
	stream http.Handler
	// schemaBodies holds a token for each large import body being read.
	schemaBodies chan struct{}
}

// New builds a Server.
func New(cfg Config) (*Server, error) {
	def := DefaultConfig()
	if cfg.Backend == nil {
		return nil, errors.New("mcp: no Backend")
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = def.MaxBodyBytes
	}
	if cfg.MaxResultBytes <= 0 {
		cfg.MaxResultBytes = def.MaxResultBytes
	}
	if cfg.MaxSchemaBodyBytes <= 0 {
		cfg.MaxSchemaBodyBytes = def.MaxSchemaBodyBytes
	}
	if cfg.SchemaBodies <= 0 {
		cfg.SchemaBodies = def.SchemaBodies
	}
	if cfg.QueryTimeout <= 0 {
		cfg.QueryTimeout = def.QueryTimeout
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = def.CallTimeout
	}
	if cfg.Limits.Tables <= 0 {
		cfg.Limits = def.Limits
	}
	if cfg.BaseURL == nil {
		cfg.BaseURL = func() string { return "" }
	}
	if cfg.AppURL == nil {
		cfg.AppURL = cfg.BaseURL
	}
	seal, err := newSealer(cfg.Secret)
	if err != nil {
		return nil, err
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, log: log, seal: seal, schemaBodies: make(chan struct{}, cfg.SchemaBodies)}
	s.mcp = sdk.NewServer(&sdk.Implementation{Name: "mockgql", Title: "mockgql mock GraphQL backends", Version: Version},
		&sdk.ServerOptions{Instructions: s.instructions(), Capabilities: &sdk.ServerCapabilities{}, SchemaCache: sdk.NewSchemaCache()})
	s.addTools()
	s.addResources()
	s.addPrompts()
	// Stateless: the 2026-07-28 protocol the SDK implements has no sessions
	// (and the SDK serves it only statelessly); older clients get the same
	// service. DNS-rebinding protection is off because nothing here rides
	// on ambient credentials: a session is an explicit argument, and this
	// is a hosted service usually reached through a proxy on loopback.
	s.stream = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.mcp },
		&sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true, DisableLocalhostProtection: true,
			MaxRequestBodyBytes: max(cfg.MaxBodyBytes, cfg.MaxSchemaBodyBytes), Logger: log}) // ServeHTTP bounds the body first
	return s, nil
}

// MCP is the SDK server, for other transports (tests, in-memory bridges).
func (s *Server) MCP() *sdk.Server { return s.mcp }

// ServeHTTP serves MCP's Streamable HTTP transport (POST; GET and DELETE
// answer 405, as a stateless server has no stream to open or session to
// end). A body over MaxBodyBytes (but one import_graphql_schema call,
// schema_body.go) is refused with 413 and a JSON-RPC error
// before the SDK reads it, a body that is not JSON with a JSON-RPC parse
// error, and a batch of more than maxBatch messages; the SDK's other refusals become JSON-RPC errors too
// (rpcErrorWriter).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && r.Body != nil {
		body, ok := s.readBody(w, r)
		if !ok {
			return
		}
		if !json.Valid(body) {
			rpcError(w, http.StatusBadRequest, codeParseError, "parse error: the body is not JSON; send one JSON-RPC 2.0 message")
			return
		}
		if n := batchLen(body); n > maxBatch {
			rpcError(w, http.StatusBadRequest, codeInvalidRequest,
				fmt.Sprintf("a batch carries at most %d messages, this one %d; send one message a request", maxBatch, n))
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	rw := &rpcErrorWriter{ResponseWriter: w}
	s.stream.ServeHTTP(rw, r)
	rw.finish()
}

// instructions is the server's guide for assistants.
func (s *Server) instructions() string {
	l := s.cfg.Limits
	return fmt.Sprintf(`mockgql builds a mock GraphQL backend over real sample data, without an account.
Flow: create_session_project (keep its "session" and pass it to every other tool) → list_data_sources →
create_table for each entity (bound to an importCode) → add_attributes (bind fields to the dataset's field paths) →
create_relation → generate_operations → generate_views → run_query to check rows come back → describe_project →
get_adoption_link, and give the person the adoptionUrl (one use, %s) to open the project on the board.
Limits: %d project a session, %d tables, %d attributes a table, %d runtime calls a day, the project lives %s.`,
		span(l.AdoptionTTL), l.Projects, l.Tables, l.Attributes, l.DailyCalls, span(l.ProjectTTL))
}

// batchLen is the number of messages of a JSON-RPC batch, 0 if body (valid
// JSON) is not an array.
func batchLen(body []byte) int {
	if b := bytes.TrimLeft(body, " \t\r\n"); len(b) == 0 || b[0] != '[' {
		return 0
	}
	var msgs []json.RawMessage
	if json.Unmarshal(body, &msgs) != nil {
		return 0
	}
	return len(msgs)
}

// span writes a limit's duration for people: "24 hours", "15 minutes".
func span(d time.Duration) string {
	switch {
	case d >= time.Hour && d%time.Hour == 0:
		return plural(int(d/time.Hour), "hour")
	case d >= time.Minute && d%time.Minute == 0:
		return plural(int(d/time.Minute), "minute")
	}
	return d.String()
}
