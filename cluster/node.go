package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	protocluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/identitylookup/disthash"
	"github.com/asynkron/protoactor-go/remote"
	"github.com/hashicorp/memberlist"
	cmap "github.com/orcaman/concurrent-map"
	"google.golang.org/grpc"

	"github.com/mockgql/mockgql/persistence"
)

// Config configures a node. The zero value of every field but Kinds has a
// working default (see DefaultConfig).
type Config struct {
	// Name is the cluster's name; nodes of other clusters are ignored.
	Name string
	// NodeName is this node's human name (logs, metrics).
	NodeName string
	// Bind is the memberlist host:port. Port 0 picks a free one.
	Bind string
	// Remote is the gRPC remote's listen address, host:port (grain calls
	// and replication between nodes). Empty: Bind's host on a free port. An
	// empty or wildcard host listens on all interfaces and advertises
	// Bind's host; port 0 picks a free one. Pinning the port lets a
	// firewall or NetworkPolicy name it.
	Remote string
	// Join lists memberlist addresses of nodes to join.
	Join []string
	// Kinds maps a grain kind to the producer of its actors.
	Kinds map[string]actor.Producer
	// RequestTimeout bounds a grain call whose context has no deadline.
	RequestTimeout time.Duration
	// Tune adjusts memberlist timings (tests make failure detection fast).
	Tune func(*memberlist.Config)
	// Logger receives the node's and protoactor's logs (protoactor at Warn).
	Logger *slog.Logger
	// DB is the node's bbolt file; the node serves its replicas to others
	// and Store() replicates grain writes through it.
	DB *persistence.DB
	// Store configures replication.
	Store StoreConfig
	// OnFenced is called when the cluster has blocked this node (declared
	// it dead); the node must stop serving. Nil: only logged.
	OnFenced func()
	// Protocol is the version of the messages grains exchange
	// (actors.ProtocolVersion): a node of another version is not admitted
	// to the cluster, and the refusal is logged naming both versions.
	Protocol int
	// OnBroadcast receives what any member's Broadcast sent, this node's
	// included, one call at a time per sender, in its order; it must not
	// block. Nil: broadcasts are dropped.
	OnBroadcast func(data []byte)
}

// DefaultConfig returns a single-node configuration on 127.0.0.1.
func DefaultConfig() Config {
	return Config{Name: "mockgql", NodeName: "node", Bind: "127.0.0.1:0", RequestTimeout: 5 * time.Second, Logger: slog.Default()}
}

// Node is a running cluster member. Its methods are safe for concurrent use.
type Node struct {
	cfg     Config
	system  *actor.ActorSystem
	cluster *protocluster.Cluster
	prov    *provider
	store   *Store
	stopped atomic.Bool
	maxSeen atomic.Int64 // the largest cluster size seen (see replicaSet)
}

// shrinkRegistry sets concurrent-map's shard count, once per process,
// before Start makes the first actor system (the package never sets a
// third-party global merely by being imported).
//
// protoactor's process registry is 1024 concurrent maps of concurrent-map's
// default 32 shards each: 32768 maps, 4 MB of the heap that every garbage
// collection scans, although the 1024 buckets alone already spread the
// locks. Two shards a map keep the registry at 130 KB; the collector's work
// per cycle on an idle node drops by about half, which is what a flood of
// small requests (refusals) pays for. It must be set before the first map
// is made: protoactor makes them only when an actor system starts.
var shrinkRegistry = sync.OnceFunc(func() { cmap.SHARD_COUNT = 2 })

// maxGRPCMessage bounds one gRPC message between nodes.
const maxGRPCMessage = 128 << 20

// ErrUnavailable is returned when the owning grain cannot be reached before
// the deadline (ownership in flux, node down). Callers answer 503.
var ErrUnavailable = errors.New("grain unavailable")

