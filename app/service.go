package app

import (
	"github.com/mockgql/mockgql/actors"
)

// Service is the use-case layer the HTTP layer and MCP call; it implements
// every surface of http.Backends and mcp.Backend, and its exported methods
// are those use cases and nothing else. It reaches grains only through the
// node's typed client (actors.Client, a named field: its methods do not
// become Service's), reads the node's snapshots (actors.Local) and data
// pool (actors.Pool), holds no state of its own and is safe for concurrent
// use.
type Service struct {
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

// NewService returns a Service over env, which must be complete (Caller
// set) and not change afterwards. Its grain client and runtime path are the
// node's (actors.Env.RuntimePath): the project grains' serve handler uses
// the same ones.
func NewService(env *actors.Env) *Service {
	rp := env.RuntimePath()
	s := &Service{grains: rp.Client(), runtime: rp, pool: env.Pool, local: env.Local, clock: env.Clock,
		cfg: env.Config, sessionKey: env.Config.SessionKey}
	if len(s.sessionKey) == 0 {
		s.sessionKey = randomKey()
	}
	return s
}
