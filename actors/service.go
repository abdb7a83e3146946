package actors

import (
	"github.com/asynkron/protoactor-go/actor"
)

// Grain kinds.
const (
	KindProject = kindProject
	KindAPIKey  = "apikey"
	KindAccount = "account"
	KindUser    = "user"
	KindSlug    = "slug"
	KindDataset = kindDataset
	// KindAdoption is a one-time adoption token: adoption/<sha256>.
	KindAdoption = "adoption"
)

// Kinds returns the producers of every grain kind, bound to env; the node
// registers them with the cluster.
func Kinds(env *Env) map[string]actor.Producer {
	kinds := map[string]actor.Producer{
		KindProject: func() actor.Actor { return newGrain(env, &projectGrain{}) },
		KindAPIKey:  func() actor.Actor { return newGrain(env, &keyGrain{}) },
		KindAccount: func() actor.Actor { return newGrain(env, &accountGrain{}) },
		KindUser:    func() actor.Actor { return newGrain(env, &userGrain{}) },
		KindSlug:    func() actor.Actor { return newGrain(env, &slugGrain{}) },
		KindDataset: func() actor.Actor { return newGrain(env, &datasetGrain{}) },
		KindIP: func() actor.Actor {
			return newGrain(env, &meterGrain{p: perMinute, limit: func(c Config) int64 { return int64(c.IPLimit) }, persist: true})
		},
		KindSession:  func() actor.Actor { return newGrain(env, &sessionGrain{}) },
		KindAdoption: func() actor.Actor { return newGrain(env, &adoptionGrain{}) },
	}
	for kind, p := range windowKinds(env) {
		kinds[kind] = p
	}
	return kinds
}

// Service is the use-case layer the HTTP layer calls; it implements
// http.Backend. It holds no state of its own beyond the node's grain client
// and is safe for concurrent use.
type Service struct {
	*grains
	env        *Env
	runtime    *RuntimePath
	sessionKey []byte
}

// NewService returns a Service over env. Its grain client and runtime path
// are the node's (Env.runtimePath): the project grains' serve handler uses
// the same ones.
func NewService(env *Env) *Service {
	rp := env.runtimePath()
	s := &Service{grains: rp.grains, env: env, runtime: rp, sessionKey: env.Config.SessionKey}
	if len(s.sessionKey) == 0 {
		s.sessionKey = randomKey()
	}
	return s
}