// Start starts a node and joins the cluster. It returns once this node is a
// member: its provider has started (joined its seeds, if any) and
// published a topology that holds it.
func Start(cfg Config) (*Node, error) {
	def := DefaultConfig()
	if cfg.Name == "" {
		cfg.Name = def.Name
	}
	if cfg.Bind == "" {
		cfg.Bind = def.Bind
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = def.RequestTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = def.Logger
	}
	host, portText, err := net.SplitHostPort(cfg.Bind)
	if err != nil {
		return nil, fmt.Errorf("cluster bind %q: %w", cfg.Bind, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return nil, fmt.Errorf("cluster bind %q: bad port", cfg.Bind)
	}
	libLog := cfg.Logger.With("lib", "protoactor")
	shrinkRegistry()
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(levelFloor{h: libLog.Handler(), min: slog.LevelWarn})
	}))
	var kinds []*protocluster.Kind
	for name, producer := range cfg.Kinds {
		kinds = append(kinds, protocluster.NewKind(name, actor.PropsFromProducer(producer)))
	}
	prov := newProvider(host, port, cfg.Protocol, cfg.Join, cfg.Tune, cfg.Logger)
	// Replication pages are up to a few MB and protoactor batches many
	// messages into one gRPC message: raise gRPC's 4 MB default.
	rhost, rport, advertise, err := remoteAddr(cfg.Remote, host)
	if err != nil {
		return nil, err
	}
	ropts := []remote.ConfigOption{remote.WithServerOptions(grpc.MaxRecvMsgSize(maxGRPCMessage)),
		remote.WithCallOptions(grpc.MaxCallSendMsgSize(maxGRPCMessage), grpc.MaxCallRecvMsgSize(maxGRPCMessage))}
	if advertise != "" {
		ropts = append(ropts, remote.WithAdvertisedHost(advertise))
	}
	if rport != 0 { // protoactor panics when it cannot listen: say why instead
		l, err := net.Listen("tcp", net.JoinHostPort(rhost, strconv.Itoa(rport)))
		if err != nil {
			return nil, fmt.Errorf("cluster remote: %w", err)
		}
		l.Close()
	}
	rcfg := remote.Configure(rhost, rport, ropts...)
	ccfg := protocluster.Configure(cfg.Name, prov, disthash.New(), rcfg,
		protocluster.WithKinds(kinds...), protocluster.WithRequestTimeout(cfg.RequestTimeout))
	c := protocluster.New(system, ccfg)
	n := &Node{cfg: cfg, system: system, cluster: c, prov: prov}
	n.maxSeen.Store(1)
	if cfg.DB != nil {
		if b, err := cfg.DB.Get("meta", "cluster-size"); err == nil && b != nil {
			if v, err := strconv.Atoi(string(b)); err == nil {
				n.maxSeen.Store(int64(v))
			}
		}
		n.store = newStore(cfg.DB, cfg.Store, n)
		rep := &replica{db: cfg.DB, records: cfg.Store.Records, log: cfg.Logger}
		if _, err := system.Root.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return rep }), replicaName); err != nil {
			return nil, fmt.Errorf("replica actor: %w", err)
		}
	}
	if err := n.startBroadcaster(); err != nil {
		return nil, fmt.Errorf("broadcast actor: %w", err)
	}
	// Record the cluster's size when a topology shows it, not at this
	// node's next replicated write: a node cut off (or restarted alone)
	// before it wrote anything must still know it alone is no majority.
	system.EventStream.Subscribe(func(evt any) {
		if t, ok := evt.(*protocluster.ClusterTopology); ok {
			n.seenSize(len(t.Members))
		}
	})
	// protoactor's StartMember ends in a fixed one-second sleep, after our
	// provider has started and published the topology with this member:
	// wait for the provider instead (a start costs tests a second each).
	// A provider that fails makes StartMember panic, as it always did.
	go c.StartMember()
	if err := <-prov.started; err != nil {
		return nil, fmt.Errorf("cluster member: %w", err)
	}
	go n.watchFence()
	return n, nil
}

