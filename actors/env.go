package actors

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/persistence"
)

// Store is the durable storage grains checkpoint to. persistence.DB
// implements it. Write is atomic and durable when it returns nil.
type Store interface {
	Get(kind, id string) ([]byte, error)
	Write(puts ...persistence.Put) error
	Scan(kind, prefix string, fn func(id string, v []byte) error) error
	DeletePrefix(kind, prefix string) error
}

// deadlineWriter is a Store whose writes can end by a deadline (the
// cluster's replicated store: a replication round waits for replicas no
// longer than the request that caused it may take).
type deadlineWriter interface {
	WriteBy(deadline time.Time, puts ...persistence.Put) error
}

// Caller reaches a grain by kind and identity; cluster.Node implements it.
// It returns the grain's reply message or an error when the grain could not
// be reached before ctx's deadline.
type Caller interface {
	Request(ctx context.Context, kind, identity string, msg any) (any, error)
}

// Clock tells the time; tests move it instead of sleeping.
type Clock interface{ Now() time.Time }

// SystemClock is the real clock.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }

// Config holds the settings grains need (docs/reference/bounds.md).
type Config struct {
	Limits model.Limits
	// AnswerCacheBytes bounds the node's cache of repeated queries'
	// answers (runtime_answers.go); 0 turns it off.
	AnswerCacheBytes int64
	// IdleAfter passivates a grain that received no call for this long.
	IdleAfter time.Duration
	// MaxDepth and MaxPageSize bound runtime queries.
	MaxDepth, MaxPageSize int
	// BaseURL is the public address (--base-url; "" when it defaults to
	// the listener's): generated image URLs are under it.
	BaseURL string
	// BcryptCost is the password hashing cost (tests lower it).
	BcryptCost int
	// EdgeLimits (IPLimit, MaxDatasetBytes) are shared with the HTTP layer.
	model.EdgeLimits
	// ActorIdle frees an actor slot after this long without requests.
	ActorIdle time.Duration
	// ActorIssueLimit is the actor tokens a key may request a minute.
	ActorIssueLimit int
	// IPLimitManagement, IPLimitPublic and IPLimitCreate are the per-IP
	// windows of /graphql and /datasets, of /public-graphql, and of
	// sign-ups and sessionless guest and session projects, a minute (0 =
	// off); LoginAttempts the consecutive failed logins per e-mail before
	// its back-off (0 = off).
	IPLimitManagement, IPLimitPublic, IPLimitCreate, LoginAttempts int
	// GuestDailyCalls and SessionDailyCalls are the daily runtime quotas
	// of a guest session and of a session project.
	GuestDailyCalls, SessionDailyCalls int
	// SessionTTL is a session project's life; AdoptionTTL an adoption link's.
	SessionTTL, AdoptionTTL time.Duration
	// InviteLimit is the invitations an account may send an hour;
	// InviteTTL an invitation's life (and its link's).
	InviteLimit int
	InviteTTL   time.Duration
	// SweepEvery is how often a node deletes expired session projects.
	SweepEvery time.Duration
	// GuestTTL is how long a guest project lives after its last use (an
	// edit, or a call while its grain is active, or its activation); the
	// sweeper then deletes it like an expired session project. 0: guest
	// projects never expire.
	GuestTTL time.Duration
	// SandboxTTL forgets a sandbox that received no request for this long
	// (sandbox.go); SandboxBytes bounds the stored size of one sandbox's
	// changes. 0: no expiry, no byte bound.
	SandboxTTL   time.Duration
	SandboxBytes int64
	// StateBytes bounds the stored size of one named state's changes
	// (mockstate.go). 0: no bound.
	StateBytes int64
	// AdoptionLinks is how many live adoption links a session project
	// keeps; a new one beyond it replaces the oldest.
	AdoptionLinks int
	// NoRequestLog keeps no runtime request log (Project.requestLog stays
	// empty); faults still apply. The log holds query texts and variables
	// in memory, which an operator may not want.
	NoRequestLog bool
	// FlushEvery is how often grains checkpoint counters (quotas, IP
	// windows, lease touches): the most a crash can lose of them.
	FlushEvery time.Duration
	// SessionKey signs the session IDs this node mints (session_id.go);
	// every node of a cluster needs the same one (serve passes the JWT
	// secret). Empty: a random key, good for this process only.
	SessionKey []byte
	// PoolCurators are the account IDs and user e-mails (lower case) whose
	// dataset uploads go to the curated pool every project, session and
	// guest sees (--pool-curators); anyone else's belong to their account.
	PoolCurators []string
	// UploadHold is how long the room an upload holds in its account's
	// dataset limits lasts unless settled (account_limits.go): longer than
	// an upload takes, so that the room of one whose node died comes back.
	UploadHold time.Duration
}

