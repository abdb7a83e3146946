package actors

import (
	"encoding/binary"
	"slices"
	"time"

	"github.com/mockgql/mockgql/persistence"
)

// kindReply holds the answers to a project's recent mutations by request
// ID, written in the same batch as the mutation's changes. A call that
// cluster.Request delivers again (its first answer was lost, or the
// grain's node died after the write and the grain moved) is answered from
// here instead of applying the mutation twice.
const kindReply = "reply"

// keepReplies is how many mutation answers a project keeps.
const keepReplies = 128

// replyLog is a project activation's view of its kindReply records. Only
// the grain's goroutine uses it.
type replyLog struct {
	bodies map[string][]byte // request ID → answer body
	order  []string          // request IDs, oldest first
}

// loadReplies reads the project's records, oldest first.
func loadReplies(store Store, projectID string) (*replyLog, error) {
	type rec struct {
		id string
		at int64
	}
	l := &replyLog{bodies: map[string][]byte{}}
	var recs []rec
	err := store.Scan(kindReply, projectID+"/", func(id string, v []byte) error {
		if len(v) < 8 {
			return nil
		}
		reqID := id[len(projectID)+1:]
		l.bodies[reqID] = append([]byte(nil), v[8:]...)
		recs = append(recs, rec{reqID, int64(binary.BigEndian.Uint64(v[:8]))})
		return nil
	})
	slices.SortFunc(recs, func(a, b rec) int { return int(min(max(a.at-b.at, -1), 1)) })
	for _, r := range recs {
		l.order = append(l.order, r.id)
	}
	return l, err
}

// puts returns the writes that record body as the answer to reqID, and
// drop the oldest answers beyond keepReplies.
func (l *replyLog) puts(projectID, reqID string, body []byte, now time.Time) []persistence.Put {
	v := make([]byte, 8+len(body))
	binary.BigEndian.PutUint64(v, uint64(now.UnixNano()))
	copy(v[8:], body)
	out := []persistence.Put{{Kind: kindReply, ID: projectID + "/" + reqID, Value: v}}
	for i := 0; i < len(l.order)+1-keepReplies; i++ {
		out = append(out, persistence.Put{Kind: kindReply, ID: projectID + "/" + l.order[i]})
	}
	return out
}

// add records what puts wrote, once the write succeeded.
func (l *replyLog) add(reqID string, body []byte) {
	l.bodies[reqID] = body
	l.order = append(l.order, reqID)
	if n := len(l.order) - keepReplies; n > 0 {
		for _, id := range l.order[:n] {
			delete(l.bodies, id)
		}
		l.order = append(l.order[:0], l.order[n:]...)
	}
}
