package cluster

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mockgql/mockgql/cluster/pb"
	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/persistence"
)

// StoreConfig says how grain records map to replicated grains.
type StoreConfig struct {
	// Replicas is how many nodes hold each grain's records, owner
	// included, capped at the cluster's size (--replicas, docs/operating/cluster.md).
	Replicas int
	// KeyOf names the grain that owns a record; ok false keeps the record
	// on this node only.
	KeyOf func(kind, id string) (key string, ok bool)
	// Records lists where a grain's records are (for snapshots).
	Records func(key string) []persistence.Range
	// Everywhere names grains whose records every node holds (immutable
	// data every node reads, such as datasets); nil means none.
	Everywhere func(key string) bool
	// Timeout bounds one replication round.
	Timeout time.Duration
}

// Store is the grains' store on a cluster node: reads are local; a write
// goes to the grain's replicas — the top Replicas nodes of its rendezvous
// ranking, which are the nodes that own it next if its owner dies — and
// returns once a majority of them hold it. A grain activation first takes
// a new generation from a majority and catches up from the most recent
// replica (Acquire), so a stale activation elsewhere can no longer write.
// All methods are safe for concurrent use.
type Store struct {
	db   *persistence.DB
	cfg  StoreConfig
	node *Node

	mu    sync.Mutex
	gens  map[string]uint64     // generation of this node's activation of each grain
	locks map[string]*grainLock // one write at a time per grain from this node
}

// grainLock serialises this node's writes of one grain and remembers the
// last version it sent: the owner's commit and the replicas' run at once,
// so a write this node failed to commit may be on a replica, and a later
// write under the same version would be taken there for a retry of it.
type grainLock struct {
	sync.Mutex
	sent persistence.Version // guarded by the Mutex
}

// errNoQuorum is what a write or activation answers when a majority of the
// grain's replicas cannot be reached or refuse (a newer activation exists).
func errNoQuorum(key string, got, need int) error {
	return &model.Error{Code: model.CodeUnavailable, RetryAfter: 1,
		Message: fmt.Sprintf("the service is moving %s between nodes (%d of %d replicas answered); retry shortly", key, got, need)}
}

// errFenced is what a stale activation's write answers: another node took
// the grain over with a newer generation.
func errFenced(key string, own, newer uint64) error {
	return &model.Error{Code: model.CodeUnavailable, RetryAfter: 1,
		Message: fmt.Sprintf("the service moved %s to another node (generation %d, this activation holds %d); retry shortly", key, newer, own)}
}

// DefaultReplicas is StoreConfig.Replicas when it is not set.
const DefaultReplicas = 3

func newStore(db *persistence.DB, cfg StoreConfig, n *Node) *Store {
	if cfg.Replicas <= 0 {
		cfg.Replicas = DefaultReplicas
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 2 * time.Second
	}
	if cfg.Everywhere == nil {
		cfg.Everywhere = func(string) bool { return false }
	}
	if cfg.KeyOf == nil {
		cfg.KeyOf = func(kind, id string) (string, bool) { return kind + "/" + id, true }
	}
	if cfg.Records == nil {
		cfg.Records = defaultRecords
	}
	return &Store{db: db, cfg: cfg, node: n, gens: map[string]uint64{}, locks: map[string]*grainLock{}}
}

// defaultRecords is StoreConfig.Records when it is not set: the grain
// "kind/id" is the one record kind/id.
func defaultRecords(key string) []persistence.Range {
	kind, id, _ := strings.Cut(key, "/")
	return []persistence.Range{{Kind: kind, Prefix: id, Exact: true}}
}

// replicaSet is the nodes that hold key's records and how many make a quorum.
func (s *Store) replicaSet(key string) ([]string, int) {
	r := s.cfg.Replicas
	if s.cfg.Everywhere(key) {
		r = 1 << 30
	}
	return s.node.replicaSet(key, r)
}

// isReplica reports whether this node holds key's records.
func (s *Store) isReplica(key string) bool {
	self := s.node.system.Address()
	set, _ := s.replicaSet(key)
	for _, a := range set {
		if a == self {
			return true
		}
	}
	return false
}

// Get reads a record from this node's copy.
func (s *Store) Get(kind, id string) ([]byte, error) { return s.db.Get(kind, id) }

// Scan reads records from this node's copy.
func (s *Store) Scan(kind, prefix string, fn func(id string, v []byte) error) error {
	return s.db.Scan(kind, prefix, fn)
}

// DeletePrefix deletes records, replicated like a write.
func (s *Store) DeletePrefix(kind, prefix string) error {
	return s.Write(persistence.Put{Kind: kind, ID: prefix, Prefix: true})
}