// remoteAddr splits Config.Remote into the gRPC remote's listen host and
// port, and the host:port to advertise when the listen host is a wildcard
// (empty: protoactor advertises the listener's own address). A wildcard
// with port 0 cannot be advertised before it listens, so it is refused.
func remoteAddr(addr, bindHost string) (host string, port int, advertise string, err error) {
	if addr == "" {
		return bindHost, 0, "", nil
	}
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, "", fmt.Errorf("cluster remote %q: %w", addr, err)
	}
	port, err = strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, "", fmt.Errorf("cluster remote %q: bad port", addr)
	}
	if ip := net.ParseIP(host); host != "" && (ip == nil || !ip.IsUnspecified()) {
		return host, port, "", nil
	}
	if port == 0 {
		return "", 0, "", fmt.Errorf("cluster remote %q: a wildcard host needs a fixed port", addr)
	}
	return host, port, net.JoinHostPort(bindHost, portText), nil
}

// watchFence calls OnFenced once this node must stop serving (see
// fenceReason): the others treat it as dead and may have taken over its
// grains, so it must not answer any more.
func (n *Node) watchFence() {
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for range t.C {
		if n.stopped.Load() {
			return
		}
		if why := n.fenceReason(); why != "" {
			n.cfg.Logger.Error("fenced: "+why, "node", n.cfg.NodeName, "id", n.system.ID)
			if n.cfg.OnFenced != nil {
				n.cfg.OnFenced()
			}
			return
		}
	}
}

// fenceReason says why this node must stop serving, or "" if it need not.
//
// protoactor blocks a member's ID for good once it left the topology, so
// when a network partition heals the two sides never merge: each blocked
// the other's members, and memberlist now holds them alive again. Whoever
// is not in a majority of the live members (counting one whose death is
// being refuted, see provider) fences itself (restarted, it gets a new ID
// nobody blocked, joins and catches up); the majority goes on and sees it
// die. A partition shorter than this node's own failure detection, which
// only the others noticed, leaves it blocking nobody: protoactor never
// tells a member it was blocked, so the others advertise whom they
// blocked in their memberlist metadata, and a node blocked by a member it
// did not block fences as soon as that gossip reaches it (about a gossip
// round after the heal; protoactor's own gossip would take 20 s). The
// check of our own ID in protoactor's list is for versions that gossip it.
func (n *Node) fenceReason() string {
	blocked := n.cluster.GetBlockedMembers()
	if blocked.Contains(n.system.ID) {
		return "the cluster blocked this node"
	}
	if by := n.prov.blockedBy(); len(by) > 0 {
		return fmt.Sprintf("members dropped this node while it did not notice (a short partition, or a false suspicion): %s", strings.Join(by, ", "))
	}
	alive := n.prov.live()
	var back []string
	for _, m := range alive {
		if blocked.Contains(m.Id) {
			back = append(back, m.Id)
		}
	}
	if len(back) > 0 && len(alive)-len(back) < majority(len(alive)) {
		return fmt.Sprintf("a partition healed and this node is on its minority side: it blocked %d of the %d live members (%s)",
			len(back), len(alive), strings.Join(back, ", "))
	}
	return ""
}

// CatchUp waits (a few seconds at most) until this node sees the peers it
// joined, then pulls every grain for which a peer holds newer records.
// A node calls it before it serves.
func (n *Node) CatchUp(peers int) error {
	if n.store == nil || peers == 0 {
		return nil
	}
	deadline := time.Now().Add(5 * time.Second)
	for n.Members() < 2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return n.store.CatchUp(ctx)
}

// Store is the replicated grain store (nil when Config.DB was nil).
func (n *Node) Store() *Store { return n.store }

// memberList is the current topology's members.
func (n *Node) memberList() []*protocluster.Member {
	return n.cluster.MemberList.Members().Members()
}

