package app

import (
	"github.com/mockgql/mockgql/actors"
)

// core is what every surface's use cases share: the node's typed client
// of the grains (actors.Client, a named field: its methods do not become
// a surface's), its runtime path, snapshots (actors.Local) and data pool
// (actors.Pool), and the helpers the use cases have in common
// (unexported, so embedding core adds no use case to a surface). It holds
// no state of its own and is safe for concurrent use.
type core struct {
	grains  *actors.Client
	runtime *actors.RuntimePath
	pool    *actors.Pool
	// local holds the node's read snapshots; nil: every read is a grain call.
	local      *actors.Local
	clock      actors.Clock
	cfg        actors.Config
	sessionKey []byte
}

// system is the access of the node itself (every right), for the calls a
// use case makes on no caller's behalf (adoption, transfers).
var system = actors.Access{System: true}

// newCore returns the core over env, which must be complete (Caller set)
// and not change afterwards. Its grain client and runtime path are the
// node's (actors.Env.RuntimePath): the project grains' serve handler uses
// the same ones.
func newCore(env *actors.Env) *core {
	rp := env.RuntimePath()
	s := &core{grains: rp.Client(), runtime: rp, pool: env.Pool, local: env.Local, clock: env.Clock,
		cfg: env.Config, sessionKey: env.Config.SessionKey}
	if len(s.sessionKey) == 0 {
		s.sessionKey = randomKey()
	}
	return s
}
