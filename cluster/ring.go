package cluster

import (
	"hash/fnv"
	"sort"
	"strings"

	protocluster "github.com/asynkron/protoactor-go/cluster"
)

// ranked orders members for a grain key ("kind/identity") by the same
// rendezvous score disthash uses to place the grain (fnv32a of identity and
// member address), highest first: rank 1 is the grain's owner, and the next
// ranks are who owns it if that node dies, so they hold its replicas.
func ranked(key string, members []*protocluster.Member) []string {
	identity := key
	if i := strings.IndexByte(key, '/'); i >= 0 {
		identity = key[i+1:]
	}
	type scored struct {
		addr  string
		score uint32
	}
	out := make([]scored, 0, len(members))
	for _, m := range members {
		h := fnv.New32a()
		h.Write([]byte(identity))
		h.Write([]byte(m.Address()))
		out = append(out, scored{m.Address(), h.Sum32()})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].addr < out[j].addr
	})
	addrs := make([]string, len(out))
	for i, s := range out {
		addrs[i] = s.addr
	}
	return addrs
}

// majority is how many of n replicas make a quorum.
func majority(n int) int { return n/2 + 1 }
