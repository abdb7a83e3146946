package app

import "github.com/mockgql/mockgql/actors"

// Service is the use-case layer the HTTP layer and MCP call; it implements
// every surface of http.Backends and mcp.Backend. It embeds the node's grain
// client (actors.Client: Ask, Tell, the sweeper), holds no state of its own
// and is safe for concurrent use.
type Service struct {
	*actors.Client
	env        *actors.Env
	runtime    *actors.RuntimePath
	sessionKey []byte
}

// NewService returns a Service over env. Its grain client and runtime path
// are the node's (actors.Env.RuntimePath): the project grains' serve
// handler uses the same ones.
func NewService(env *actors.Env) *Service {
	rp := env.RuntimePath()
	s := &Service{Client: rp.Client(), env: env, runtime: rp, sessionKey: env.Config.SessionKey}
	if len(s.sessionKey) == 0 {
		s.sessionKey = randomKey()
	}
	return s
}
