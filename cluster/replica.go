package cluster

import (
	"fmt"
	"log/slog"
	"sync"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mockgql/mockgql/cluster/pb"
	"github.com/mockgql/mockgql/persistence"
)

// replicaName is the name of every node's replica actor.
const replicaName = "mgq-replica"

// readPage bounds one page of a Read or Snapshot (gRPC carries 4 MB).
const readPage = 2 << 20

// replica serves the replication protocol of one node over its bbolt file.
// It is an actor: its messages are handled one at a time, except writes,
// which it hands to goroutines so that writes of different grains
// arriving together share one bbolt commit (persistence.ApplyWrite judges
// and applies each in one transaction). Every other message first waits
// until the writes under way are committed, so a promise, a snapshot or a
// read sees them, as if the writes had been handled in turn.
type replica struct {
	db      *persistence.DB
	records func(key string) []persistence.Range
	log     *slog.Logger
	staging map[string]*staged // snapshots being received, by grain key

	writing sync.WaitGroup // writes under way
	slots   chan struct{}  // bounds the writes under way (maxWriting)
}

// maxWriting bounds the writes a replica has under way; past it, the
// actor waits for one to finish before it takes the next message.
const maxWriting = 256

// Receive implements actor.Actor.
func (r *replica) Receive(ctx actor.Context) {
	if m, ok := ctx.Message().(*pb.Write); ok {
		r.writeAsync(ctx, m)
		return
	}
	switch ctx.Message().(type) {
	case *pb.Promise, *pb.Read, *pb.Snapshot, *pb.Versions:
		r.writing.Wait()
	}
	var reply any
	var err error
	switch m := ctx.Message().(type) {
	case *pb.Promise:
		reply, err = r.promise(m)
	case *pb.Read:
		reply, err = r.read(m)
	case *pb.Snapshot:
		reply, err = r.push(m)
	case *pb.Versions:
		reply, err = r.versions()
	default:
		return
	}
	if err != nil {
		r.log.Error("replica", "err", err)
		ctx.Respond(&pb.WriteAck{})
		return
	}
	ctx.Respond(reply)
}

// ranges is where key's records are (StoreConfig.Records, or its default
// when the node's configuration left it unset: a snapshot pushed to such a
// replica used to panic in the actor and was never answered).
func (r *replica) ranges(key string) []persistence.Range {
	if r.records == nil {
		return defaultRecords(key)
	}
	return r.records(key)
}

// state is what this replica holds of key: the highest generation it
// promised and the version of its records.
func (r *replica) state(key string) (promised uint64, have persistence.Version, err error) {
	if promised, err = r.db.Promised(key); err != nil {
		return 0, have, err
	}
	have, err = r.db.Version(key)
	return promised, have, err
}

// stale reports whether a write or snapshot of generation gen is one this
// replica must refuse: a newer activation exists.
func stale(gen, promised uint64, have persistence.Version) bool {
	return gen < promised || gen < have.Gen
}

// writeAsync applies m on a goroutine of its own and answers its sender
// from there (see replica).
func (r *replica) writeAsync(ctx actor.Context, m *pb.Write) {
	if r.slots == nil {
		r.slots = make(chan struct{}, maxWriting)
	}
	r.slots <- struct{}{}
	r.writing.Add(1)
	sender, root := ctx.Sender(), ctx.ActorSystem().Root
	go func() {
		defer func() { <-r.slots; r.writing.Done() }()
		var reply *pb.WriteAck
		var err error
		func() {
			defer func() { // as the actor's own recovery would: no answer is an unapplied write
				if p := recover(); p != nil {
					err = fmt.Errorf("write %s: panic: %v", m.Key, p)
				}
			}()
			reply, err = r.write(m)
		}()
		if err != nil {
			r.log.Error("replica", "err", err)
			reply = &pb.WriteAck{}
		}
		if sender != nil {
			root.Send(sender, reply)
		}
	}()
}

// write judges and applies one write in one transaction: a catch-up's
// pull (Store.pull, outside this actor) may install a newer copy at any
// moment, and the write is judged against the copy it is applied to.
func (r *replica) write(m *pb.Write) (*pb.WriteAck, error) {
	var base *persistence.Version
	if m.Base != nil {
		b := fromPB(m.Base)
		base = &b
	}
	out, promised, have, err := r.db.ApplyWrite(m.Key, fromPB(m.Ver), base, toPuts(m.Records))
	if err != nil {
		return nil, err
	}
	switch out {
	case persistence.WriteFenced: // a newer activation exists
		return &pb.WriteAck{Promised: promised, Have: toPB(have)}, nil
	case persistence.WriteHeld: // a retry of a write it holds
		return &pb.WriteAck{Ok: true, Have: toPB(have)}, nil
	case persistence.WriteBehind: // not the copy the write was made on
		return &pb.WriteAck{Behind: true, Have: toPB(have), Promised: promised}, nil
	}
	return &pb.WriteAck{Ok: true, Have: m.Ver, Promised: promised}, nil
}

