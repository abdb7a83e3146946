package cluster

import (
	"context"
	"fmt"

	"github.com/mockgql/mockgql/cluster/pb"
	"github.com/mockgql/mockgql/persistence"
)

// Whole copies of a grain's records moving between nodes: pushed to a
// replica a write found behind, pulled by an activation from the most
// recent replica and by a catch-up from the members. Each is read at one
// version and installed only forward (see install).

// copyTries bounds how often a snapshot is read again because the copy
// it is read from changed between two of its pages.
const copyTries = 3

// readCopy reads a whole copy of key's records, page by page, through
// page (this node's replica or another's); every page must come from the
// same version, or it starts again. ok false: a page was not answered, or
// the copy kept changing.
func readCopy(key string, page func(*pb.Read) *pb.ReadReply) (v persistence.Version, pages [][]*pb.Record, ok bool) {
	for try := 0; try < copyTries; try++ {
		pages = pages[:0]
		after := &pb.Read{Key: key}
		for first := true; ; first = false {
			p := page(after)
			if p == nil {
				return v, nil, false
			}
			if pv := fromPB(p.Have); first {
				v = pv
			} else if pv != v {
				break // changed since the first page: read it again
			}
			pages = append(pages, p.Records)
			if !p.More {
				return v, pages, true
			}
			if len(p.Records) == 0 {
				break
			}
			last := p.Records[len(p.Records)-1]
			after = &pb.Read{Key: key, AfterKind: last.Kind, AfterId: last.Id}
		}
	}
	return v, nil, false
}

// pushSnapshot copies this node's records of key to addr, page by page,
// labelled with the version they were read at.
func (s *Store) pushSnapshot(addr, key string) bool {
	r := &replica{db: s.db, records: s.cfg.Records, log: s.node.cfg.Logger}
	v, pages, ok := readCopy(key, func(m *pb.Read) *pb.ReadReply {
		p, err := r.read(m)
		if err != nil {
			return nil
		}
		return p
	})
	if !ok {
		return false
	}
	for i, recs := range pages {
		snap := &pb.Snapshot{Key: key, Ver: toPB(v), Records: recs, First: i == 0, Last: i == len(pages)-1}
		if ack, ok := s.ask(addr, snap).(*pb.WriteAck); !ok || !ack.Ok {
			return false
		}
	}
	return true
}

// pull replaces this node's records of key with addr's, unless this node
// holds the same version or a newer one by the time they arrive (see
// install).
func (s *Store) pull(addr, key string) error {
	v, recs, ok := s.readFrom(addr, key)
	if !ok {
		return errNoQuorum(key, 0, 1)
	}
	_, err := install(s.db, s.cfg.Records, key, v, recs)
	return err
}

// readFrom reads addr's whole copy of key (see readCopy).
func (s *Store) readFrom(addr, key string) (persistence.Version, []persistence.Put, bool) {
	v, pages, ok := readCopy(key, func(m *pb.Read) *pb.ReadReply {
		p, _ := s.ask(addr, m).(*pb.ReadReply)
		return p
	})
	var recs []persistence.Put
	for _, p := range pages {
		recs = append(recs, toPuts(p)...)
	}
	return v, recs, ok
}

// Fetch pulls key's records from the first other member that holds them.
// It is for grains every node holds (datasets): a node that finds one
// missing — a replication to it that never arrived, a catch-up that ran
// before all peers were seen — fetches it on first use rather than
// answering without it. It reports whether the records are here now.
func (s *Store) Fetch(key, kind, id string) bool {
	self := s.node.system.Address()
	for _, m := range s.node.memberList() {
		if m.Address() == self {
			continue
		}
		if err := s.pull(m.Address(), key); err != nil {
			continue
		}
		if b, err := s.db.Get(kind, id); err == nil && b != nil {
			s.node.cfg.Logger.Warn("fetched a grain this node should have held", "key", key, "from", m.Address())
			return true
		}
	}
	return false
}

// CatchUp brings this node's copies up to date with the other members':
// every grain for which this node is a replica and a member holds a newer
// version is pulled. A node that comes back runs it before it serves, and
// must not serve when it fails, as when ctx ends.
//
// Members may fail to answer, as many as a write's majority can do
// without: an acknowledged write this node missed is held by a majority
// of its replicas other than this node, so all but that many of them
// answer. With 3 replicas that is one member — typically the previous
// process of a node restarted a moment ago, still listed by the others.
// More silent members fail the catch-up: one of them may hold the only
// newer copy of a grain this node is a replica of.
func (s *Store) CatchUp(ctx context.Context) error {
	self := s.node.system.Address()
	r := min(s.cfg.Replicas, s.node.seenSize(1))
	silent, tolerate := 0, r-majority(r)
	for _, m := range s.node.memberList() {
		if m.Address() == self {
			continue
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("catching up: %w", err)
		}
		err, local := s.catchUpFrom(m.Address())
		if local != nil {
			return fmt.Errorf("catching up: %w", local)
		}
		if err == nil {
			continue
		}
		if silent++; silent > tolerate {
			return fmt.Errorf("catching up: %w (%d members did not answer, at most %d may not)", err, silent, tolerate)
		}
		s.node.cfg.Logger.Warn("catching up without a member that did not answer", "member", m.Address(), "err", err)
	}
	return nil
}

// catchUpFrom pulls from addr every grain this node is a replica of and
// addr holds newer. remote is addr's failure to answer, local this node's
// failure to read or write its own copy.
func (s *Store) catchUpFrom(addr string) (remote, local error) {
	vs, ok := s.ask(addr, &pb.Versions{}).(*pb.VersionsReply)
	if !ok {
		return fmt.Errorf("member %s did not list its versions", addr), nil
	}
	for key, v := range vs.Versions {
		if !s.isReplica(key) {
			continue
		}
		have, err := s.db.Version(key)
		if err != nil {
			return nil, err
		}
		if !have.Less(fromPB(v)) {
			continue
		}
		copyV, recs, ok := s.readFrom(addr, key)
		if !ok {
			return fmt.Errorf("member %s did not send %s", addr, key), nil
		}
		if _, err := install(s.db, s.cfg.Records, key, copyV, recs); err != nil {
			return nil, err
		}
	}
	return nil, nil
}
