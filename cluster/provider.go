package cluster

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	protocluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/hashicorp/memberlist"
)

// memberMeta is what each node advertises through memberlist: enough for
// protoactor to address it. It must stay under memberlist.MetaMaxSize.
type memberMeta struct {
	Cluster string `json:"c"`
	// Proto is the grain protocol version the node speaks (Config.Protocol):
	// a member of another version is not admitted (NotifyAlive).
	Proto int      `json:"v,omitempty"`
	ID    string   `json:"i"`
	Host  string   `json:"h"`
	Port  int      `json:"p"`
	Kinds []string `json:"k"`
	// Blocked is the members this node's protoactor blocked (declared
	// dead for good) that memberlist lists alive again: protoactor never
	// tells a member it blocked it, so a member the others dropped during
	// a partition too short for it to notice would serve on, excluded,
	// until their protoactor gossip expires (20 s). Read from here, it
	// fences itself as soon as the partition heals (Node.fenceReason).
	Blocked []string `json:"b,omitempty"`
}

// maxAdvertisedBlocks bounds Blocked so that the metadata stays under
// memberlist.MetaMaxSize (512 bytes; an ID is 22 characters).
const maxAdvertisedBlocks = 8

// provider is a protoactor ClusterProvider backed by memberlist. It feeds the
// full member list to protoactor on every membership event and once a
// second (protoactor's gossip may block members between events).
//
// A member memberlist stops listing stays in that list for removalGrace:
// protoactor blocks a member's ID for good once it leaves the topology,
// while memberlist takes a death back when the member refutes it, which it
// does as soon as it hears of it. Deaths that get refuted happen: a false
// suspicion on a loaded machine, or, when a partition heals, the minority's
// last gossip declaring the majority's nodes dead reaching those nodes.
type provider struct {
	bindHost string
	bindPort int
	proto    int // the grain protocol version; members of another are refused
	join     []string
	tune     func(*memberlist.Config)
	log      *slog.Logger

	c        *protocluster.Cluster
	ml       *memberlist.Memberlist
	self     memberMeta
	meta     atomic.Pointer[[]byte] // self encoded, what NodeMeta returns
	updating atomic.Bool            // a metadata update is being gossiped
	kick     chan struct{}
	stop     chan struct{}
	started  chan error // StartMember's outcome (buffered, sent once)
	once     sync.Once
	joining  atomic.Bool
	seen     map[string]seenMember                // by ID; only the loop goroutine uses it
	listed   atomic.Pointer[protocluster.Members] // what publish last gave protoactor, blocked members included
	refused  sync.Map                             // member IDs refused for their protocol version, logged once
}

// removalGrace is how long a member memberlist no longer lists stays in
// protoactor's topology (see provider): a refutation takes one or two
// gossip rounds (100 ms each), and failure detection about a second. A
// node that is itself slow waits (1 + its memberlist health score) times
// as long, as memberlist stretches its own timeouts (Lifeguard).
const removalGrace = 500 * time.Millisecond

// seenMember is a member and when memberlist last listed it.
type seenMember struct {
	m  *protocluster.Member
	at time.Time
}

func newProvider(bindHost string, bindPort, proto int, join []string, tune func(*memberlist.Config), log *slog.Logger) *provider {
	return &provider{bindHost: bindHost, bindPort: bindPort, proto: proto, join: join, tune: tune, log: log,
		kick: make(chan struct{}, 1), stop: make(chan struct{}), started: make(chan error, 1), seen: map[string]seenMember{}}
}

// memberlist.Delegate and EventDelegate: all methods must be thread-safe and
// must not block (memberlist calls them from its own goroutines).

func (p *provider) NodeMeta(limit int) []byte {
	if b := p.meta.Load(); b != nil {
		return *b
	}
	return nil
}

// setMeta encodes p.self for NodeMeta.
func (p *provider) setMeta() {
	b, _ := json.Marshal(p.self)
	p.meta.Store(&b)
}