// Write replicates puts, grain by grain; it returns nil once a majority of
// each grain's replicas hold them.
func (s *Store) Write(puts ...persistence.Put) error { return s.WriteBy(time.Time{}, puts...) }

// WriteBy is Write that gives up at deadline (zero: the configured
// Timeout a replication round, as Write): no replica is waited for past
// it, and no retry starts after it, so a write honours the deadline of
// the request that made it.
func (s *Store) WriteBy(deadline time.Time, puts ...persistence.Put) error {
	var order []string
	groups := map[string][]persistence.Put{}
	var local []persistence.Put
	for _, p := range puts {
		key, ok := s.cfg.KeyOf(p.Kind, p.ID)
		if !ok {
			local = append(local, p)
			continue
		}
		if _, seen := groups[key]; !seen {
			order = append(order, key)
		}
		groups[key] = append(groups[key], p)
	}
	if len(local) > 0 {
		if err := s.db.Write(local...); err != nil {
			return err
		}
	}
	for _, key := range order {
		if err := s.replicate(key, groups[key], deadline); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) keyLock(key string) *grainLock {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.locks[key]
	if l == nil {
		l = &grainLock{}
		s.locks[key] = l
	}
	return l
}

// replicate sends one grain's write to its replicas and waits for a majority.
func (s *Store) replicate(key string, puts []persistence.Put, deadline time.Time) error {
	l := s.keyLock(key)
	l.Lock()
	defer l.Unlock()
	have, err := s.db.Version(key)
	if err != nil {
		return err
	}
	// An activation writes under the generation it acquired, and no other:
	// were it to take the records' newer generation, a stale activation
	// (one a membership disagreement left running after another node took
	// the grain over) would write on top of the newer one's state, each
	// overwriting the other's grants, and no replica could tell. Records of
	// a newer generation here mean exactly that: refuse at once. Writers
	// that are no activation (a dataset's blob, the sweeper after the
	// grain stopped) hold no state of their own to put back: they write
	// under the newest generation this node knows of.
	s.mu.Lock()
	own, active := s.gens[key]
	s.mu.Unlock()
	var gen uint64
	if active {
		if have.Gen > own {
			return errFenced(key, own, have.Gen)
		}
		gen = own
	} else {
		promised, err := s.db.Promised(key)
		if err != nil {
			return err
		}
		gen = max(have.Gen, promised, 1)
	}
	// Never a version this node sent before (see grainLock): after a
	// round whose own commit failed, the next write skips past it, and a
	// replica holding the failed one finds its base differs and is sent
	// this node's copy instead.
	seq := have.Seq + 1
	if l.sent.Gen == gen && l.sent.Seq >= seq {
		seq = l.sent.Seq + 1
	}
	w := &pb.Write{Key: key, Ver: &pb.Version{Gen: gen, Seq: seq}, Base: toPB(have), Records: toRecords(puts)}
	l.sent = fromPB(w.Ver)
	// A replica that just joined may not answer the first time (its
	// connection is still being made): try a few times, briefly. A replica
	// that holds the write already answers a retry with success.
	var acks, need int
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			pause := time.Duration(attempt) * 150 * time.Millisecond
			if !deadline.IsZero() && time.Until(deadline) < pause {
				break // no time left for another round
			}
			time.Sleep(pause)
		}
		var set []string
		set, need = s.replicaSet(key)
		if acks = s.writeRound(set, key, w, need, deadline); acks >= need {
			return nil
		}
		if acks == 0 && s.db.Full() {
			// This node's own copy could not be written: a full disk, which
			// another round will not cure, and no "moving between nodes".
			return fmt.Errorf("write %s: %w", key, persistence.ErrStorageFull)
		}
	}
	return errNoQuorum(key, acks, need)
}

// writeRound writes to this node's copy and to the other replicas at
// once, and counts a replica's acknowledgement only together with this
// node's own commit: this node's copy is written whether or not this node
// is one of key's replicas in its current view, as the next write's
// version and every snapshot a lagging replica gets are read from it. So
// a write waits for the slower of this node's commit and the fastest
// majority, not for their sum. When this node's commit fails the round
// counts nothing (replicate's next write skips the version, see
// grainLock); a replica found behind gets its snapshot only after this
// node's commit, which the snapshot must hold.
func (s *Store) writeRound(set []string, key string, w *pb.Write, need int, deadline time.Time) int {
	self, others, acks := s.node.system.Address(), set[:0:0], 0
	for _, addr := range set {
		if addr == self {
			acks = 1
		} else {
			others = append(others, addr)
		}
	}
	own := make(chan bool, 1)
	selfOK := sync.OnceValue(func() bool { return <-own })
	results := make(chan bool, len(others))
	if need-acks > 0 {
		for _, addr := range others {
			go func() { results <- s.writeTo(addr, key, w, deadline, selfOK) }()
		}
	}
	own <- s.writeTo(self, key, w, deadline, func() bool { return true })
	if !selfOK() {
		return 0
	}
	for range others {
		if acks >= need {
			break // the rest finish on their own: a dead replica's timeout does not slow a write a majority has
		}
		if <-results {
			acks++
		}
	}
	return acks
}

