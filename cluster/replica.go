package cluster

import (
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mockgql/mockgql/cluster/pb"
	"github.com/mockgql/mockgql/persistence"
)

// replicaName is the name of every node's replica actor.
const replicaName = "mgq-replica"

// readPage bounds one page of a Read or Snapshot (gRPC carries 4 MB).
const readPage = 2 << 20

// replica serves the replication protocol of one node over its bbolt file.
// It is an actor, so the messages for all keys are applied one at a time.
type replica struct {
	db      *persistence.DB
	records func(key string) []persistence.Range
	log     *slog.Logger
}

// Receive implements actor.Actor.
func (r *replica) Receive(ctx actor.Context) {
	var reply any
	var err error
	switch m := ctx.Message().(type) {
	case *pb.Write:
		reply, err = r.write(m)
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

func (r *replica) write(m *pb.Write) (*pb.WriteAck, error) {
	promised, have, err := r.state(m.Key)
	if err != nil {
		return nil, err
	}
	w := fromPB(m.Ver)
	switch {
	case stale(w.Gen, promised, have):
		return &pb.WriteAck{Promised: promised, Have: toPB(have)}, nil // fenced: a newer activation exists
	case !have.Less(w):
		return &pb.WriteAck{Ok: true, Have: toPB(have)}, nil // a retry of a write it holds
	case w.Seq != have.Seq+1:
		return &pb.WriteAck{Behind: true, Have: toPB(have), Promised: promised}, nil
	}
	if err := r.db.Apply(m.Key, w, toPuts(m.Records), nil); err != nil {
		return nil, err
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

// read returns a page of key's records after (AfterKind, AfterID).
func (r *replica) read(m *pb.Read) (*pb.ReadReply, error) {
	have, err := r.db.Version(m.Key)
	if err != nil {
		return nil, err
	}
	out := &pb.ReadReply{Have: toPB(have)}
	size, skipping := 0, m.AfterKind != ""
	for _, rg := range r.records(m.Key) {
		err := r.db.ScanRange(rg, func(id string, v []byte) error {
			if skipping {
				if rg.Kind == m.AfterKind && id == m.AfterId {
					skipping = false
				}
				return nil
			}
			if size > 0 && size+len(v) > readPage {
				out.More = true
				return persistence.ErrStop
			}
			size += len(v)
			out.Records = append(out.Records, &pb.Record{Kind: rg.Kind, Id: id, Value: append([]byte(nil), v...)})
			return nil
		})
		if err != nil {
			return nil, err
		}
		if out.More {
			break
		}
	}
	return out, nil
}

// push applies a page of a snapshot another node sends (a write found this
// replica behind), fenced like a write: a snapshot of an older generation
// than this replica promised or holds is refused. A promise can arrive
// between the write that found this replica behind and the snapshot's
// pages.
func (r *replica) push(m *pb.Snapshot) (*pb.WriteAck, error) {
	promised, have, err := r.state(m.Key)
	if err != nil {
		return nil, err
	}
	if stale(fromPB(m.Ver).Gen, promised, have) {
		return &pb.WriteAck{Promised: promised, Have: toPB(have)}, nil
	}
	return r.snapshot(m)
}

// snapshot replaces key's records page by page; the last page sets the
// version. Until it does, the records are marked as holding no version,
// so that a snapshot cut off after its first pages is never taken for a
// complete copy (a promise reports it as the oldest, a write finds it
// behind and sends a whole snapshot again).
func (r *replica) snapshot(m *pb.Snapshot) (*pb.WriteAck, error) {
	var clear []persistence.Put
	if m.First {
		var err error
		if clear, err = r.clearing(m.Key); err != nil {
			return nil, err
		}
	}
	v, err := r.db.Version(m.Key)
	if err != nil {
		return nil, err
	}
	switch {
	case m.Last:
		v = fromPB(m.Ver)
	case m.First:
		v = persistence.Version{}
	}
	if err := r.db.Apply(m.Key, v, toPuts(m.Records), clear); err != nil {
		return nil, err
	}
	return &pb.WriteAck{Ok: true, Have: toPB(v)}, nil
}

// clearing lists deletes that drop every record of key.
func (r *replica) clearing(key string) ([]persistence.Put, error) {
	var out []persistence.Put
	for _, rg := range r.records(key) {
		switch {
		case rg.Exact:
			out = append(out, persistence.Put{Kind: rg.Kind, ID: rg.Prefix})
		case rg.Suffix == "":
			out = append(out, persistence.Put{Kind: rg.Kind, ID: rg.Prefix, Prefix: true})
		default:
			err := r.db.ScanRange(rg, func(id string, _ []byte) error {
				out = append(out, persistence.Put{Kind: rg.Kind, ID: id})
				return nil
			})
			if err != nil {
				return nil, err
			}
		}
	}
	return out, nil
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