// promise grants m.Gen if it exceeds every generation this replica
// promised and the generation of the records it holds: a replica accepts
// the writes of a generation only a majority promised, and an activation
// whose generation did not exceed it would write under that generation
// (replicate takes the newer of its own and the records'), alongside the
// activation it was meant to fence.
func (r *replica) promise(m *pb.Promise) (*pb.PromiseAck, error) {
	have, err := r.db.Version(m.Key)
	if err != nil {
		return nil, err
	}
	if m.Gen <= have.Gen {
		promised, err := r.db.Promised(m.Key)
		if err != nil {
			return nil, err
		}
		return &pb.PromiseAck{Promised: max(promised, have.Gen), Have: toPB(have)}, nil
	}
	promised, ok, err := r.db.Promise(m.Key, m.Gen)
	if err != nil {
		return nil, err
	}
	return &pb.PromiseAck{Ok: ok, Promised: promised, Have: toPB(have)}, nil
}

// read returns a page of key's records after (AfterKind, AfterID), with
// the version of the copy it was read from, in one transaction.
func (r *replica) read(m *pb.Read) (*pb.ReadReply, error) {
	have, recs, more, err := r.db.ReadRanges(m.Key, r.ranges(m.Key), m.AfterKind, m.AfterId, readPage)
	if err != nil {
		return nil, err
	}
	return &pb.ReadReply{Have: toPB(have), Records: toRecords(recs), More: more}, nil
}

// maxStaged bounds the snapshots a replica assembles at once (one per
// grain; a grain's next first page replaces its previous one).
const maxStaged = 8

// staged is a snapshot whose pages are arriving.
type staged struct {
	ver  persistence.Version
	recs []persistence.Put
}

// push takes a page of a snapshot another node sends (a write found this
// replica behind), fenced like a write: a snapshot of an older generation
// than this replica promised or holds is refused (a promise can arrive
// between the write that found this replica behind and the snapshot's
// pages). Pages are assembled in memory and the whole copy replaces this
// replica's in one transaction when the last arrives, so a snapshot cut
// off, or two interleaved, never leave a mixture; pages of a version other
// than the first page's are refused (the sender starts again).
func (r *replica) push(m *pb.Snapshot) (*pb.WriteAck, error) {
	promised, have, err := r.state(m.Key)
	if err != nil {
		return nil, err
	}
	v := fromPB(m.Ver)
	if stale(v.Gen, promised, have) {
		delete(r.staging, m.Key)
		return &pb.WriteAck{Promised: promised, Have: toPB(have)}, nil
	}
	if m.First {
		if r.staging == nil {
			r.staging = map[string]*staged{}
		}
		if _, ok := r.staging[m.Key]; !ok && len(r.staging) >= maxStaged {
			for k := range r.staging {
				delete(r.staging, k) // the sender of that one starts again
				break
			}
		}
		r.staging[m.Key] = &staged{ver: v}
	}
	st := r.staging[m.Key]
	if st == nil || st.ver != v {
		return &pb.WriteAck{Have: toPB(have)}, nil
	}
	st.recs = append(st.recs, toPuts(m.Records)...)
	if !m.Last {
		return &pb.WriteAck{Ok: true, Have: toPB(have)}, nil
	}
	delete(r.staging, m.Key)
	now, err := install(r.db, r.ranges, m.Key, v, st.recs)
	if err != nil {
		return nil, err
	}
	// A replica that holds this version or a newer one of the same
	// generation (the stale check passed) holds what the sender wanted it
	// to hold.
	return &pb.WriteAck{Ok: true, Have: toPB(now)}, nil
}

// install replaces db's copy of key with recs at version v, unless db
// already holds v or a newer version: a copy never goes back. A catch-up
// used to pull a peer's older copy over a newer one that writes had
// brought meanwhile, dropping acknowledged writes. It returns the version
// db holds afterwards.
func install(db *persistence.DB, records func(string) []persistence.Range, key string, v persistence.Version, recs []persistence.Put) (persistence.Version, error) {
	applied, have, err := db.ApplyIf(key, v, recs, records(key), func(have persistence.Version) bool { return have.Less(v) })
	if err != nil || !applied {
		return have, err
	}
	return v, nil
}

func (r *replica) versions() (*pb.VersionsReply, error) {
	vs, err := r.db.Versions()
	if err != nil {
		return nil, err
	}
	out := &pb.VersionsReply{Versions: map[string]*pb.Version{}}
	for k, v := range vs {
		out.Versions[k] = toPB(v)
	}
	return out, nil
}

func toPB(v persistence.Version) *pb.Version { return &pb.Version{Gen: v.Gen, Seq: v.Seq} }

func fromPB(v *pb.Version) persistence.Version {
	if v == nil {
		return persistence.Version{}
	}
	return persistence.Version{Gen: v.Gen, Seq: v.Seq}
}

func toPuts(rs []*pb.Record) []persistence.Put {
	out := make([]persistence.Put, len(rs))
	for i, r := range rs {
		out[i] = persistence.Put{Kind: r.Kind, ID: r.Id, Value: r.Value, Prefix: r.DeletePrefix}
		if len(r.Value) == 0 && !r.DeletePrefix {
			out[i].Value = nil
		}
	}
	return out
}

func toRecords(puts []persistence.Put) []*pb.Record {
	out := make([]*pb.Record, len(puts))
	for i, p := range puts {
		out[i] = &pb.Record{Kind: p.Kind, Id: p.ID, Value: p.Value, DeletePrefix: p.Prefix}
	}
	return out
}