// fanOut runs call for every address in parallel and counts the trues. It
// returns as soon as enough calls said true (the rest finish on their own,
// so a dead replica's timeout does not slow a write a majority has), or
// when all have answered.
func (s *Store) fanOut(set []string, enough int, call func(addr string) bool) int {
	if enough <= 0 {
		return 0
	}
	results := make(chan bool, len(set))
	for _, addr := range set {
		go func() { results <- call(addr) }()
	}
	n := 0
	for range set {
		if <-results {
			n++
		}
		if n >= enough {
			break
		}
	}
	return n
}

// writeTo sends a write to one replica; a replica that is behind gets a
// snapshot from this node's copy instead, once committed reports that
// this node's copy holds the write.
func (s *Store) writeTo(addr, key string, w *pb.Write, deadline time.Time, committed func() bool) bool {
	ack, ok := s.askBy(addr, w, deadline).(*pb.WriteAck)
	if !ok {
		return false
	}
	if ack.Behind {
		return committed() && s.pushSnapshot(addr, key)
	}
	return ack.Ok
}

// ask sends msg to the replica actor at addr (directly when it is this node).
func (s *Store) ask(addr string, msg any) any { return s.askBy(addr, msg, time.Time{}) }

// askBy is ask that waits at most until deadline (zero: the configured
// Timeout); past it, it asks nothing.
func (s *Store) askBy(addr string, msg any, deadline time.Time) any {
	wait := s.cfg.Timeout
	if !deadline.IsZero() {
		if wait = min(wait, time.Until(deadline)); wait <= 0 {
			return nil
		}
	}
	pid := actor.NewPID(addr, replicaName)
	res, err := s.node.system.Root.RequestFuture(pid, msg, wait).Result()
	if err != nil {
		s.node.cfg.Logger.Warn("replica unreachable", "addr", addr, "err", err)
		return nil
	}
	return res
}

// Acquire prepares this node's activation of grain kind/id: it takes a
// generation higher than any a majority of replicas promised, and brings
// this node's copy up to the most recent replica's. Until a later Acquire
// elsewhere, only this activation can write the grain.
func (s *Store) Acquire(kind, id string) error {
	key, ok := s.cfg.KeyOf(kind, id)
	if !ok {
		return nil
	}
	set, need := s.replicaSet(key)
	promised, err := s.db.Promised(key)
	if err != nil {
		return err
	}
	have, err := s.db.Version(key)
	if err != nil {
		return err
	}
	gen := max(promised, have.Gen) + 1
	for attempt := 0; attempt < 4; attempt++ {
		if attempt > 0 {
			time.Sleep(time.Duration(attempt) * 100 * time.Millisecond)
			set, need = s.replicaSet(key)
		}
		best, bestAddr, okN, higher := s.promiseRound(set, key, gen)
		if okN >= need {
			if have.Less(best) && bestAddr != "" {
				if err := s.pull(bestAddr, key); err != nil {
					return err
				}
			}
			s.mu.Lock()
			s.gens[key] = gen
			s.mu.Unlock()
			return nil
		}
		gen = max(gen, higher) + 1
	}
	return errNoQuorum(key, 0, need)
}

// Release forgets this node's activation of grain kind/id (it stopped):
// until the next Acquire, a write of its records from this node is no
// activation's. A grain calls it once its final checkpoint is written.
func (s *Store) Release(kind, id string) {
	key, ok := s.cfg.KeyOf(kind, id)
	if !ok {
		return
	}
	s.mu.Lock()
	delete(s.gens, key)
	s.mu.Unlock()
}

// promiseRound asks every replica to promise gen; it returns the most
// recent version among those that did, who holds it, how many promised,
// and the highest generation a refusal named.
func (s *Store) promiseRound(set []string, key string, gen uint64) (best persistence.Version, bestAddr string, okN int, higher uint64) {
	var mu sync.Mutex
	s.fanOut(set, len(set), func(addr string) bool {
		ack, ok := s.ask(addr, &pb.Promise{Key: key, Gen: gen}).(*pb.PromiseAck)
		if !ok {
			return false
		}
		mu.Lock()
		defer mu.Unlock()
		if !ack.Ok {
			higher = max(higher, ack.Promised)
			return false
		}
		okN++
		if v := fromPB(ack.Have); best.Less(v) {
			best, bestAddr = v, addr
		}
		return true
	})
	return best, bestAddr, okN, higher
}
