package cluster

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/mockgql/mockgql/cluster/pb"
)

// broadcastName is the name of every node's broadcast actor.
const broadcastName = "mgq-broadcast"

// broadcaster hands the broadcasts other nodes send to Config.OnBroadcast,
// one at a time, in the order each sender sent them.
type broadcaster struct{ on func([]byte) }

// Receive implements actor.Actor.
func (b *broadcaster) Receive(ctx actor.Context) {
	if m, ok := ctx.Message().(*pb.Broadcast); ok && b.on != nil {
		b.on(m.Data)
	}
}

// Broadcast hands data to Config.OnBroadcast on every member of the
// current topology: on this node at once (on the caller's goroutine), on
// the others through their broadcast actor. It does not wait and does not
// retry: a member that is down or joins meanwhile misses data (at most
// once). Broadcasts one goroutine makes reach each member in the order it
// made them (protoactor keeps one ordered stream per peer).
func (n *Node) Broadcast(data []byte) {
	if n.stopped.Load() {
		return
	}
	self := n.system.Address()
	msg := &pb.Broadcast{Data: data}
	for _, m := range n.memberList() {
		if addr := m.Address(); addr != self {
			n.system.Root.Send(actor.NewPID(addr, broadcastName), msg)
		}
	}
	if n.cfg.OnBroadcast != nil {
		n.cfg.OnBroadcast(data)
	}
}

// startBroadcaster spawns this node's broadcast actor.
func (n *Node) startBroadcaster() error {
	b := &broadcaster{on: n.cfg.OnBroadcast}
	_, err := n.system.Root.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return b }), broadcastName)
	return err
}