// replicaSet is the replicas of a grain key: its top r ranked members,
// and how many of them make a quorum. The quorum counts the replicas the
// grain should have — r capped by the largest cluster this node has been
// part of — not just the members alive now: with two of three nodes down,
// the survivor alone is no majority and refuses writes.
func (n *Node) replicaSet(key string, r int) (set []string, quorum int) {
	ms := n.memberList()
	set = []string{n.system.Address()} // not a member yet: only this node
	if len(ms) > 0 {
		set = ranked(key, ms)
	}
	size := n.seenSize(max(1, len(ms)))
	set = set[:min(r, len(set))]
	return set, majority(min(r, size))
}

// seenSize records and returns the largest cluster size seen, kept in the
// store so that a restart does not forget it.
func (n *Node) seenSize(now int) int {
	for {
		cur := n.maxSeen.Load()
		if int64(now) <= cur {
			return int(cur)
		}
		if n.maxSeen.CompareAndSwap(cur, int64(now)) {
			if n.cfg.DB != nil {
				_ = n.cfg.DB.Write(persistence.Put{Kind: "meta", ID: "cluster-size", Value: []byte(strconv.Itoa(now))})
			}
			return now
		}
	}
}

// System is the node's actor system (grains use it to send from goroutines).
func (n *Node) System() *actor.ActorSystem { return n.system }

// Addr is the memberlist address other nodes join.
func (n *Node) Addr() string { return n.prov.Addr() }

// Members is the number of members this node currently sees.
func (n *Node) Members() int { return n.cluster.MemberList.Length() }

// Ready reports whether this node is a member of a topology that includes itself.
func (n *Node) Ready() bool { return n.cluster.MemberList.ContainsMemberID(n.system.ID) }

// Request calls the grain kind/identity with msg and returns its reply. It
// gives up at ctx's deadline (or RequestTimeout) with ErrUnavailable, never
// later than about one attempt past it. msg must be a protobuf message.
func (n *Node) Request(ctx context.Context, kind, identity string, msg any) (any, error) {
	timeout := n.cfg.RequestTimeout
	if dl, ok := ctx.Deadline(); ok {
		timeout = time.Until(dl)
	}
	if timeout <= 0 {
		return nil, fmt.Errorf("%s/%s: %w (deadline passed)", kind, identity, ErrUnavailable)
	}
	resp, err := n.cluster.Request(identity, kind, msg,
		protocluster.WithTimeout(timeout),
		protocluster.WithRetryCount(3),
		protocluster.WithRetryAction(backoff))
	if err != nil {
		return nil, fmt.Errorf("%s/%s: %w: %v", kind, identity, ErrUnavailable, err)
	}
	return resp, nil
}

// backoff is a real exponential backoff (the library's default sleeps nanoseconds).
func backoff(i int) int {
	i++
	time.Sleep(time.Duration(i*i) * 10 * time.Millisecond)
	return i
}

// Stop leaves the cluster. Graceful hands this node's grains off (they stop
// and write final checkpoints) and tells the others; it takes a few seconds.
func (n *Node) Stop(graceful bool) {
	n.stopped.Store(true)
	n.cluster.Shutdown(graceful)
	if !graceful { // protoactor's non-graceful shutdown leaves these running
		_ = n.prov.Shutdown(false)
		n.cluster.Remote.Shutdown(false)
	}
}

// levelFloor drops records below min: protoactor logs a lot at Info.
type levelFloor struct {
	h   slog.Handler
	min slog.Level
}

func (l levelFloor) Enabled(ctx context.Context, lv slog.Level) bool {
	return lv >= l.min && l.h.Enabled(ctx, lv)
}
func (l levelFloor) Handle(ctx context.Context, r slog.Record) error { return l.h.Handle(ctx, r) }
func (l levelFloor) WithAttrs(a []slog.Attr) slog.Handler {
	return levelFloor{h: l.h.WithAttrs(a), min: l.min}
}
func (l levelFloor) WithGroup(g string) slog.Handler {
	return levelFloor{h: l.h.WithGroup(g), min: l.min}
}
