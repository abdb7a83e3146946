package actors

// Service is the use-case layer the HTTP layer calls; it implements
// http.Backend. It holds no state of its own beyond the node's grain client
// and is safe for concurrent use.
type Service struct {
	*Client
	env        *Env
	runtime    *RuntimePath
	sessionKey []byte
}

// NewService returns a Service over env. Its grain client and runtime path
// are the node's (Env.runtimePath): the project grains' serve handler uses
// the same ones.
func NewService(env *Env) *Service {
	rp := env.runtimePath()
	s := &Service{Client: rp.grains, env: env, runtime: rp, sessionKey: env.Config.SessionKey}
	if len(s.sessionKey) == 0 {
		s.sessionKey = randomKey()
	}
	return s
}