// The sizes `mockgql serve` gives the per-IP windows and the login
// back-off unless told otherwise (docs/reference/bounds.md). DefaultConfig
// leaves them off (0), so that a node built in a test or a program counts
// no windows it did not ask for; serve's flags turn them on with these.
const (
	DefaultIPLimitManagement = 600
	DefaultIPLimitPublic     = 600
	DefaultIPLimitCreate     = 10
	DefaultLoginAttempts     = 10
)

// DefaultConfig returns the defaults of docs/reference/bounds.md, with the
// per-IP windows and the login back-off off (see DefaultIPLimitManagement).
func DefaultConfig() Config {
	return Config{Limits: model.DefaultLimits(), IdleAfter: 10 * time.Minute, MaxDepth: 10, MaxPageSize: 1000,
		BcryptCost: 10, EdgeLimits: model.DefaultEdgeLimits(), ActorIdle: 15 * time.Minute, ActorIssueLimit: 10,
		GuestDailyCalls: 500, SessionDailyCalls: 100, FlushEvery: time.Second,
		SessionTTL: 24 * time.Hour, AdoptionTTL: 15 * time.Minute, SweepEvery: 10 * time.Second,
		UploadHold:  time.Hour,
		InviteLimit: 20, InviteTTL: 7 * 24 * time.Hour,
		GuestTTL: 30 * 24 * time.Hour, AdoptionLinks: 5, AnswerCacheBytes: DefaultAnswerCacheBytes,
		SandboxTTL: DefaultSandboxTTL, SandboxBytes: DefaultSandboxBytes, StateBytes: DefaultStateBytes}
}

// Env is what every grain of a node shares. It is built once per node by
// cmd/mockgql (or a test) and captured by the grain producers; nothing here
// is a package global, so several nodes can run in one process.
type Env struct {
	Store  Store
	Caller Caller
	Pool   *Pool
	// Local holds the read snapshots of this node's grains; nil disables
	// the local read path (every read is a grain call).
	Local  *Local
	Clock  Clock
	Config Config
	Log    *slog.Logger
	// Metrics receives grain activation counts; may be nil.
	Metrics Metrics
	// QueryCache is the node's query cache, shared by every project's
	// runtime, so that its size is bounded per node, not per project; nil
	// gives each runtime its own (tests).
	QueryCache *graphql.Cache
	// Compiles is the node's budget of contract compiles (slots shared by
	// every project, failures remembered per model version); nil gives
	// each compile its own (tests).
	Compiles *graphql.Compiles
	// Bounds are the node's bounds of one runtime request (response
	// bytes, list items, errors) and its response byte budget.
	Bounds exec.Bounds
	// Broadcast hands a project's realtime events to every node of the
	// cluster (cluster.Node.Broadcast; docs/using/realtime.md); nil
	// publishes none.
	Broadcast func(data []byte)
	// runtime is the node's runtime path and grain client, built once on
	// first use (RuntimePath) from the fields above.
	runtimeOnce sync.Once
	runtime     *RuntimePath
}

// Metrics counts grain lifecycle events; http's Prometheus registry implements it.
type Metrics interface {
	GrainActivated(kind string)
	GrainPassivated(kind string)
}

// RuntimePath returns the node's runtime path, which the use cases
// (package app's Runtime and MCP services) and the project grains' serve
// handler share. Env must not be copied after it.
func (e *Env) RuntimePath() *RuntimePath {
	e.runtimeOnce.Do(func() { e.runtime = newRuntimePath(newGrains(e)) })
	return e.runtime
}