// NotifyAlive implements memberlist.AliveDelegate: a node that speaks
// another grain protocol is not admitted to the member list, so no grain
// is placed on it and no call reaches it. The refusal is logged once per
// member, naming both versions.
func (p *provider) NotifyAlive(n *memberlist.Node) error {
	var m memberMeta
	if n.Name == p.self.ID || json.Unmarshal(n.Meta, &m) != nil || m.Cluster != p.self.Cluster || m.Proto == p.proto {
		return nil // a meta that does not parse is not a member (members) either
	}
	if _, seen := p.refused.LoadOrStore(n.Name, true); !seen {
		p.log.Error("refusing a cluster member that speaks another grain protocol version; run one mockgql version across the cluster",
			"member", n.Name, "addr", n.Address(), "its_protocol", m.Proto, "our_protocol", p.proto)
	}
	return fmt.Errorf("grain protocol version %d, ours is %d", m.Proto, p.proto)
}

func (p *provider) NotifyMsg([]byte)                           {}
func (p *provider) GetBroadcasts(overhead, limit int) [][]byte { return nil }
func (p *provider) LocalState(join bool) []byte                { return nil }
func (p *provider) MergeRemoteState(buf []byte, join bool)     {}
func (p *provider) NotifyJoin(*memberlist.Node)                { p.poke() }
func (p *provider) NotifyLeave(*memberlist.Node)               { p.poke() }
func (p *provider) NotifyUpdate(*memberlist.Node)              { p.poke() }

func (p *provider) poke() {
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// StartMember implements protocluster.ClusterProvider.
// It also reports the outcome on p.started: by then the topology with this
// member is published (publish is synchronous), and protoactor's
// StartMember only sleeps a fixed second before it returns (see Start).
func (p *provider) StartMember(c *protocluster.Cluster) error {
	err := p.start(c, c.GetClusterKinds())
	select {
	case p.started <- err:
	default:
	}
	return err
}

// StartClient implements protocluster.ClusterProvider; a client hosts no kinds.
func (p *provider) StartClient(c *protocluster.Cluster) error { return p.start(c, nil) }

func (p *provider) start(c *protocluster.Cluster, kinds []string) error {
	p.c = c
	host, port, err := c.ActorSystem.GetHostPort()
	if err != nil {
		return err
	}
	p.self = memberMeta{Cluster: c.Config.Name, Proto: p.proto, ID: c.ActorSystem.ID, Host: host, Port: port, Kinds: kinds}
	if err := p.listen(c.ActorSystem.ID); err != nil {
		return err
	}
	if len(p.join) > 0 {
		if _, err := p.ml.Join(p.join); err != nil {
			p.log.Warn("memberlist join failed; running alone until a seed answers", "seeds", p.join, "err", err)
		}
	}
	p.publish()
	go p.loop()
	return nil
}

// listen starts memberlist as name (p.self set).
func (p *provider) listen(name string) (err error) {
	p.setMeta()
	cfg := memberlist.DefaultLANConfig()
	// The name must be new for every process: protoactor blocks a member ID
	// forever once it has left.
	cfg.Name = name
	cfg.BindAddr, cfg.BindPort = p.bindHost, p.bindPort
	cfg.AdvertisePort = 0
	cfg.Delegate, cfg.Events, cfg.Alive = p, p, p
	cfg.LogOutput = io.Discard
	if p.tune != nil {
		p.tune(cfg)
	}
	p.ml, err = memberlist.Create(cfg)
	return err
}

// Addr is the memberlist address others join.
func (p *provider) Addr() string { return p.ml.LocalNode().Address() }

func (p *provider) loop() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	var recheck <-chan time.Time // when a member's removal grace ends
	for {
		select {
		case <-p.stop:
			return
		case <-p.kick:
		case <-recheck:
		case <-t.C:
			p.rejoin()
		}
		recheck = nil
		if wait := p.publish(); wait > 0 {
			recheck = time.After(wait)
		}
	}
}

// rejoin retries the seeds while this node is alone: nodes that start at
// the same moment may each have found no seed up yet.
func (p *provider) rejoin() {
	if len(p.join) == 0 || p.ml.NumMembers() > 1 || !p.joining.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer p.joining.Store(false)
		_, _ = p.ml.Join(p.join)
	}()
}

