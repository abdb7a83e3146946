package cluster

import (
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	protocluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/hashicorp/memberlist"
)

// memberMeta is what each node advertises through memberlist: enough for
// protoactor to address it. It must stay under memberlist.MetaMaxSize.
type memberMeta struct {
	Cluster string   `json:"c"`
	ID      string   `json:"i"`
	Host    string   `json:"h"`
	Port    int      `json:"p"`
	Kinds   []string `json:"k"`
}

// provider is a protoactor ClusterProvider backed by memberlist. It feeds the
// full member list to protoactor on every membership event and once a
// second (protoactor's gossip may block members between events).
type provider struct {
	bindHost string
	bindPort int
	join     []string
	tune     func(*memberlist.Config)
	log      *slog.Logger

	c       *protocluster.Cluster
	ml      *memberlist.Memberlist
	self    memberMeta
	kick    chan struct{}
	stop    chan struct{}
	once    sync.Once
	joining atomic.Bool
}

func newProvider(bindHost string, bindPort int, join []string, tune func(*memberlist.Config), log *slog.Logger) *provider {
	return &provider{bindHost: bindHost, bindPort: bindPort, join: join, tune: tune, log: log,
		kick: make(chan struct{}, 1), stop: make(chan struct{})}
}

// memberlist.Delegate and EventDelegate: all methods must be thread-safe and
// must not block (memberlist calls them from its own goroutines).

func (p *provider) NodeMeta(limit int) []byte {
	b, _ := json.Marshal(p.self)
	return b
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
func (p *provider) StartMember(c *protocluster.Cluster) error { return p.start(c, c.GetClusterKinds()) }

// StartClient implements protocluster.ClusterProvider; a client hosts no kinds.
func (p *provider) StartClient(c *protocluster.Cluster) error { return p.start(c, nil) }

func (p *provider) start(c *protocluster.Cluster, kinds []string) error {
	p.c = c
	host, port, err := c.ActorSystem.GetHostPort()
	if err != nil {
		return err
	}
	p.self = memberMeta{Cluster: c.Config.Name, ID: c.ActorSystem.ID, Host: host, Port: port, Kinds: kinds}
	cfg := memberlist.DefaultLANConfig()
	// The name must be new for every process: protoactor blocks a member ID
	// forever once it has left.
	cfg.Name = c.ActorSystem.ID
	cfg.BindAddr, cfg.BindPort = p.bindHost, p.bindPort
	cfg.AdvertisePort = 0
	cfg.Delegate, cfg.Events = p, p
	cfg.LogOutput = io.Discard
	if p.tune != nil {
		p.tune(cfg)
	}
	if p.ml, err = memberlist.Create(cfg); err != nil {
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

// Addr is the memberlist address others join.
func (p *provider) Addr() string { return p.ml.LocalNode().Address() }

func (p *provider) loop() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-p.kick:
		case <-t.C:
			p.rejoin()
		}
		p.publish()
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

func (p *provider) publish() {
	var members protocluster.Members
	for _, n := range p.ml.Members() { // alive and suspect nodes
		var m memberMeta
		if json.Unmarshal(n.Meta, &m) != nil || m.Cluster != p.self.Cluster || len(m.Kinds) == 0 {
			continue
		}
		members = append(members, &protocluster.Member{Id: m.ID, Host: m.Host, Port: int32(m.Port), Kinds: m.Kinds})
	}
	p.c.MemberList.UpdateClusterTopology(members)
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
