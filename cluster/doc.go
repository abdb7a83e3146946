// Package cluster runs one mockgql node: a protoactor-go actor system with
// remote (gRPC) messaging, the cluster extension with rendezvous placement
// (disthash), and a hashicorp/memberlist provider that tells protoactor who
// the members are. A single node is a cluster of one: the same code runs
// with a memberlist of one member.
//
// Grains are called through Node.Request, which wraps cluster.Request so
// that the caller's deadline is respected and the library's quirks (a fixed
// 5 s lookup, no retry backoff, a process-global RequestFuture config; see
// shared/research/protoactor.md) stay out of the callers.
//
//	n, err := cluster.Start(cfg) // cfg.Kinds: grain producers by kind name
//	defer n.Stop(true)
//	reply, err := n.Request(ctx, "project", projectID, &pb.Call{Method: "get"})
package cluster