// publish gives protoactor the members memberlist lists, and those it
// stopped listing less than removalGrace ago. It returns how long until the
// next of those is due to go (0: none).
func (p *provider) publish() (wait time.Duration) {
	now := time.Now()
	grace := removalGrace * time.Duration(1+p.ml.GetHealthScore())
	members := p.members()
	for _, m := range members {
		p.seen[m.Id] = seenMember{m: m, at: now}
	}
	for id, s := range p.seen {
		switch left := grace - now.Sub(s.at); {
		case s.at.Equal(now):
		case left > 0:
			members = append(members, s.m)
			if wait == 0 || left < wait {
				wait = left
			}
		default:
			delete(p.seen, id)
		}
	}
	p.listed.Store(&members)
	p.c.MemberList.UpdateClusterTopology(members)
	p.advertiseBlocked()
	return wait
}

// advertiseBlocked puts the members protoactor blocked that memberlist
// lists alive into this node's metadata, and gossips it when it changed.
// Only the loop goroutine calls it.
func (p *provider) advertiseBlocked() {
	blocked := p.c.GetBlockedMembers()
	var list []string
	for _, n := range p.ml.Members() {
		if n.Name != p.self.ID && blocked.Contains(n.Name) && len(list) < maxAdvertisedBlocks {
			list = append(list, n.Name) // memberlist's name is the member ID (start)
		}
	}
	slices.Sort(list)
	if slices.Equal(list, p.self.Blocked) || !p.updating.CompareAndSwap(false, true) {
		return
	}
	p.self.Blocked = list
	p.setMeta()
	go func() { // UpdateNode waits for the gossip to go out
		defer p.updating.Store(false)
		if err := p.ml.UpdateNode(time.Second); err != nil {
			p.log.Warn("memberlist metadata update", "err", err)
		}
	}()
}

// blockedBy lists the live members whose metadata says they blocked this
// node while this node did not block them: they dropped it, it did not
// notice (see memberMeta.Blocked).
func (p *provider) blockedBy() []string {
	if p.ml == nil {
		return nil
	}
	mine := p.c.GetBlockedMembers()
	var out []string
	for _, n := range p.ml.Members() {
		var m memberMeta
		if n.Name == p.self.ID || json.Unmarshal(n.Meta, &m) != nil || m.Cluster != p.self.Cluster || mine.Contains(m.ID) {
			continue
		}
		if slices.Contains(m.Blocked, p.self.ID) {
			out = append(out, m.ID)
		}
	}
	return out
}

// live is this cluster's members as publish last listed them: those
// memberlist holds alive or suspect, and those it stopped listing less
// than removalGrace ago (a death being refuted), blocked or not.
func (p *provider) live() protocluster.Members {
	if l := p.listed.Load(); l != nil {
		return *l
	}
	return p.members()
}

// members is this cluster's members that memberlist holds alive or
// suspect, this node included, whether protoactor blocked them or not.
func (p *provider) members() protocluster.Members {
	var members protocluster.Members
	if p.ml == nil { // not started
		return nil
	}
	for _, n := range p.ml.Members() { // alive and suspect nodes
		var m memberMeta
		if json.Unmarshal(n.Meta, &m) != nil || m.Cluster != p.self.Cluster || m.Proto != p.proto || len(m.Kinds) == 0 {
			continue
		}
		members = append(members, &protocluster.Member{Id: m.ID, Host: m.Host, Port: int32(m.Port), Kinds: m.Kinds})
	}
	return members
}

// Shutdown implements protocluster.ClusterProvider. A graceful shutdown
// tells the others first, so they drop this node at once instead of
// suspecting it.
func (p *provider) Shutdown(graceful bool) error {
	p.once.Do(func() { close(p.stop) })
	if p.ml == nil {
		return nil
	}
	if graceful {
		_ = p.ml.Leave(2 * time.Second)
	}
	return p.ml.Shutdown()
}
